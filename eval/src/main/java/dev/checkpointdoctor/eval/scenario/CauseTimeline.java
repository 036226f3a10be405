package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.Diagnosis;
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
 *     after the fault's start, or null; a diagnosis standing when the fault began counts as
 *     named at its start
 * @param firstKnownAtMs when, or -1
 * @param expectedAtMs event time of the first diagnosis naming the expected cause at or after
 *     the fault's start (the start itself when it already stood then), or -1
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
    List<Anomaly> early = new ArrayList<>();
    Naming naming = new Naming(expected);
    // the diagnosis standing before the fault's start (null: none, or closed), until settled
    Diagnosis standing = null;
    boolean settled = healthy;
    for (TimelineEvent e : events) {
      if (!e.job().equals(job)) {
        continue;
      }
      if (e.kind() == TimelineEvent.Kind.DIAGNOSIS_CHANGED && !healthy) {
        if (e.atMs() < faultStartMs) {
          standing = e.after();
          continue;
        }
        if (!settled) {
          settled = true;
          if (e.atMs() > faultStartMs) {
            naming.stands(standing, faultStartMs);
          }
        }
        if (e.after() != null) {
          naming.named(e.after().cause(), e.atMs());
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
    if (!settled) {
      naming.stands(standing, faultStartMs);
    }
    return new CauseTimeline(before, total, firstAfter, signal, naming.firstKnown,
        naming.firstKnownAt, naming.expectedAt, List.copyOf(naming.wrong), List.copyOf(early),
        List.copyOf(naming.taken));
  }

  /** The causes the diagnosis named from the fault's start on, in the order they came. */
  private static final class Naming {
    private final String expected;
    String firstKnown;
    long firstKnownAt = -1;
    long expectedAt = -1;
    final List<String> wrong = new ArrayList<>();
    final List<String> taken = new ArrayList<>();
    private String lastKnown;

    Naming(String expected) {
      this.expected = expected;
    }

    /**
     * The diagnosis standing when the fault begins is what the operator is told from its start:
     * named at the start, right or wrong. Otherwise a right cause named on the fault's early
     * signs (a burst-credit disk drained for hours before its credits run out) and kept would
     * read "nothing", while one that flapped away and back would read "named".
     */
    void stands(Diagnosis d, long startMs) {
      if (d != null) {
        named(d.cause(), startMs);
      }
    }

    void named(String cause, long atMs) {
      boolean known = !cause.equals(UnknownCauseDiagnoser.UNKNOWN);
      if (expectedAt >= 0) {
        // through unknown or a closed diagnosis too: what the operator sees next is this cause
        if (known && expected.equals(lastKnown) && !cause.equals(expected)) {
          taken.add(cause);
        }
        lastKnown = known ? cause : lastKnown;
        return;
      }
      if (known && firstKnown == null) {
        firstKnown = cause;
        firstKnownAt = atMs;
      }
      if (cause.equals(expected)) {
        expectedAt = atMs;
        lastKnown = cause;
      } else if (known && !wrong.contains(cause)) {
        wrong.add(cause);
      }
    }
  }
}
