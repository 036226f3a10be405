package dev.checkpointdoctor.eval.delivery;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.eval.scenario.RecordedSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What a detector learnt and diagnosed for one job, in a form two runs can be compared by:
 * every baseline (signal, scope, state, observations, expected, band), every anomaly (signal,
 * scope, start, end) and the final diagnosis' cause.
 */
record Learned(List<String> baselines, List<String> anomalies, String cause) {

  static Detector detector(DeliverySettings delivery) {
    DetectorSettings settings = DetectorSettings.defaults();
    return new Detector(SignalCatalog.defaults(), settings, delivery, new CauseRanker(settings));
  }

  /** Samples in the order given, one at a time, a request ending every few hundred samples. */
  static Detector feed(Detector d, List<RecordedSample> arrivals, long seed) {
    return feed(d, arrivals, seed, 500);
  }

  /** As {@link #feed(Detector, List, long)}, batches of up to {@code maxBatch} samples. */
  static Detector feed(Detector d, List<RecordedSample> arrivals, long seed, int maxBatch) {
    Random rnd = new Random(seed);
    long[] t = new long[1];
    double[] v = new double[1];
    int untilEnd = 1 + rnd.nextInt(maxBatch);
    for (RecordedSample s : arrivals) {
      t[0] = s.timestampMs();
      v[0] = s.value();
      d.accept(s.labels(), t, v);
      if (--untilEnd == 0) {
        d.endBatch();
        untilEnd = 1 + rnd.nextInt(maxBatch);
      }
    }
    d.endBatch();
    return d;
  }

  /** In-order delivery as a reference: one batch per timestamp, as one scrape per request. */
  static Detector inOrder(DeliverySettings delivery, List<RecordedSample> samples) {
    Detector d = detector(delivery);
    long[] t = new long[1];
    double[] v = new double[1];
    long batch = Long.MIN_VALUE;
    for (RecordedSample s : Deliveries.inOrder(samples)) {
      if (s.timestampMs() != batch && batch != Long.MIN_VALUE) {
        d.endBatch();
      }
      batch = s.timestampMs();
      t[0] = s.timestampMs();
      v[0] = s.value();
      d.accept(s.labels(), t, v);
    }
    d.endBatch();
    return d;
  }

  static Learned of(Detector d, String job) {
    List<String> baselines = new ArrayList<>();
    for (BaselineSummary b : d.baselines(job)) {
      baselines.add(String.format(Locale.ROOT, "%s %s %s n=%d expected=%.9g band=%.9g..%.9g "
              + "last=%d", b.signal().id(), b.scope(), b.state(), b.observations(),
          b.expected(), b.lower(), b.upper(), b.lastTimestampMs()));
    }
    List<String> anomalies = new ArrayList<>();
    for (Anomaly a : d.anomalies(job, null, Long.MIN_VALUE)) {
      anomalies.add(a.signal().id() + " " + a.scope() + " " + a.startedAtMs() + ".."
          + (a.open() ? "open" : Long.toString(a.endedAtMs())));
    }
    anomalies.sort(null);
    String cause = d.diagnosis(job).map(x -> x.cause()).orElse("none");
    return new Learned(baselines, anomalies, cause);
  }

  static List<String> jobs(Detector d) {
    return d.jobs().stream().map(JobSummary::job).toList();
  }
}
