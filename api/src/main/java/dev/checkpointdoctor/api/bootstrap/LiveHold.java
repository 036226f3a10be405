package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.api.ingest.LiveSampleGate;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Holds the live samples of a job while its history is read, so the detector sees the history
 * first and the live samples after it, in event-time order, and none is lost. A job is held from
 * its first live sample until its bootstrap ends ({@link #release}); then the held samples are
 * fed (those the history already covered are left out and counted) and the job's samples pass
 * from then on. Series without a job_name (TaskManager JVMs, disks, containers) are held
 * together at a first start, while they are read from history too.
 *
 * <p>Bounded: at most {@code capacity} samples in all holds. When full, a job still waiting for
 * its turn gives up its history: its held samples go to the detector at once and it learns live
 * (the one with most held first); only when no waiting job is left (the one reading now, and the
 * shared series at a first start) are samples dropped, and counted. Used on the detector thread
 * only (the gate and the release tasks), except the counters.
 */
final class LiveHold implements LiveSampleGate {
  /** Hold key of the series without a job_name. */
  static final String SHARED = "";

  /** Asked on first sight of a job: true when it will bootstrap (hold it meanwhile). */
  interface NewJobs {
    boolean noticed(String job);

    /** Samples dropped because the hold is full (reported once by the receiver). */
    void holdFull(long capacity, long dropped);

    /** Held samples left out at release because history already had them. */
    void coveredByHistory(long samples);

    /**
     * The hold is full: this job learns live and its history is not read, unless it is being
     * read already (then false).
     */
    boolean tryGiveUp(String job, long capacity);
  }

  private final long capacity;
  private final NewJobs newJobs;
  private final Detector detector;
  private final Set<String> live = new HashSet<>();
  private final Map<String, Map<Labels, Buffer>> held = new HashMap<>();
  private boolean sharedHeld;
  private long heldSamples;
  private final AtomicLong heldGauge = new AtomicLong();
  private final AtomicLong droppedFull = new AtomicLong();
  private final AtomicLong covered = new AtomicLong();
  private final AtomicLong released = new AtomicLong();

  /**
   * @param liveJobs jobs that learn live from the start (restored from a snapshot)
   * @param holdShared whether series without a job_name are held until {@link #release} of
   *     {@link #SHARED}
   */
  LiveHold(long capacity, Collection<String> liveJobs, boolean holdShared, NewJobs newJobs,
      Detector detector) {
    this.capacity = capacity;
    this.newJobs = newJobs;
    this.detector = detector;
    this.live.addAll(liveJobs);
    this.sharedHeld = holdShared;
  }

  @Override
  public boolean take(Labels labels, long[] timestamps, double[] values, int from, int to) {
    String job = labels.get("job_name");
    Map<Labels, Buffer> hold;
    if (job == null) {
      if (!sharedHeld) {
        return false;
      }
      hold = held.computeIfAbsent(SHARED, k -> new LinkedHashMap<>());
    } else {
      if (live.contains(job)) {
        return false;
      }
      hold = held.get(job);
      if (hold == null) {
        if (!newJobs.noticed(job)) {
          live.add(job);
          return false;
        }
        hold = new LinkedHashMap<>();
        held.put(job, hold);
      }
    }
    int n = to - from;
    while (heldSamples + n > capacity && giveUpOne()) {
      if (job != null && live.contains(job)) {
        return false; // it was this job: its samples go on live
      }
    }
    if (heldSamples + n > capacity) {
      int fits = (int) Math.max(0, capacity - heldSamples);
      droppedFull.addAndGet(n - fits);
      newJobs.holdFull(capacity, n - fits);
      n = fits;
    }
    if (n > 0) {
      hold.computeIfAbsent(labels, l -> new Buffer()).add(timestamps, values, from, n);
      heldSamples += n;
      heldGauge.set(heldSamples);
    }
    return true;
  }

  /** Releases the waiting job with most held samples; false when there is none. */
  private boolean giveUpOne() {
    List<Map.Entry<String, Long>> bySize = new ArrayList<>();
    for (Map.Entry<String, Map<Labels, Buffer>> e : held.entrySet()) {
      if (!e.getKey().equals(SHARED)) {
        long n = 0;
        for (Buffer b : e.getValue().values()) {
          n += b.size;
        }
        bySize.add(Map.entry(e.getKey(), n));
      }
    }
    bySize.sort(Map.Entry.<String, Long>comparingByValue().reversed());
    for (Map.Entry<String, Long> e : bySize) {
      if (newJobs.tryGiveUp(e.getKey(), capacity)) {
        release(e.getKey(), Map.of(), detector);
        return true;
      }
    }
    return false;
  }

  /**
   * Ends the hold of {@code key} (a job, or {@link #SHARED}): feeds its held samples to the
   * detector in event-time order, leaving out those at or before the history's last scrape of
   * their instance ({@code coveredUntil}, by {@link HistoryFeed#instanceKey}); from now on its
   * samples pass. Runs on the detector thread.
   */
  void release(String key, Map<String, Long> coveredUntil, Detector detector) {
    if (key.equals(SHARED)) {
      sharedHeld = false;
    } else {
      live.add(key);
    }
    Map<Labels, Buffer> hold = held.remove(key);
    if (hold == null || hold.isEmpty()) {
      return;
    }
    List<Labels> labels = new ArrayList<>(hold.keySet());
    List<Buffer> buffers = new ArrayList<>(hold.values());
    long[] cutoff = new long[labels.size()];
    PriorityQueue<int[]> next = new PriorityQueue<>((a, b) -> {
      int c = Long.compare(buffers.get(a[0]).ts[a[1]], buffers.get(b[0]).ts[b[1]]);
      return c != 0 ? c : Integer.compare(a[0], b[0]);
    });
    for (int s = 0; s < labels.size(); s++) {
      Long c = coveredUntil.get(HistoryFeed.instanceKey(labels.get(s)));
      cutoff[s] = c == null ? Long.MIN_VALUE : c;
      if (buffers.get(s).size > 0) {
        next.add(new int[] {s, 0});
      }
    }
    long fed = 0;
    long skipped = 0;
    while (!next.isEmpty()) {
      int[] cur = next.poll();
      Buffer b = buffers.get(cur[0]);
      int i = cur[1];
      if (b.ts[i] <= cutoff[cur[0]]) {
        skipped++;
      } else {
        detector.accept(labels.get(cur[0]), b.ts, b.vs, i, i + 1);
        fed++;
      }
      if (i + 1 < b.size) {
        cur[1] = i + 1;
        next.add(cur);
      }
    }
    detector.endBatch();
    heldSamples -= fed + skipped;
    heldGauge.set(heldSamples);
    released.addAndGet(fed);
    covered.addAndGet(skipped);
    if (skipped > 0) {
      newJobs.coveredByHistory(skipped);
    }
  }

  /** Samples held now. */
  long held() {
    return heldGauge.get();
  }

  /** Samples dropped because the hold was full. */
  long droppedFull() {
    return droppedFull.get();
  }

  /** Held samples left out because history already had them. */
  long covered() {
    return covered.get();
  }

  /** Held samples fed after their job's history. */
  long released() {
    return released.get();
  }

  /** Releases every hold (at shutdown: what was accepted is processed, history or not). */
  void releaseAll(Detector detector) {
    for (String key : new ArrayList<>(held.keySet())) {
      release(key, Map.of(), detector);
    }
    sharedHeld = false;
  }

  private static final class Buffer {
    long[] ts = new long[8];
    double[] vs = new double[8];
    int size;

    void add(long[] t, double[] v, int from, int n) {
      if (size + n > ts.length) {
        int cap = Math.max(size + n, ts.length * 2);
        ts = Arrays.copyOf(ts, cap);
        vs = Arrays.copyOf(vs, cap);
      }
      System.arraycopy(t, from, ts, size, n);
      System.arraycopy(v, from, vs, size, n);
      size += n;
    }
  }
}
