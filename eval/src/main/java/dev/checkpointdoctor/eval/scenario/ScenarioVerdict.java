package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.util.List;
import java.util.Optional;

/**
 * How one scenario replay went, judged as the issue asks: a healthy control opens no anomaly; a
 * fault opens none before it starts, is detected within {@link #DETECTION_LIMIT_MS} of its start
 * (event time), and the job's diagnosis at the end names the expected cause.
 *
 * @param falsePositives anomalies started before the fault (all of them for a healthy control)
 * @param detectionDelayMs event time from fault start to the first anomaly opened after it, or
 *     -1 when none opened
 * @param firstSignal signal of that anomaly, or null
 * @param topCause the diagnosis' cause at the end, or null when there is none
 * @param causeDelayMs event time from fault start to the first diagnosis naming the expected
 *     cause, or -1 when none did (what an operator waits for the right alert)
 * @param wrongCauses other known causes the diagnosis named after the fault started and before
 *     the expected one (each one an alert with a misleading cause), in order
 */
public record ScenarioVerdict(ScenarioManifest.Entry scenario, int falsePositives,
    long detectionDelayMs, String firstSignal, String topCause, double confidence,
    long causeDelayMs, List<String> wrongCauses) {

  public static final long DETECTION_LIMIT_MS = 15 * 60_000L;

  static ScenarioVerdict judge(ScenarioManifest.Entry s, OfflineReplay replay) {
    CauseTimeline t = CauseTimeline.of(replay.events(), s.job(), s.faultStartMs(), s.expected());
    long delay = t.firstAnomalyAfterMs() < 0 ? -1 : t.firstAnomalyAfterMs() - s.faultStartMs();
    long causeDelay = t.expectedAtMs() < 0 ? -1 : t.expectedAtMs() - s.faultStartMs();
    Optional<Diagnosis> d = replay.detector().diagnosis(s.job());
    return new ScenarioVerdict(s, t.anomaliesBefore(), delay, t.firstSignal(),
        d.map(Diagnosis::cause).orElse(null), d.map(Diagnosis::confidence).orElse(Double.NaN),
        causeDelay, t.wrongBefore());
  }

  public boolean detectedInTime() {
    return detectionDelayMs >= 0 && detectionDelayMs <= DETECTION_LIMIT_MS;
  }

  public boolean pass() {
    if (scenario.healthy()) {
      return falsePositives == 0;
    }
    return falsePositives == 0 && detectedInTime() && scenario.expected().equals(topCause);
  }

  static long passed(List<ScenarioVerdict> verdicts) {
    return verdicts.stream().filter(ScenarioVerdict::pass).count();
  }
}
