package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code replay} of a real lab recording as a user runs it: units on the timeline, progress on
 * stderr, and the node series that joined no job named with the flag that joins them.
 */
class ReplayCommandTest {
  static final String RECORDING = "../lab/recordings/disk_throttling.prom.gz";

  /** The service's parser for the two flags used here (the real one lives in api). */
  static final DetectorFlagParser FLAGS = args -> {
    DetectorSettings s = DetectorSettings.defaults();
    Map<String, String> aliases = new HashMap<>();
    for (int i = 0; i < args.size(); i += 2) {
      switch (args.get(i)) {
        case "--min-observations" -> s = s.withMinObservations(Integer.parseInt(args.get(i + 1)));
        case "--host-alias" -> {
          String[] kv = args.get(i + 1).split("=", 2);
          aliases.put(kv[0], kv[1]);
        }
        default -> throw new UsageException("unexpected " + args.get(i));
      }
    }
    return s.withHostAliases(aliases);
  };

  /** A number and a unit after it: {@code 345 ms/s}, {@code 1.8k/s}, {@code 27.2 MiB}. */
  static final String WITH_UNIT = "[0-9.]+[kM]? ?[^ =,\\]0-9][^ =,\\]]*";

  record Run(int code, String out, String err) {}

  static Run replay(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
      int code = ReplayCommand.run(List.of(args), FLAGS);
      return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  @Test
  void aRecordingWhoseNodesJoinNoJobSaysSoAndHowToJoinThem() {
    Run plain = replay("--min-observations", "5", RECORDING);
    assertThat(plain.code()).isZero();
    // Progress on stderr: what is read, how far, done.
    assertThat(plain.err()).contains("replay: reading " + RECORDING + " (1 of 1)",
        "replay: replaying ").containsPattern("replay: done: [0-9,]+ samples, \\d+ events \\(");
    assertThat(plain.out()).doesNotContain("replay: reading");
    // The disks of node 127.0.0.1 reached no job: the Flink scrape calls its host minicluster.
    assertThat(plain.out()).containsPattern("joins: [0-9,]+ node_exporter/cAdvisor samples "
        + "joined no job")
        .contains("  node 127.0.0.1 (disks labvol0, vda): no TaskManager's host label is "
            + "\"127.0.0.1\"",
            "Flink TaskManager hosts in the recording: minicluster",
            "replay again: --host-alias minicluster=127.0.0.1");
    // Anomaly lines carry the signal's unit (counts and flags are plain numbers).
    List<String> anomalies = lines(plain.out(), "  anomaly ");
    assertThat(anomalies).isNotEmpty().allSatisfy(l -> {
      String unit = Signal.byId(l.replaceAll(".* signal=(\\S+) .*", "$1")).orElseThrow().unit();
      assertThat(l).containsPattern(unit.equals("count") || unit.equals("bool")
          ? "observed=[0-9]+ expected=[0-9.]+ band=\\[[0-9.]+, [0-9.]+\\]"
          : "observed=" + WITH_UNIT + " expected=" + WITH_UNIT + " band=\\[" + WITH_UNIT + ", "
              + WITH_UNIT + "\\]");
    });
    assertThat(String.join("\n", anomalies)).contains(" signal=busy ")
        .containsPattern("observed=[0-9.]+ ms/s expected=[0-9.]+ ms/s");

    Run joined = replay("--min-observations", "5", "--host-alias", "minicluster=127.0.0.1",
        RECORDING);
    assertThat(joined.out()).doesNotContain("joins:").contains("cause=disk_throttling");
  }

  private static List<String> lines(String text, String containing) {
    List<String> out = new ArrayList<>();
    for (String l : text.split("\n")) {
      if (l.contains(containing)) {
        out.add(l);
      }
    }
    return out;
  }
}
