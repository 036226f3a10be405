package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.Diagnosis;
import java.util.ArrayList;
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
    int fp = 0;
    long delay = -1;
    String signal = null;
    long causeDelay = -1;
    List<String> wrong = new ArrayList<>();
    for (TimelineEvent e : replay.events()) {
      if (!e.job().equals(s.job())) {
        continue;
      }
      if (e.kind() == TimelineEvent.Kind.DIAGNOSIS_CHANGED && !s.healthy()
          && e.after() != null && e.atMs() >= s.faultStartMs() && causeDelay < 0) {
        String cause = e.after().cause();
        if (cause.equals(s.expected())) {
          causeDelay = e.atMs() - s.faultStartMs();
        } else if (!cause.equals(UnknownCauseDiagnoser.UNKNOWN) && !wrong.contains(cause)) {
          wrong.add(cause);
        }
      }
      if (e.kind() != TimelineEvent.Kind.ANOMALY_OPENED) {
        continue;
      }
      Anomaly a = e.anomaly();
      if (s.healthy() || a.startedAtMs() < s.faultStartMs()) {
        fp++;
      } else if (delay < 0) {
        delay = e.atMs() - s.faultStartMs();
        signal = a.signal().id();
      }
    }
    Optional<Diagnosis> d = replay.detector().diagnosis(s.job());
    return new ScenarioVerdict(s, fp, delay, signal, d.map(Diagnosis::cause).orElse(null),
        d.map(Diagnosis::confidence).orElse(Double.NaN), causeDelay, List.copyOf(wrong));
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
