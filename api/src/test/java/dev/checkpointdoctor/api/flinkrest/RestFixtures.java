package dev.checkpointdoctor.api.flinkrest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Real answers of a Flink JobManager's REST API, recorded by the lab ({@code RestCapture}) from
 * a MiniCluster job: {@code src/test/resources/flink-rest/<version>/<capture>/}, one file per
 * path ("/jobs/x/checkpoints" → "jobs__x__checkpoints.json") and {@code index.txt} with each
 * path's status.
 */
public final class RestFixtures {
  public static final Path ROOT = Path.of("src", "test", "resources", "flink-rest");

  /** A recorded path's status and body. */
  public record Answer(int status, String body) {}

  private RestFixtures() {}

  /** Path → answer, in the order they were recorded. */
  public static Map<String, Answer> load(String version, String capture) {
    Path dir = ROOT.resolve(version).resolve(capture);
    Map<String, Answer> out = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(dir.resolve("index.txt"), StandardCharsets.UTF_8)) {
        if (line.isBlank()) {
          continue;
        }
        int space = line.indexOf(' ');
        String path = line.substring(space + 1).strip();
        out.put(path, new Answer(Integer.parseInt(line.substring(0, space)),
            Files.readString(dir.resolve(path.substring(1).replace("/", "__") + ".json"))));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The one job's id (from /jobs/overview's path set). */
  public static String jobId(Map<String, Answer> answers) {
    for (String p : answers.keySet()) {
      if (p.matches("/jobs/[0-9a-f]{32}")) {
        return p.substring("/jobs/".length());
      }
    }
    throw new IllegalStateException("no job in the capture");
  }
}
