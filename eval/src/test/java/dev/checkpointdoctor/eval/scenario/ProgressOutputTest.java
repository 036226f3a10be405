package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code scenarios} and {@code accuracy} say on stderr what they are doing; stdout is the result. */
class ProgressOutputTest {
  static final String SCENARIO = "gc_pressure_heap_a";

  record Run(int code, String out, String err) {}

  static Run capture(Callable<Integer> command) throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
      int code = command.call();
      return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  @Test
  void scenariosAndAccuracyReportProgressOnStderr(@TempDir Path dir) throws Exception {
    Run generated = capture(() -> ScenariosCommand.run(List.of("--out", dir.toString(),
        "--seed", "7", "--only", SCENARIO)));
    assertThat(generated.code()).isZero();
    assertThat(generated.err()).containsPattern("(?m)^" + SCENARIO + " +gc_pressure +\\d+ samples")
        .containsPattern("scenarios: 1 scenarios written \\(\\d+\\.\\d s\\)");
    assertThat(generated.out()).isEqualTo("wrote 1 scenarios and "
        + dir.resolve(ScenarioManifest.FILE) + "\n");

    Run judged = capture(() -> AccuracyCommand.run(List.of(dir.toString()),
        DetectorFlagParser.defaultsOnly()));
    assertThat(judged.code()).isZero();
    assertThat(judged.err()).contains("accuracy: 1 of 1: " + SCENARIO + " done")
        .containsPattern("accuracy: [01] of 1 scenarios pass \\(\\d+\\.\\d s\\)");
    assertThat(judged.out()).contains(AccuracyCommand.BEGIN).doesNotContain("accuracy: ");
  }
}
