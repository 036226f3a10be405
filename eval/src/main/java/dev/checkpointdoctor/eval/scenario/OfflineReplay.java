package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Runs recorded histories through a detector wired like the service's, in event time: samples of
 * all files are merged by timestamp and every distinct timestamp is one batch ({@link
 * Detector#endBatch()} after it), as if each scrape arrived in its own remote-write request.
 */
public final class OfflineReplay {
  private final Detector detector;
  private final SignalCatalog catalog = SignalCatalog.defaults();
  private final List<TimelineEvent> events = new ArrayList<>();
  private final Set<Labels> series = new HashSet<>();
  private Progress progress;
  private long batchTs = Long.MIN_VALUE;
  private long samples;
  private long firstTs = Long.MAX_VALUE;
  private long lastTs = Long.MIN_VALUE;
  private LongConsumer afterBatch = ts -> {};

  public OfflineReplay(DetectorSettings settings) {
    this.detector = new Detector(catalog, settings, new CauseRanker(settings));
    detector.addListener(new DetectorListener() {
      @Override
      public void anomalyOpened(Anomaly anomaly) {
        events.add(new TimelineEvent(batchTs, TimelineEvent.Kind.ANOMALY_OPENED, anomaly.job(),
            anomaly, null, null));
      }

      @Override
      public void anomalyResolved(Anomaly anomaly) {
        events.add(new TimelineEvent(batchTs, TimelineEvent.Kind.ANOMALY_RESOLVED, anomaly.job(),
            anomaly, null, null));
      }

      @Override
      public void diagnosisChanged(String job, Diagnosis before, Diagnosis after, long atMs) {
        events.add(new TimelineEvent(atMs, TimelineEvent.Kind.DIAGNOSIS_CHANGED, job, null,
            before, after));
      }
    });
  }

  /**
   * Called with the batch's event time after every batch the detector has finished, e.g. to
   * look at a job's diagnosis as it evolves.
   */
  public void afterEachBatch(LongConsumer observer) {
    this.afterBatch = observer;
  }

  /** Reports what it reads and how far the replay is to {@code progress} (stderr). */
  public OfflineReplay reportingTo(Progress progress) {
    this.progress = progress;
    return this;
  }

  /** Reads every file first (so a bad line fails before anything is replayed), then replays. */
  public void replayFiles(List<Path> files) throws HistoryFormatException {
    HistoryReader reader = new HistoryReader();
    List<RecordedSample> all = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      if (progress != null) {
        progress.say(String.format(Locale.ROOT, "reading %s (%d of %d)", files.get(i), i + 1,
            files.size()));
      }
      all.addAll(reader.read(files.get(i)));
    }
    for (RecordedSample s : all) {
      series.add(s.labels());
    }
    replay(all);
  }

  /** Node and container series of the files replayed that joined no job, and how to fix it. */
  public List<String> joinReport() {
    JoinReport report = new JoinReport(catalog);
    series.forEach(report::see);
    return report.lines(detector, detector.settings().hostAliases());
  }

  /** Replays samples in timestamp order (the sort is stable: per series, file order is kept). */
  public void replay(List<RecordedSample> input) {
    List<RecordedSample> sorted = new ArrayList<>(input);
    sorted.sort(Comparator.comparingLong(RecordedSample::timestampMs));
    if (progress != null && !sorted.isEmpty()) {
      progress.say(String.format(Locale.ROOT, "replaying %,d samples, %s .. %s", sorted.size(),
          Instant.ofEpochMilli(sorted.get(0).timestampMs()),
          Instant.ofEpochMilli(sorted.get(sorted.size() - 1).timestampMs())));
    }
    int i = 0;
    while (i < sorted.size()) {
      if (progress != null) {
        int done = i;
        progress.tick(() -> String.format(Locale.ROOT, "%d %% of the samples, event time %s, "
            + "%d anomalies opened", (long) done * 100 / sorted.size(),
            Instant.ofEpochMilli(sorted.get(done).timestampMs()), openedCount()));
      }
      long ts = sorted.get(i).timestampMs();
      Map<Labels, List<RecordedSample>> batch = new LinkedHashMap<>();
      int j = i;
      while (j < sorted.size() && sorted.get(j).timestampMs() == ts) {
        RecordedSample s = sorted.get(j);
        batch.computeIfAbsent(s.labels(), k -> new ArrayList<>()).add(s);
        j++;
      }
      batchTs = ts;
      for (Map.Entry<Labels, List<RecordedSample>> e : batch.entrySet()) {
        List<RecordedSample> list = e.getValue();
        long[] t = new long[list.size()];
        double[] v = new double[list.size()];
        for (int k = 0; k < list.size(); k++) {
          t[k] = list.get(k).timestampMs();
          v[k] = list.get(k).value();
        }
        detector.accept(e.getKey(), t, v);
      }
      detector.endBatch();
      afterBatch.accept(ts);
      samples += j - i;
      firstTs = Math.min(firstTs, ts);
      lastTs = Math.max(lastTs, ts);
      i = j;
    }
  }

  /**
   * Replays a generated history as it is played: every distinct timestamp is one batch, as for
   * {@link #replay(List)}, without holding the history in memory.
   */
  public void replay(GeneratedScenario scenario) {
    long[] t = new long[1];
    double[] v = new double[1];
    scenario.play((labels, ts, value) -> {
      if (ts < batchTs) {
        throw new IllegalStateException(scenario.truth().name() + " went back in time: " + ts
            + " after " + batchTs);
      }
      if (ts != batchTs && batchTs != Long.MIN_VALUE) {
        detector.endBatch();
        afterBatch.accept(batchTs);
      }
      batchTs = ts;
      t[0] = ts;
      v[0] = value;
      detector.accept(labels, t, v);
      samples++;
      firstTs = Math.min(firstTs, ts);
      lastTs = Math.max(lastTs, ts);
    });
    if (batchTs != Long.MIN_VALUE) {
      detector.endBatch();
      afterBatch.accept(batchTs);
    }
  }

  private long openedCount() {
    return events.stream().filter(e -> e.kind() == TimelineEvent.Kind.ANOMALY_OPENED).count();
  }

  public Detector detector() {
    return detector;
  }

  public List<TimelineEvent> events() {
    return events;
  }

  public long samples() {
    return samples;
  }

  public long firstTimestampMs() {
    return firstTs;
  }

  public long lastTimestampMs() {
    return lastTs;
  }
}
