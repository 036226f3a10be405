package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.cause.Cause;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;

/**
 * How the detector did on one generated job, judged as docs/ACCURACY.md's "Production-scale
 * evaluation" says.
 *
 * <ul>
 *   <li>detected: no anomaly started before the fault, and after its start an anomaly opened or
 *       the diagnosis named a known cause;
 *   <li>named first: the first known cause the diagnosis named after the fault's start is the
 *       expected one (top-1);
 *   <li>recall: the expected cause was named at some point after the fault's start;
 *   <li>growth named early: {@code state_growth} named within {@link #GROWTH_LIMIT_MS} of the
 *       growth's start, and with a forecast ({@code hoursToTimeout}) within that time.
 * </ul>
 *
 * @param causeDelayMs event time from the fault's start to the expected cause, or -1
 * @param alerts alerts that would have started ({@link AlertPredicate}); for a fault, those
 *     started before it are in {@code alertsBefore}
 * @param diagnoses diagnoses opened (the service today alerts each of them, {@code unknown} too)
 * @param stateGrowthMs event time from the fault's start to the first {@code state_growth}
 *     diagnosis, or -1
 * @param forecastMs the same to the first {@code state_growth} diagnosis with a forecast, or -1
 * @param staleEvidence evidence sentences quoting a window older than the job
 * @param missingSourceSaid a diagnosis after the fault's start said the expected cause's source
 *     is absent or unjoined (the right answer when the cause cannot be seen)
 */
public record JobResult(ScenarioManifest.Entry truth, ScenarioKind kind, CauseTimeline timeline,
    long causeDelayMs, int alerts, int alertsBefore, int diagnoses, long stateGrowthMs,
    long forecastMs, int staleEvidence, String staleExample, boolean missingSourceSaid) {

  /** Name prefix of jobs whose root cause lies in a source their layout does not join. */
  public static final String UNJOINABLE_PREFIX = "unjoinable_";

  public static final long GROWTH_LIMIT_MS = 2 * 3_600_000L;

  /** node_exporter's disk signals: what a drained volume shows before its ceiling. */
  private static final java.util.Set<Signal> NODE_DISK = java.util.EnumSet.of(
      Signal.DISK_WRITE_IOPS, Signal.DISK_READ_IOPS, Signal.DISK_WRITE_BYTES,
      Signal.DISK_UTILIZATION, Signal.DISK_LATENCY);

  static JobResult judge(ScenarioManifest.Entry truth, List<TimelineEvent> events,
      DiagnosisWatch watch) {
    CauseTimeline t = CauseTimeline.of(events, truth.job(), truth.faultStartMs(),
        truth.expected());
    long start = truth.faultStartMs();
    return new JobResult(truth, ScenarioKind.of(truth), t,
        t.expectedAtMs() < 0 ? -1 : t.expectedAtMs() - start, watch.alertsStarted,
        watch.alertsStartedBefore, watch.diagnosesOpened,
        watch.stateGrowthAtMs < 0 ? -1 : watch.stateGrowthAtMs - start,
        watch.forecastAtMs < 0 ? -1 : watch.forecastAtMs - start, watch.staleEvidence,
        watch.staleExample, watch.missingSourceSaid);
  }

  public boolean healthy() {
    return truth.healthy();
  }

  public String expected() {
    return truth.expected();
  }

  public boolean detected() {
    return !healthy() && timeline.anomaliesBefore() == 0
        && (timeline.firstAnomalyAfterMs() >= 0 || timeline.firstKnownCause() != null);
  }

  public boolean namedFirst() {
    return !healthy() && expected().equals(timeline.firstKnownCause());
  }

  public boolean recalled() {
    return !healthy() && timeline.expectedAtMs() >= 0;
  }

  /**
   * The second real fault of a job with two at once ({@code shape.alsoPresent}: it started after
   * the root cause), or null.
   */
  public String alsoPresent() {
    return truth.shape() == null ? null : truth.shape().getString("alsoPresent");
  }

  /**
   * How often the diagnosis moved from the right cause, once named, to another known cause that
   * is not the job's second real fault: each move is an alert re-sent with a wrong cause.
   */
  public int takenBack() {
    return takenBackTo().size();
  }

  /** The causes counted by {@link #takenBack()}, once per move, in order. */
  public List<String> takenBackTo() {
    String other = alsoPresent();
    return timeline.takenBack().stream().filter(c -> !c.equals(other)).toList();
  }

  /**
   * Every anomaly before the fault was on a node disk signal and began after the extra demand
   * that drains a burst-credit disk rose (hours before the credits run out, {@code
   * demandRiseAtMs} in the shape): the drain seen, which the judge still counts against
   * detection but the report names apart.
   */
  public boolean earlyOnlyOnDrain() {
    Long rise = truth.shape() == null ? null : truth.shape().getLong("demandRiseAtMs");
    List<Anomaly> early = timeline.early();
    return rise != null && !early.isEmpty() && early.stream().allMatch(
        a -> NODE_DISK.contains(a.signal()) && a.startedAtMs() >= rise);
  }

  /** Two faults at once, and the first cause named was the other real one (not a wrong one). */
  public boolean namedOtherFault() {
    String other = alsoPresent();
    return other != null && other.equals(timeline.firstKnownCause());
  }

  /**
   * The root cause lies in a source the job's layout does not join (docs/FAMILY2.md): judged
   * apart, as the cause named or the missing source said.
   */
  public boolean unjoinable() {
    return !healthy() && truth.name().startsWith(UNJOINABLE_PREFIX);
  }

  /** An unjoinable job answered right: its cause named, or its missing source said. */
  public boolean unjoinableAnswered() {
    return unjoinable() && (recalled() || missingSourceSaid);
  }

  /** Growth jobs: state_growth named within two hours of the growth's start. */
  public boolean growthNamedEarly() {
    return stateGrowthMs >= 0 && stateGrowthMs <= GROWTH_LIMIT_MS;
  }

  /** Growth jobs: a state_growth diagnosis with a forecast within two hours. */
  public boolean forecastEarly() {
    return forecastMs >= 0 && forecastMs <= GROWTH_LIMIT_MS;
  }

  /** New-user job: the wrong answer the independent evaluation got. */
  public boolean namedStateGrowth() {
    return stateGrowthMs >= 0 || Cause.STATE_GROWTH.id().equals(timeline.firstKnownCause())
        || timeline.wrongBefore().contains(Cause.STATE_GROWTH.id());
  }

  /** Drawn growth rate per hour (growth and state_growth jobs), else 0. */
  public double growthPerHour() {
    Double g = truth.shape() == null ? null : truth.shape().getDouble("growthPerHour");
    return g == null ? 0 : g;
  }
}
