package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.pipeline.DetectorState;
import dev.checkpointdoctor.detector.pipeline.DetectorStateCodec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the runnable jar at random moments while it snapshots every 200 ms, over and over:
 * every restart must come up, the snapshot on disk must always be readable (never torn, never set
 * aside), and the restarted service must show exactly the state of that last good snapshot.
 */
class CrashRestartIT {
  static final int MAX_ROUNDS = 20;
  static final Duration BUDGET = Duration.ofSeconds(50);
  static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");

  @Test
  void survivesRepeatedKillMinus9WithTheLastGoodState(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("data");
    Path snapshot = data.resolve("state.snapshot");
    Random random = new Random(8);
    long t0 = System.currentTimeMillis() - Duration.ofHours(3).toMillis();
    long started = System.nanoTime();
    Long expectedLastSeen = null;
    int scrapes = 0;
    int rounds = 0;
    while (rounds < MAX_ROUNDS && System.nanoTime() - started < BUDGET.toNanos()) {
      Path log = dir.resolve("err-" + rounds + ".txt");
      Process p = start(data, log);
      try {
        String port = Await.until("start-up line of round " + rounds, Duration.ofSeconds(30),
            () -> {
              try {
                Matcher m = LISTENING.matcher(Files.readString(log));
                return m.find() ? m.group(1) : null;
              } catch (IOException e) {
                return null;
              }
            });
        String base = "http://127.0.0.1:" + port;
        assertThat(Files.readString(log)).doesNotContain("unreadable", "not restorable");
        if (expectedLastSeen != null) {
          assertThat(lastSeen(base)).as("round %d restores the last snapshot", rounds)
              .isEqualTo(expectedLastSeen);
        }
        for (int i = 0; i < 5; i++, scrapes++) {
          assertThat(Http.post(base + "/api/v1/write", Bodies.checkpointScrape("job_a",
                  t0 + scrapes * 60_000L, scrapes, 400 + scrapes % 7),
              Http.remoteWriteHeaders()).statusCode()).isEqualTo(204);
        }
        // The kill lands anywhere in the 200 ms snapshot cycle, writes included.
        Thread.sleep(random.nextInt(600));
      } finally {
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      }
      rounds++;
      if (Files.exists(snapshot)) {
        DetectorState state = DetectorStateCodec.decode(Files.readAllBytes(snapshot));
        Long seen = state.lastSeenMs().get("job_a");
        if (expectedLastSeen != null) {
          assertThat(seen).as("snapshots only move forward").isGreaterThanOrEqualTo(
              expectedLastSeen);
        }
        expectedLastSeen = seen;
      }
      try (Stream<Path> files = Files.list(data)) {
        assertThat(files.map(f -> f.getFileName().toString()))
            .noneMatch(n -> n.contains("corrupt"));
      }
    }
    assertThat(rounds).as("kill -9 rounds within %s", BUDGET).isGreaterThanOrEqualTo(5);
    assertThat(expectedLastSeen).as("some state survived").isNotNull();
    System.out.printf("crash-restart: %d kill -9 rounds, %d restarts with state restored, "
        + "%d scrapes written%n", rounds, rounds - 1, scrapes);
  }

  private static Process start(Path data, Path log) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-XX:TieredStopAtLevel=1", "-jar",
        RunnableJarIT.JAR.toAbsolutePath().toString(), "--host", "127.0.0.1", "--port", "0",
        "--data-dir", data.toString(), "--snapshot-interval", "200ms", "--min-observations", "3"));
    return new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(log.toFile()).start();
  }

  private static long lastSeen(String base) {
    JsonArray jobs = new JsonObject(Http.get(base + "/api/v1/jobs").body()).getJsonArray("jobs");
    for (int i = 0; i < jobs.size(); i++) {
      JsonObject j = jobs.getJsonObject(i);
      if (j.getString("job").equals("job_a")) {
        return Instant.parse(j.getString("lastSeen")).toEpochMilli();
      }
    }
    throw new AssertionError("job_a missing after restart: " + jobs);
  }
}
