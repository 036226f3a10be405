package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.Anomaly;
import java.util.ArrayList;
import java.util.List;

/**
 * What the detector said about one job around a fault, read off a replay's timeline: anomalies
 * before and after the fault's start and the causes the diagnosis named after it, in order. Both
 * the corpus report ({@link ScenarioVerdict}) and the family report ({@link JobResult}) judge from
 * it, so "detected", "named first" and "named before it" mean the same in both.
 *
 * @param anomaliesBefore anomalies that started before the fault (every anomaly of a healthy
 *     control)
 * @param anomaliesTotal every anomaly opened for the job
 * @param firstAnomalyAfterMs event time of the batch that opened the first anomaly starting at or
 *     after the fault, or -1
 * @param firstSignal that anomaly's signal, or null
 * @param firstKnownCause the first cause other than {@code unknown} the diagnosis named at or
 *     after the fault's start, or null
 * @param firstKnownAtMs when, or -1
 * @param expectedAtMs event time of the first diagnosis naming the expected cause at or after
 *     the fault's start, or -1
 * @param wrongBefore other known causes named after the fault's start and before the expected
 *     one, distinct, in order (all of them when the expected cause is never named)
 * @param early the anomalies that started before the fault (none for a healthy control)
 * @param takenBack the known causes the diagnosis moved to from the expected one after naming it,
 *     once per move, in order: the right alert replaced by another while the fault lasts
 */
record CauseTimeline(int anomaliesBefore, int anomaliesTotal, long firstAnomalyAfterMs,
    String firstSignal, String firstKnownCause, long firstKnownAtMs, long expectedAtMs,
    List<String> wrongBefore, List<Anomaly> early, List<String> takenBack) {

  /**
   * @param faultStartMs the fault's start, or -1 for a healthy control (then every anomaly is
   *     "before" and no cause is judged)
   */
  static CauseTimeline of(List<TimelineEvent> events, String job, long faultStartMs,
      String expected) {
    boolean healthy = faultStartMs < 0;
    int before = 0;
    int total = 0;
    long firstAfter = -1;
    String signal = null;
    String firstKnown = null;
    long firstKnownAt = -1;
    long expectedAt = -1;
    List<String> wrong = new ArrayList<>();
    List<String> taken = new ArrayList<>();
    List<Anomaly> early = new ArrayList<>();
    String lastKnown = null;
    for (TimelineEvent e : events) {
      if (!e.job().equals(job)) {
        continue;
      }
      if (e.kind() == TimelineEvent.Kind.DIAGNOSIS_CHANGED && !healthy && e.after() != null) {
        String cause = e.after().cause();
        boolean known = !cause.equals(UnknownCauseDiagnoser.UNKNOWN);
        if (expectedAt >= 0) {
          // through unknown or a closed diagnosis too: what the operator sees next is this cause
          if (known && expected.equals(lastKnown) && !cause.equals(expected)) {
            taken.add(cause);
          }
          lastKnown = known ? cause : lastKnown;
        } else if (e.atMs() >= faultStartMs) {
          if (known && firstKnown == null) {
            firstKnown = cause;
            firstKnownAt = e.atMs();
          }
          if (cause.equals(expected)) {
            expectedAt = e.atMs();
            lastKnown = cause;
          } else if (known && !wrong.contains(cause)) {
            wrong.add(cause);
          }
        }
      }
      if (e.kind() != TimelineEvent.Kind.ANOMALY_OPENED) {
        continue;
      }
      total++;
      Anomaly a = e.anomaly();
      if (healthy || a.startedAtMs() < faultStartMs) {
        before++;
        if (!healthy) {
          early.add(a);
        }
      } else if (firstAfter < 0) {
        firstAfter = e.atMs();
        signal = a.signal().id();
      }
    }
    return new CauseTimeline(before, total, firstAfter, signal, firstKnown, firstKnownAt,
        expectedAt, List.copyOf(wrong), List.copyOf(early), List.copyOf(taken));
  }
}
