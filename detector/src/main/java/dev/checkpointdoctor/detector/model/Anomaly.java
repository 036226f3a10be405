package dev.checkpointdoctor.detector.model;

import java.util.List;
import java.util.Locale;

/**
 * A persistent departure of one signal from its baseline. Values describe the latest out-of-band
 * observation while open, and the last one before resolution once resolved.
 *
 * @param startedAtMs event time of the first observation of the out-of-band run
 * @param endedAtMs event time of the observation that resolved it, or -1 while open
 * @param resolution how it resolved; null while open
 * @param newNormalSinceMs with {@link Resolution#NEW_NORMAL}: since when the new level is normal
 *     (the start of the run that held); -1 otherwise
 */
public record Anomaly(
    long id,
    String job,
    Signal signal,
    String scope,
    boolean open,
    long startedAtMs,
    long endedAtMs,
    double observed,
    double expected,
    double lower,
    double upper,
    double score,
    List<CauseHypothesis> causes,
    Resolution resolution,
    long newNormalSinceMs) {

  /** Why a resolved anomaly ended. */
  public enum Resolution {
    /** The signal came back into its band. */
    RETURNED,
    /** The departure held as one stable level, which the baseline learnt as its new normal. */
    NEW_NORMAL;

    /** {@code returned} or {@code new_normal}, as in the API. */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public Anomaly {
    causes = causes == null ? List.of() : List.copyOf(causes);
    lower = signal.shownLower(lower);
    if (open && endedAtMs != -1) {
      throw new IllegalArgumentException("an open anomaly has no end");
    }
    if (!open && endedAtMs < startedAtMs) {
      throw new IllegalArgumentException("an anomaly cannot end before it starts");
    }
    if (open != (resolution == null)) {
      throw new IllegalArgumentException("an anomaly has a resolution exactly when resolved");
    }
    if ((resolution == Resolution.NEW_NORMAL) != (newNormalSinceMs != -1)) {
      throw new IllegalArgumentException("only a new normal has a since time");
    }
    if (newNormalSinceMs != -1 && (newNormalSinceMs < startedAtMs || newNormalSinceMs > endedAtMs)) {
      throw new IllegalArgumentException("the new normal starts within the anomaly");
    }
  }

  /** An anomaly as it opens or while open. */
  public Anomaly(long id, String job, Signal signal, String scope, boolean open, long startedAtMs,
      long endedAtMs, double observed, double expected, double lower, double upper, double score,
      List<CauseHypothesis> causes) {
    this(id, job, signal, scope, open, startedAtMs, endedAtMs, observed, expected, lower, upper,
        score, causes, open ? null : Resolution.RETURNED, -1);
  }

  public String state() {
    return open ? "open" : "resolved";
  }

  public Anomaly withLatest(double observed, double expected, double lower, double upper,
      double score) {
    return new Anomaly(id, job, signal, scope, open, startedAtMs, endedAtMs, observed, expected,
        lower, upper, score, causes, resolution, newNormalSinceMs);
  }

  /** Resolved because the signal returned to its band. */
  public Anomaly resolvedAt(long endedAtMs) {
    return new Anomaly(id, job, signal, scope, false, startedAtMs, endedAtMs, observed, expected,
        lower, upper, score, causes, Resolution.RETURNED, -1);
  }

  /** Resolved because its level held and became the baseline, normal since {@code sinceMs}. */
  public Anomaly becameNormalAt(long endedAtMs, long sinceMs) {
    return new Anomaly(id, job, signal, scope, false, startedAtMs, endedAtMs, observed, expected,
        lower, upper, score, causes, Resolution.NEW_NORMAL, sinceMs);
  }

  public Anomaly withCauses(List<CauseHypothesis> ranked) {
    return new Anomaly(id, job, signal, scope, open, startedAtMs, endedAtMs, observed, expected,
        lower, upper, score, ranked, resolution, newNormalSinceMs);
  }
}
