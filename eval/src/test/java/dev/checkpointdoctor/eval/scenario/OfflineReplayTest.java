package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offline replay sees the fault of a generated scenario and reports it on the timeline. */
class OfflineReplayTest {
  @TempDir
  Path dir;

  @Test
  void generatedGcScenarioOpensAnAnomalyAfterTheFaultAndNoneBefore() throws Exception {
    List<ScenarioManifest.Entry> entries =
        ScenarioGenerator.generate(dir, 7, "gc_pressure_heap_a", System.out);
    assertThat(entries).hasSize(1);
    assertThat(ScenarioManifest.read(dir)).extracting(ScenarioManifest.Entry::expected)
        .containsExactly("gc_pressure");
    ScenarioManifest.Entry e = entries.get(0);
    OfflineReplay replay = new OfflineReplay(DetectorSettings.defaults());
    replay.replayFiles(List.of(dir.resolve(e.file())));
    ScenarioVerdict v = ScenarioVerdict.judge(e, replay);
    assertThat(v.falsePositives()).isZero();
    assertThat(v.detectedInTime()).as("detected within 15 min, delay %d ms",
        v.detectionDelayMs()).isTrue();
    assertThat(replay.events()).anySatisfy(ev ->
        assertThat(ev.kind()).isEqualTo(TimelineEvent.Kind.DIAGNOSIS_CHANGED));
    // The time to the right cause is the first diagnosis event naming it after the fault.
    long named = replay.events().stream()
        .filter(ev -> ev.kind() == TimelineEvent.Kind.DIAGNOSIS_CHANGED && ev.after() != null
            && ev.after().cause().equals("gc_pressure") && ev.atMs() >= e.faultStartMs())
        .mapToLong(ev -> ev.atMs() - e.faultStartMs()).findFirst().orElse(-1);
    assertThat(v.causeDelayMs()).isPositive().isEqualTo(named)
        .isGreaterThanOrEqualTo(v.detectionDelayMs());
    assertThat(AccuracyReport.section(List.of(v), DetectorSettings.defaults()))
        .contains(String.format(java.util.Locale.ROOT, "| %.1f min |", named / 60000.0));
  }

  @Test
  void aGeneratedScenarioPlayedStraightInGivesTheSameTimelineAsItsFile() throws Exception {
    ScenarioManifest.Entry e =
        ScenarioGenerator.generate(dir, 7, "gc_pressure_heap_a", System.out).get(0);
    List<RecordedSample> recorded = new HistoryReader().read(dir.resolve(e.file()));
    GeneratedScenario played = new GeneratedScenario() {
      @Override
      public ScenarioManifest.Entry truth() {
        return e;
      }

      @Override
      public void play(SampleSink sink) {
        recorded.stream().sorted(java.util.Comparator.comparingLong(RecordedSample::timestampMs))
            .forEach(s -> sink.sample(s.labels(), s.timestampMs(), s.value()));
      }
    };
    OfflineReplay fromFile = new OfflineReplay(DetectorSettings.defaults());
    fromFile.replay(recorded);
    OfflineReplay streamed = new OfflineReplay(DetectorSettings.defaults());
    streamed.replay(played);
    assertThat(streamed.samples()).isEqualTo(fromFile.samples());
    assertThat(streamed.events()).isNotEmpty();
    assertThat(streamed.events().stream().map(Object::toString).toList())
        .isEqualTo(fromFile.events().stream().map(Object::toString).toList());
  }

  @Test
  void sameSeedSameBytes() throws Exception {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    ScenarioGenerator.generate(a, 3, "healthy_restart", System.out);
    ScenarioGenerator.generate(b, 3, "healthy_restart", System.out);
    assertThat(Files.readAllBytes(a.resolve("healthy_restart.prom.gz")))
        .isEqualTo(Files.readAllBytes(b.resolve("healthy_restart.prom.gz")));
  }

  @Test
  void accuracySectionReplacesOnlyItsMarkedPart() {
    String doc = "# Accuracy\n\nintro\n\n" + AccuracyCommand.BEGIN + "\nold\n" + AccuracyCommand.END
        + "\n\n## NAB\nkept\n";
    String out = AccuracyReport.splice(doc, AccuracyCommand.BEGIN + "\nnew\n"
        + AccuracyCommand.END + "\n");
    assertThat(out).contains("intro").contains("new").contains("## NAB\nkept").doesNotContain("old");
  }
}
