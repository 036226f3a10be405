package dev.checkpointdoctor.eval.nab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code nab} run end to end on a tiny NAB-layout fixture: 200 rows around 10 with a jump to
 * 40 on rows 150-155, labelled window rows 140-165.
 */
class NabSmokeTest {
  static final Path FIXTURE = Path.of("src", "test", "resources", "nab-fixture");

  @Test
  void writesNabLayoutResultsThatFlagTheJumpInsideTheWindow(@TempDir Path out) throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(progress, true, StandardCharsets.UTF_8));
      assertThat(NabCommands.run(List.of("--data", FIXTURE.resolve("data").toString(),
          "--out", out.toString()))).isZero();
    } finally {
      System.setErr(err);
    }
    // What it is doing goes to stderr while it runs.
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains("nab: 1 data files in " + FIXTURE.resolve("data"))
        .containsPattern("nab: done \\(\\d+\\.\\d s\\)");

    Path result = out.resolve("checkpointDoctor/synthetic/checkpointDoctor_step.csv");
    List<String> lines = Files.readAllLines(result);
    assertThat(lines).hasSize(201);
    assertThat(lines.get(0)).isEqualTo("timestamp,value,anomaly_score,label");
    assertThat(lines.get(1)).isEqualTo("2020-01-01 00:00:00,10.0,0.0,0");
    for (int row = 0; row < 200; row++) {
      String[] c = lines.get(row + 1).split(",");
      double score = Double.parseDouble(c[2]);
      assertThat(c[3]).as("label of row %d", row).isEqualTo(row >= 140 && row <= 165 ? "1" : "0");
      // openAfter 3: the third row of the jump opens the anomaly, nothing else is a detection;
      // its score is how long the series had been quiet: since row 0, 152 rows before
      if (row == 152) {
        long quiet = NabSeries.parseMs(c[0]) - NabSeries.parseMs(lines.get(1).split(",")[0]);
        assertThat(quiet).isPositive();
        assertThat(score).isEqualTo(NabDetector.strength(quiet)).isStrictlyBetween(0.0, 1.0);
      } else {
        assertThat(score).as("row %d", row).isZero();
      }
    }
  }

  @Test
  void scoringTheRunGivesTheMiddleOfTheWindowsReward(@TempDir Path out) throws Exception {
    Path data = FIXTURE.resolve("data");
    Path labels = FIXTURE.resolve("labels/combined_windows.json");
    Path results = NabRun.run(new NabDetector(DetectorSettings.defaults()), data,
        NabCorpus.windows(labels), out);
    List<NabFile> files = NabCorpus.load(data, labels, results);
    NabProfile standard = NabCorpus.profiles(FIXTURE.resolve("config/profiles.json")).get(0);

    NabScorer.Result r = NabScorer.score(files, standard);

    // detection on row 152 of window 140..165: y = -(165 - 152 + 1) / 26
    double reward = RowWeights.sigmoid(-14.0 / 26) / RowWeights.sigmoid(-1);
    assertThat(r.total().raw()).isEqualTo(reward);
    assertThat(r.normalised()).isEqualTo(100 * (reward + 1) / 2);
  }

  @Test
  void scoreCommandPrintsEveryProfileAndCategory(@TempDir Path out) {
    String data = FIXTURE.resolve("data").toString();
    String labels = FIXTURE.resolve("labels/combined_windows.json").toString();
    assertThat(NabCommands.run(List.of("--data", data, "--out", out.toString()))).isZero();
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrintStream old = System.out;
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    int code;
    try {
      code = NabCommands.score(List.of("--data", data, "--labels", labels,
          "--results", out.resolve("checkpointDoctor").toString()));
    } finally {
      System.setOut(old);
    }
    String printed = buf.toString(StandardCharsets.UTF_8);
    assertThat(code).isZero();
    assertThat(printed).contains("standard", "reward_low_FP_rate", "reward_low_FN_rate");
    assertThat(printed).containsPattern("(?m)^synthetic +[0-9.]+ +[0-9.]+ +[0-9.]+ +1 +1 +0$");
  }

  @Test
  void aFolderWithoutResultsIsAnError() {
    String data = FIXTURE.resolve("data").toString();
    assertThat(NabCommands.score(List.of("--data", data, "--labels",
        FIXTURE.resolve("labels/combined_windows.json").toString(), "--results", data)))
        .isEqualTo(1);
  }

  @Test
  void missingFlagsAreAUsageError() {
    assertThat(NabCommands.run(List.of("--data", "x"))).isEqualTo(2);
    assertThat(NabCommands.score(List.of("--data"))).isEqualTo(2);
  }
}
