package dev.checkpointdoctor.eval.nab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The scorer against NAB's published per-row results: their final scores as NAB's README gives
 * them (to ±0.1). Reads the shared NAB copy; skipped only locally when it is absent.
 */
class NabPublishedResultsTest {
  static final Path NAB = Path.of("..", "..", "shared", "data", "nab");

  static Path nab() {
    boolean present = Files.isDirectory(NAB.resolve("results"));
    if (System.getenv("CI") != null) {
      assertThat(present).as("NAB data at %s (required on CI)", NAB.toAbsolutePath()).isTrue();
    }
    assumeTrue(present, "NAB data not at " + NAB.toAbsolutePath());
    return NAB;
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    // detector, profile, raw, normalised (NAB README; numenta low-FP at its true optimum)
    "numenta, standard, 46.6345, 70.10",
    "numenta, reward_low_FP_rate, 30.6453, 63.21",
    "numenta, reward_low_FN_rate, 26.6345, 74.32",
    "windowedGaussian, standard, -24.0131, 39.65",
    "windowedGaussian, reward_low_FP_rate, -67.5863, 20.87",
    "windowedGaussian, reward_low_FN_rate, -67.0131, 47.41",
    "twitterADVec, standard, -6.8163, 47.06",
    "twitterADVec, reward_low_FP_rate, -38.0247, 33.61",
    "twitterADVec, reward_low_FN_rate, -45.8163, 53.50",
  })
  void reproducesThePublishedFinalScore(
      String detector, String profileName, double raw, double normalised) throws Exception {
    Path nab = nab();
    List<NabFile> files = Loaded.files(nab, detector);
    NabProfile profile = NabCorpus.profiles(nab.resolve("config/profiles.json")).stream()
        .filter(p -> p.name().equals(profileName)).findFirst().orElseThrow();

    NabScorer.Result result = NabScorer.score(files, profile);

    assertThat(result.total().windows()).isEqualTo(116);
    assertThat(result.total().raw()).isCloseTo(raw, within(0.01));
    assertThat(result.normalised()).isCloseTo(normalised, within(0.1));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"standard", "reward_low_FN_rate"})
  void perFileScoresMatchNumentasOwnTable(String profileName) throws Exception {
    Path nab = nab();
    NabProfile profile = NabCorpus.profiles(nab.resolve("config/profiles.json")).stream()
        .filter(p -> p.name().equals(profileName)).findFirst().orElseThrow();
    NabScorer.Result result = NabScorer.score(Loaded.files(nab, "numenta"), profile);
    Map<String, Double> table = Loaded.table(
        nab.resolve("results/numenta/numenta_" + profileName + "_scores.csv"));

    assertThat(result.files()).hasSize(58);
    for (NabScorer.FileScore f : result.files()) {
      assertThat(f.raw()).as(f.name()).isCloseTo(table.get(f.name()), within(1e-6));
    }
  }
}
