package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Signal;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The family report's judging, on hand-made timelines. */
class FamilyJudgeTest {
  private static final long FAULT = 10_000_000;
  private static final String JOB = "j";

  private final List<TimelineEvent> events = new ArrayList<>();

  @Test
  void aConsequenceNamedBeforeTheCauseIsRecallButNotTopOne() {
    anomaly(FAULT + 60_000, Signal.ROCKSDB_STALL);
    diagnosis(FAULT + 60_000, "unknown", false);
    diagnosis(FAULT + 120_000, "rocksdb_write_stall", false);
    diagnosis(FAULT + 300_000, "disk_throttling", false);
    diagnosis(FAULT + 400_000, "rocksdb_write_stall", false);
    JobResult r = judge(fault("disk_throttling"));
    assertThat(r.detected()).isTrue();
    assertThat(r.namedFirst()).isFalse();
    assertThat(r.recalled()).isTrue();
    assertThat(r.causeDelayMs()).isEqualTo(300_000);
    assertThat(r.timeline().firstKnownCause()).isEqualTo("rocksdb_write_stall");
    assertThat(r.timeline().wrongBefore()).containsExactly("rocksdb_write_stall");
    assertThat(r.timeline().firstSignal()).isEqualTo("rocksdb_stall");
  }

  @Test
  void theRightCauseReplacedByAnotherIsCountedAsTakenBackEvenThroughUnknown() {
    anomaly(FAULT + 60_000, Signal.DISK_UTILIZATION);
    diagnosis(FAULT + 60_000, "rocksdb_write_stall", false); // before: named before it, not taken
    diagnosis(FAULT + 120_000, "disk_throttling", false);
    diagnosis(FAULT + 300_000, "rocksdb_write_stall", false); // taken back
    diagnosis(FAULT + 360_000, "disk_throttling", false);
    diagnosis(FAULT + 400_000, "unknown", false);
    diagnosis(FAULT + 500_000, "backpressure", false); // taken back, through unknown
    JobResult r = judge(fault("disk_throttling"));
    assertThat(r.timeline().wrongBefore()).containsExactly("rocksdb_write_stall");
    assertThat(r.timeline().takenBack()).containsExactly("rocksdb_write_stall", "backpressure");
    assertThat(r.takenBack()).isEqualTo(2);
    assertThat(FamilyReport.summary(List.of(r)))
        .contains("right cause taken back for another 1/1 (2 times)");

    ScenarioManifest.Entry two = fault("disk_throttling");
    two.shape().put("alsoPresent", "backpressure");
    assertThat(judge(two).takenBack()).as("the second real fault is no wrong cause")
        .isEqualTo(1);
  }

  @Test
  void anomaliesBeforeTheFaultOnlyOnTheDrainedDiskAreNamedApartButStillNoDetection() {
    long rise = FAULT - 2 * 3_600_000L;
    ScenarioManifest.Entry disk = fault("disk_throttling");
    disk.shape().put("demandRiseAtMs", rise);
    anomaly(rise + 900_000, Signal.DISK_UTILIZATION);
    JobResult drain = judge(disk);
    assertThat(drain.detected()).isFalse();
    assertThat(drain.earlyOnlyOnDrain()).isTrue();
    anomaly(rise - 60_000, Signal.DISK_UTILIZATION); // before the drain began
    assertThat(judge(disk).earlyOnlyOnDrain()).isFalse();
    events.clear();
    anomaly(rise + 900_000, Signal.CHECKPOINT_DURATION); // not the disk
    assertThat(judge(disk).earlyOnlyOnDrain()).isFalse();
    events.clear();
    anomaly(rise + 900_000, Signal.DISK_UTILIZATION);
    assertThat(judge(fault("disk_throttling")).earlyOnlyOnDrain()).as("no drain in the shape")
        .isFalse();
    JobResult control = JobResult.judge(healthy(), List.of(), new DiagnosisWatch(null, healthy()));
    Map<Long, List<JobResult>> results = new LinkedHashMap<>();
    results.put(EvaluationSeeds.TRAIN.get(0), List.of(drain, control));
    assertThat(FamilyReport.render("family1", results, false))
        .contains("1/1 (1 of them only on a disk whose credits were being drained");
    results.put(EvaluationSeeds.TRAIN.get(0), List.of(judge(fault("gc_pressure")), control));
    assertThat(FamilyReport.render("family1", results, false))
        .as("no drained disk in the family: nothing said of it").doesNotContain("drained");
  }

  @Test
  void theRightCauseFirstIsTopOneAndAnAnomalyBeforeTheFaultIsNoDetection() {
    anomaly(FAULT + 30_000, Signal.GC_TIME);
    diagnosis(FAULT + 30_000, "gc_pressure", false);
    assertThat(judge(fault("gc_pressure"))).satisfies(r -> {
      assertThat(r.namedFirst()).isTrue();
      assertThat(r.detected()).isTrue();
    });
    anomaly(FAULT - 3_600_000, Signal.CHECKPOINT_DURATION);
    JobResult early = judge(fault("gc_pressure"));
    assertThat(early.detected()).as("an anomaly before the fault").isFalse();
    assertThat(early.namedFirst()).isTrue();
    assertThat(early.timeline().anomaliesBefore()).isEqualTo(1);
  }

  @Test
  void aDiagnosisClosedBeforeTheFaultDoesNotCountAsNamingACause() {
    diagnosis(FAULT - 600_000, "backpressure", false);
    closed(FAULT - 60_000);
    diagnosis(FAULT + 60_000, "gc_pressure", false);
    JobResult r = judge(fault("gc_pressure"));
    assertThat(r.namedFirst()).isTrue();
    assertThat(r.causeDelayMs()).isEqualTo(60_000);
    assertThat(r.timeline().wrongBefore()).isEmpty();
  }

  @Test
  void aRightCauseStandingWhenTheFaultBeginsAndKeptIsNamedAtTheStart() {
    long rise = FAULT - 2 * 3_600_000L;
    anomaly(rise + 900_000, Signal.DISK_UTILIZATION);
    diagnosis(rise + 900_000, "disk_throttling", false);
    JobResult kept = judge(fault("disk_throttling"));
    assertThat(kept.recalled()).isTrue();
    assertThat(kept.namedFirst()).isTrue();
    assertThat(kept.causeDelayMs()).isZero();
    assertThat(kept.detected()).as("the anomaly before the fault still counts against it")
        .isFalse();

    diagnosis(FAULT + 600_000, "rocksdb_write_stall", false);
    diagnosis(FAULT + 900_000, "disk_throttling", false);
    JobResult flapped = judge(fault("disk_throttling"));
    assertThat(flapped.causeDelayMs()).as("kept or flapped, named at the start").isZero();
    assertThat(flapped.takenBackTo()).containsExactly("rocksdb_write_stall");
  }

  @Test
  void aWrongCauseStandingWhenTheFaultBeginsIsTheFirstNamed() {
    diagnosis(FAULT - 60_000, "backpressure", false);
    diagnosis(FAULT + 60_000, "gc_pressure", false);
    JobResult r = judge(fault("gc_pressure"));
    assertThat(r.namedFirst()).isFalse();
    assertThat(r.recalled()).isTrue();
    assertThat(r.timeline().firstKnownCause()).isEqualTo("backpressure");
    assertThat(r.timeline().wrongBefore()).containsExactly("backpressure");

    events.clear();
    diagnosis(FAULT - 60_000, "backpressure", false);
    diagnosis(FAULT, "gc_pressure", false);
    assertThat(judge(fault("gc_pressure")).namedFirst())
        .as("replaced at the start itself: never stood during the fault").isTrue();
    events.clear();
    diagnosis(FAULT - 60_000, "unknown", false);
    diagnosis(FAULT + 60_000, "gc_pressure", false);
    assertThat(judge(fault("gc_pressure")).namedFirst()).as("unknown names no cause").isTrue();
  }

  @Test
  void healthyAlertsCountKnownCausesAndUnknownOnlyWhileCheckpointsFail() {
    DiagnosisWatch w = new DiagnosisWatch(null, healthy());
    w.see(null, 1);
    w.see(diag("unknown", false, null), 2); // a diagnosis, no alert
    w.see(diag("unknown", true, null), 3); // checkpoints fail: alert
    w.see(diag("unknown", true, null), 4); // the same alert
    w.see(null, 5);
    w.see(diag("backpressure", false, null), 6); // alert
    w.see(diag("data_skew", false, null), 7); // another cause: another alert
    assertThat(w.alertsStarted).isEqualTo(3);
    assertThat(w.diagnosesOpened).isEqualTo(2);
    assertThat(AlertPredicate.alerts(diag("unknown", false, null))).isFalse();
    assertThat(AlertPredicate.alerts(diag("unknown", true, null))).isTrue();
    assertThat(AlertPredicate.alerts(diag("state_growth", false, 12.0))).isTrue();
  }

  @Test
  void growthIsNamedEarlyOnlyWithinTwoHoursAndTheForecastIsTrackedApart() {
    ScenarioManifest.Entry truth = fault("state_growth");
    truth.shape().put("kind", "growth").put("growthPerHour", 0.03);
    DiagnosisWatch w = new DiagnosisWatch(null, truth);
    w.see(diag("state_growth", false, null), FAULT + 90 * 60_000L);
    w.see(diag("state_growth", false, 20.0), FAULT + 150 * 60_000L);
    JobResult r = JobResult.judge(truth, events, w);
    assertThat(r.kind()).isEqualTo(ScenarioKind.GROWTH);
    assertThat(r.growthNamedEarly()).isTrue();
    assertThat(r.forecastEarly()).isFalse();
    assertThat(r.forecastMs()).isEqualTo(150 * 60_000L);
  }

  @Test
  void evidenceQuotingAWindowOlderThanTheJobIsCounted() {
    ScenarioManifest.Entry truth = new ScenarioManifest.Entry("young", "", JOB,
        "checkpoint_storage_slow", FAULT, FAULT - 120_000, FAULT + 3_600_000, "",
        new JsonObject().put("kind", "new_user"));
    DiagnosisWatch w = new DiagnosisWatch(null, truth);
    Diagnosis d = new Diagnosis(JOB, "state_growth", 0.9, FAULT, "checkpoint_duration", false,
        5.0, List.of(new CauseHypothesis("state_growth", 0.9, List.of(
            new CauseHypothesis.Evidence("checkpoint_full_size", "job", 1, 1,
                "The full size is 1 GB; it was 900 MB 90 min ago."),
            new CauseHypothesis.Evidence("checkpoint_duration", "job", 1, 1,
                "Checkpoint duration rose over the last 2 min.")), null, null)));
    w.see(d, FAULT + 60_000); // the job is 3 minutes old
    assertThat(w.staleEvidence).isEqualTo(1);
    assertThat(w.staleExample).contains("90 min ago");
    JobResult r = JobResult.judge(truth, events, w);
    assertThat(r.namedStateGrowth()).isTrue();
    assertThat(EvidenceWindows.longestMs("since 12:07; 2.5 h ago and 10 s ago"))
        .isEqualTo(9_000_000);
    assertThat(EvidenceWindows.longestMs("no window here, 12 MB")).isZero();
  }

  @Test
  void theSummaryCountsTopOneRecallAndNoisyHealthyJobs() {
    diagnosis(FAULT + 60_000, "backpressure", false);
    diagnosis(FAULT + 120_000, "gc_pressure", false);
    JobResult wrongFirst = judge(fault("gc_pressure"));
    events.clear();
    diagnosis(FAULT + 60_000, "data_skew", false);
    JobResult right = judge(fault("data_skew"));
    events.clear();
    anomaly(FAULT, Signal.CHECKPOINT_SIZE);
    DiagnosisWatch w = new DiagnosisWatch(null, healthy());
    w.see(diag("unknown", false, null), FAULT);
    JobResult noisy = JobResult.judge(healthy(), events, w);
    String summary = FamilyReport.summary(List.of(wrongFirst, right, noisy));
    assertThat(summary).contains("top-1 1/2 (0.50)").contains("recall 2/2 (1.00)")
        .contains("healthy jobs with an anomaly 1/1 (1 anomalies)")
        .contains("healthy jobs alerting 0/1 (0 alerts, 1 diagnoses)");
  }

  @Test
  void heldOutSeedsShowNoJobLinesUnlessAsked() {
    diagnosis(FAULT + 60_000, "data_skew", false);
    JobResult r = judge(fault("data_skew"));
    Map<Long, List<JobResult>> results = new LinkedHashMap<>();
    results.put(EvaluationSeeds.HELD_OUT.get(0), List.of(r));
    assertThat(FamilyReport.render("family1", results, false))
        .doesNotContain("| fault_job |").contains("| data_skew | 1 | 1 | 1 | 1 | - |");
    assertThat(FamilyReport.render("family1", results, true)).contains("| fault_job |");
    results.clear();
    results.put(EvaluationSeeds.TRAIN.get(0), List.of(r));
    assertThat(FamilyReport.render("family1", results, false)).contains("| fault_job |");
  }

  @Test
  void theCommandRejectsUnknownFamiliesAndJobPickingOnHeldOutSeeds() {
    assertThat(AccuracyCommand.run(List.of("--family", "nope"),
        DetectorFlagParser.defaultsOnly())).isEqualTo(2);
    assertThat(AccuracyCommand.run(List.of("--family", "family1", "--seeds", "101", "--only",
        "healthy"), DetectorFlagParser.defaultsOnly())).isEqualTo(2);
    assertThat(AccuracyCommand.run(List.of("--family", "family1", "--seeds", "1,x"),
        DetectorFlagParser.defaultsOnly())).isEqualTo(2);
  }

  @Test
  void trainAndHeldOutFiguresGoToBlocksOfTheirOwn() {
    assertThat(FamilyAccuracyCommand.block("family1", false, EvaluationSeeds.TRAIN))
        .isEqualTo("family1:train");
    assertThat(FamilyAccuracyCommand.block("family1", false, EvaluationSeeds.HELD_OUT))
        .isEqualTo("family1:held-out");
    assertThat(FamilyAccuracyCommand.block("family1", false, List.of(1L, 101L)))
        .isEqualTo("family1");
    assertThat(FamilyAccuracyCommand.block("family2", true, EvaluationSeeds.TRAIN))
        .as("a validation family has no train block").isEqualTo("family2");
    String doc = "intro\n<!-- family1:train:begin -->\nold train\n<!-- family1:train:end -->\n"
        + "<!-- family1:held-out:begin -->\nold held\n<!-- family1:held-out:end -->\n";
    String out = AccuracyReport.splice(doc, "<!-- family1:held-out:begin -->\nnew\n"
        + "<!-- family1:held-out:end -->\n", "<!-- family1:held-out:begin -->",
        "<!-- family1:held-out:end -->");
    assertThat(out).contains("old train").contains("new").doesNotContain("old held");
  }

  @Test
  void aValidationFamilyCallsNoSeedTrainAndHidesItsJobs() {
    diagnosis(FAULT + 60_000, "data_skew", false);
    JobResult r = judge(fault("data_skew"));
    Map<Long, List<JobResult>> results = new LinkedHashMap<>();
    results.put(EvaluationSeeds.TRAIN.get(0), List.of(r));
    String report = FamilyReport.render("family2", true, results, false);
    assertThat(report).contains("seed 1 (validation)").doesNotContain("(train)")
        .doesNotContain("| fault_job |");
    assertThat(FamilyReport.render("family2", true, results, true)).contains("| fault_job |");
    assertThat(AccuracyCommand.run(List.of("--family", "family2", "--seeds", "1", "--only",
        "disk"), DetectorFlagParser.defaultsOnly())).as("no job picking on family2")
        .isEqualTo(2);
  }

  @Test
  void twoFaultsAtOnceAreTopOneOnTheRootAndNamingTheOtherIsNotWrong() {
    ScenarioManifest.Entry truth = fault("disk_throttling");
    truth.shape().put("alsoPresent", "data_skew");
    diagnosis(FAULT + 60_000, "data_skew", false);
    diagnosis(FAULT + 120_000, "disk_throttling", false);
    JobResult other = judge(truth);
    assertThat(other.namedFirst()).isFalse();
    assertThat(other.namedOtherFault()).isTrue();
    assertThat(other.recalled()).isTrue();
    events.clear();
    diagnosis(FAULT + 60_000, "rocksdb_write_stall", false);
    JobResult wrong = judge(truth);
    assertThat(wrong.namedOtherFault()).isFalse();
    String report = FamilyReport.render("family2", true, Map.of(1L, List.of(other, wrong)),
        false);
    assertThat(report)
        .contains("| disk_throttling | 2 | 2 | 0 | 1 | 1 | rocksdb_write_stall |")
        .contains("root cause named first 0/2 (0.00), the other real fault named first 1/2 "
            + "(0.50), another cause named first 1/2 (0.50)");
  }

  @Test
  void unjoinableJobsAreCountedApartAndASaidMissingSourceAnswersThem() {
    ScenarioManifest.Entry truth = new ScenarioManifest.Entry("unjoinable_cpu_throttling", "",
        JOB, "cpu_throttling", FAULT, 0, FAULT + 4 * 3_600_000L, "", new JsonObject());
    DiagnosisWatch w = new DiagnosisWatch(null, truth);
    w.see(diagMissing("unknown", "node_exporter", "disk_throttling"), FAULT - 60_000);
    w.see(diagMissing("backpressure", "cadvisor", "disk_throttling"), FAULT + 30_000);
    assertThat(w.missingSourceSaid).as("another cause's source").isFalse();
    w.see(diagMissing("backpressure", "cadvisor", "cpu_throttling"), FAULT + 60_000);
    assertThat(w.missingSourceSaid).isTrue();
    diagnosis(FAULT + 30_000, "backpressure", false);
    JobResult r = JobResult.judge(truth, events, w);
    assertThat(r.unjoinable()).isTrue();
    assertThat(r.namedFirst()).isFalse();
    assertThat(r.unjoinableAnswered()).isTrue();
    events.clear();
    diagnosis(FAULT + 60_000, "gc_pressure", false);
    JobResult counted = judge(fault("gc_pressure"));
    assertThat(FamilyReport.summary(List.of(r, counted))).contains("top-1 1/1 (1.00)");
    assertThat(FamilyReport.render("family2", true, Map.of(1L, List.of(r, counted)), false))
        .doesNotContain("| cpu_throttling |")
        .contains("cause named first 0/1 (0.00), named at all 0/1 (0.00), its missing source "
            + "said 1/1 (1.00), answered (named or source said) 1/1 (1.00); first cause named: "
            + "backpressure");
  }

  private static Diagnosis diagMissing(String cause, String source, String forCause) {
    return new Diagnosis(JOB, cause, 0.8, 0, "checkpoint_duration", false, null,
        List.of(new CauseHypothesis(cause, 0.8, List.of(), null, null)),
        List.of(new dev.checkpointdoctor.detector.model.MissingSource(source, forCause, "why",
            "fix")));
  }

  private JobResult judge(ScenarioManifest.Entry truth) {
    DiagnosisWatch w = new DiagnosisWatch(null, truth);
    return JobResult.judge(truth, events, w);
  }

  private static ScenarioManifest.Entry fault(String cause) {
    return new ScenarioManifest.Entry("fault_job", "", JOB, cause, FAULT, 0, FAULT + 4 * 3_600_000L,
        "", new JsonObject().put("kind", "fault"));
  }

  private static ScenarioManifest.Entry healthy() {
    return new ScenarioManifest.Entry("healthy_job", "", JOB, "healthy", -1, 0, FAULT * 2, "",
        new JsonObject().put("kind", "healthy"));
  }

  private void anomaly(long at, Signal signal) {
    Anomaly a = new Anomaly(events.size(), JOB, signal, "job", true, at, -1, 2, 1, 0.5, 1.5, 5,
        List.of());
    events.add(new TimelineEvent(at, TimelineEvent.Kind.ANOMALY_OPENED, JOB, a, null, null));
  }

  private void diagnosis(long at, String cause, boolean failing) {
    events.add(new TimelineEvent(at, TimelineEvent.Kind.DIAGNOSIS_CHANGED, JOB, null, null,
        diag(cause, failing, null)));
  }

  private void closed(long at) {
    events.add(new TimelineEvent(at, TimelineEvent.Kind.DIAGNOSIS_CHANGED, JOB, null,
        diag("backpressure", false, null), null));
  }

  private static Diagnosis diag(String cause, boolean failing, Double hours) {
    return new Diagnosis(JOB, cause, 0.8, 0, "checkpoint_duration", failing, hours,
        List.of(new CauseHypothesis(cause, 0.8, List.of(), null, null)));
  }
}
