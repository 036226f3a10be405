package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.SignalExtractor.NONE;

import dev.checkpointdoctor.detector.extract.JobRun.Frame;
import dev.checkpointdoctor.detector.extract.SignalExtractor.Series;
import dev.checkpointdoctor.detector.model.Observation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A job's JobManager gauges (checkpoint duration, sizes, counts, ...), gathered per scrape by
 * timestamp however their samples arrive: in any request, through any Prometheus shard, before or
 * after other sources. A scrape's frame is finished once every live series of its run has
 * reported at or after its timestamp (a per-job watermark), so only the job's own series decide.
 * A run's first frame waits until every series seen has moved past it, since which series a job
 * has is only known from its scrapes: a shard already lagging when a job (or the service)
 * starts leaves that first frame without its series, and they count as late.
 *
 * <p>A series that falls silent without a stale marker would hold its job's frames forever: once
 * the job's newest sample is more than the delivery lag past a frame, the frame is finished
 * without it, and a series that far behind stops holding frames until it reports again. Samples
 * that arrive for a frame already finished are counted ({@code late_frame}).
 */
final class JobFrames {
  private static final int MAX_RESTART_HISTORY = 16;
  private static final int MAX_FRAMES_PER_RUN = 4096;

  /** Every run of one job (job key). */
  static final class JobState {
    final String name;
    final Map<String, JobRun> runs = new LinkedHashMap<>();
    final ArrayList<String> jobIds = new ArrayList<>();
    /**
     * Runs whose every series ended, kept as they were: their last finished frame, so stragglers
     * count as late, and their last checkpoint, so the same job_id back after a failed scrape
     * (Prometheus marks every series of it stale) does not report that checkpoint again.
     */
    final Map<String, JobRun> endedRuns = new LinkedHashMap<>();
    final ArrayDeque<long[]> failures = new ArrayDeque<>();
    String currentJobId;
    long newestTs = NONE;
    boolean dirty;

    JobState(String name) {
      this.name = name;
    }
  }

  private final long maxLagMs;
  private final long failureWindowMs;
  private final Map<String, JobState> jobs = new HashMap<>();
  private final ArrayList<JobState> dirty = new ArrayList<>();
  private long lateSamples;
  private long pendingSamples;

  JobFrames(long maxLagMs, long failureWindowMs) {
    this.maxLagMs = maxLagMs;
    this.failureWindowMs = failureWindowMs;
  }

  /** Fills in a new job-scope series. */
  void create(Series s, String jobKey, String jobId) {
    s.job = jobKey;
    s.jobId = jobId;
    s.scope = "job";
    jobs.computeIfAbsent(jobKey, JobState::new);
  }

  void onSample(Series s, long ts, double v) {
    // a live series' job and run stay put: a run is dropped only once all its series ended
    JobState j = s.jobState();
    if (j == null) {
      j = jobs.computeIfAbsent(s.job, JobState::new);
      s.jobState(j);
    }
    JobRun run = s.run;
    if (run == null) {
      run = run(j, s.jobId);
      s.run = run;
    }
    s.lastTs = ts;
    if (!s.opened) {
      s.opened = true;
      run.liveSeries++;
    }
    if (!s.member) {
      s.member = true;
      run.members.add(s);
    }
    if (ts > j.newestTs) {
      j.newestTs = ts;
    }
    touch(j);
    if (run.lastFinalTs != NONE && ts <= run.lastFinalTs) {
      lateSamples++;
      return;
    }
    Frame f = run.frameAt(ts);
    int bit = JobRun.bit(s.rule.kind());
    if ((f.mask & bit) == 0) {
      f.samples++;
      pendingSamples++;
    }
    f.vals[s.rule.kind().ordinal()] = v;
    f.mask |= bit;
  }

  void onSeriesEnd(Series s, long ts) {
    JobState j = s.jobState();
    JobRun run = s.run;
    if (j == null || run == null) {
      return;
    }
    run.members.remove(s);
    s.member = false;
    if (s.opened) {
      run.liveSeries--;
    }
    if (run.lastFinalTs == NONE || ts > run.lastFinalTs) {
      run.frameAt(ts).ended |= JobRun.bit(s.rule.kind());
    }
    touch(j);
  }

  private void touch(JobState j) {
    if (!j.dirty) {
      j.dirty = true;
      dirty.add(j);
    }
  }

  private JobRun run(JobState j, String jobId) {
    JobRun run = j.runs.get(jobId);
    if (run != null) {
      return run;
    }
    boolean restart = j.currentJobId != null && !j.currentJobId.equals(jobId);
    run = j.endedRuns.remove(jobId); // the same job_id back after all its series ended
    if (run == null) {
      run = new JobRun(jobId, restart);
    } else {
      run.liveSeries = 0;
    }
    j.runs.put(jobId, run);
    if (!jobId.equals(j.currentJobId)) {
      j.currentJobId = jobId;
      j.jobIds.remove(jobId);
      if (j.jobIds.size() >= MAX_RESTART_HISTORY) {
        j.jobIds.remove(0);
      }
      j.jobIds.add(jobId);
    }
    return run;
  }

  /** Finishes every frame its job's series have all passed (or given up waiting for). */
  void flush(Consumer<Observation> out) {
    for (int i = 0; i < dirty.size(); i++) {
      JobState j = dirty.get(i);
      j.dirty = false;
      long givenUpBefore = j.newestTs == NONE ? NONE : j.newestTs - maxLagMs;
      Iterator<JobRun> it = j.runs.values().iterator();
      while (it.hasNext()) {
        JobRun run = it.next();
        // a series this far behind its job stops holding frames until it reports again
        for (int m = run.members.size() - 1; m >= 0; m--) {
          Series s = run.members.get(m);
          if (s.lastTs < givenUpBefore) {
            s.member = false;
            run.members.remove(m);
          }
        }
        long known = run.watermark();
        while (!run.frames.isEmpty()) {
          Frame f = run.frames.get(0);
          // a run's first frame also waits for series it has not seen yet: until every series
          // seen has moved past it (a scrape split over requests); later frames are complete
          // once every series of the run has reported at or after them
          boolean complete = run.lastFinalTs == NONE ? f.ts < known : f.ts <= known;
          if (!complete && f.ts >= givenUpBefore && run.frames.size() <= MAX_FRAMES_PER_RUN) {
            break;
          }
          pendingSamples -= run.finishOldest(j.name, j.failures, failureWindowMs, out).samples;
        }
        if (run.liveSeries <= 0 && run.frames.isEmpty()) {
          it.remove(); // every series ended; stragglers now count as late
          j.endedRuns.put(run.jobId, run);
          if (j.endedRuns.size() > MAX_RESTART_HISTORY) {
            j.endedRuns.remove(j.endedRuns.keySet().iterator().next());
          }
        }
      }
    }
    dirty.clear();
  }

  Set<String> jobs() {
    return Collections.unmodifiableSet(new TreeSet<>(jobs.keySet()));
  }

  Optional<String> currentJobId(String job) {
    JobState j = jobs.get(job);
    return j == null ? Optional.empty() : Optional.ofNullable(j.currentJobId);
  }

  List<String> restarts(String job) {
    JobState j = jobs.get(job);
    return j == null ? List.of() : List.copyOf(j.jobIds);
  }

  int size() {
    return jobs.size();
  }

  long lateSamples() {
    return lateSamples;
  }

  /** Samples in frames not yet finished. */
  long pendingSamples() {
    return pendingSamples;
  }
}
