package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.Diagnoser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A diagnosis never contradicts its evidence: every piece of evidence of every diagnosis (every
 * hypothesis, every batch, not only the ones that changed the cause) of every scenario of the
 * corpus and every lab recording quotes numbers that agree with the claim it makes. The claim is
 * structural ({@link Evidence#relation()}), so the check reads numbers, not sentences: "higher"
 * cannot quote a lower now, "rising" a now below where it started, "flat" a range wider than a
 * quarter of its level or a level not below what came before, "within" a value above its bound.
 * Family 1's first train seed is checked too with {@code -Devidence.family1=true} (about 10 min).
 */
class EvidenceAgreesWithClaimTest {

  @Test
  void everyDiagnosisOfTheCorpusAgreesWithItsEvidence() throws Exception {
    List<String> broken = new ArrayList<>();
    Checked checked = new Checked();
    for (ScenarioManifest.Entry e : ScenarioManifest.read(Path.of("..", "scenarios"))) {
      replayFile(Path.of("..", "scenarios").resolve(e.file()), DetectorSettings.defaults(),
          e.name(), broken, checked);
    }
    assertThat(checked.claims).as("claims checked").isGreaterThan(1000);
    assertThat(broken).isEmpty();
  }

  @Test
  void everyDiagnosisOfTheLabRecordingsAgreesWithItsEvidence() throws Exception {
    List<String> broken = new ArrayList<>();
    Checked checked = new Checked();
    List<Path> recordings;
    try (Stream<Path> s = Files.list(Path.of("..", "lab", "recordings"))) {
      recordings = s.filter(p -> p.toString().endsWith(".prom.gz")).sorted().toList();
    }
    for (Path p : recordings) {
      DetectorSettings settings = DetectorSettings.defaults().withMinObservations(5);
      if (p.getFileName().toString().startsWith("disk_throttling")) {
        settings = settings.withHostAliases(Map.of("minicluster", "127.0.0.1"));
      }
      replayFile(p, settings, p.getFileName().toString(), broken, checked);
    }
    assertThat(recordings).hasSizeGreaterThanOrEqualTo(15);
    assertThat(checked.claims).as("claims checked").isGreaterThan(1000);
    assertThat(broken).isEmpty();
  }

  @Test
  @EnabledIfSystemProperty(named = "evidence.family1", matches = "true")
  void everyDiagnosisOfFamilyOneTrainSeedAgreesWithItsEvidence() {
    List<String> broken = new ArrayList<>();
    Checked checked = new Checked();
    for (GeneratedScenario g : Families.get("family1").scenarios(1)) {
      Detector d = detector(DetectorSettings.defaults(), g.truth().name(), broken, checked);
      long[] batch = {Long.MIN_VALUE};
      g.play((labels, ts, v) -> {
        if (ts != batch[0] && batch[0] != Long.MIN_VALUE) {
          d.endBatch();
        }
        batch[0] = ts;
        d.accept(labels, new long[] {ts}, new double[] {v});
      });
      d.endBatch();
    }
    assertThat(checked.claims).isGreaterThan(1000);
    assertThat(broken).isEmpty();
  }

  /** The claims a piece of evidence makes about its own numbers, or null when it agrees. */
  static String contradiction(Evidence e) {
    double o = e.observed();
    double x = e.expected();
    return switch (e.relation()) {
      case Evidence.HIGHER, Evidence.RISING -> o > x ? null : "claims " + e.relation()
          + " but quotes " + o + " against " + x;
      case Evidence.LOWER, Evidence.FALLING -> o < x ? null : "claims " + e.relation()
          + " but quotes " + o + " against " + x;
      case Evidence.FLAT -> e.spread() <= 0.25 * Math.abs(o) && o < x ? null
          : "claims flat at " + o + " ± " + e.spread() + " below " + x;
      case Evidence.WITHIN -> o <= x ? null : "claims within " + x + " but quotes " + o;
      case Evidence.AT_LEAST -> o >= x ? null : "claims at least " + x + " but quotes " + o;
      case Evidence.CONTEXT -> null;
      default -> "unknown relation " + e.relation();
    };
  }

  private static final class Checked {
    long claims;
  }

  private static Detector detector(DetectorSettings settings, String name, List<String> broken,
      Checked checked) {
    CauseRanker ranker = new CauseRanker(settings);
    Diagnoser checking = (view, since) -> {
      Diagnosis d = ranker.diagnose(view, since);
      if (d != null) {
        for (CauseHypothesis h : d.ranked()) {
          for (Evidence e : h.evidence()) {
            if (!Evidence.CONTEXT.equals(e.relation())) {
              checked.claims++;
            }
            String wrong = contradiction(e);
            if (!(Double.isNaN(e.confidence())
                || (e.confidence() >= 0 && e.confidence() <= 1))) {
              wrong = "confidence " + e.confidence();
            }
            if (wrong != null && broken.size() < 20) {
              broken.add(name + " " + h.cause() + ": " + wrong + " — " + e.sentence());
            }
          }
        }
      }
      return d;
    };
    return new Detector(SignalCatalog.defaults(), settings, checking);
  }

  private static void replayFile(Path file, DetectorSettings settings, String name,
      List<String> broken, Checked checked) throws IOException, HistoryFormatException {
    Detector d = detector(settings, name, broken, checked);
    List<RecordedSample> samples = new ArrayList<>(new HistoryReader().read(file));
    samples.sort(Comparator.comparingLong(RecordedSample::timestampMs));
    long batch = Long.MIN_VALUE;
    for (RecordedSample s : samples) {
      if (s.timestampMs() != batch && batch != Long.MIN_VALUE) {
        d.endBatch();
      }
      batch = s.timestampMs();
      d.accept(s.labels(), new long[] {s.timestampMs()}, new double[] {s.value()});
    }
    d.endBatch();
  }
}
