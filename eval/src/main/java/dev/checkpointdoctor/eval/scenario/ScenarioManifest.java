package dev.checkpointdoctor.eval.scenario;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code manifest.json} of a scenario directory: what each recording should be diagnosed as. */
public final class ScenarioManifest {
  public static final String FILE = "manifest.json";
  public static final String HEALTHY = "healthy";

  /**
   * One recording.
   *
   * @param expected a cause id, or {@code healthy}
   * @param faultStartMs event time the fault begins, or -1 for a healthy control
   */
  public record Entry(String name, String file, String job, String expected, long faultStartMs,
      long startMs, long endMs, String description, JsonObject shape) {

    public boolean healthy() {
      return HEALTHY.equals(expected);
    }
  }

  private ScenarioManifest() {}

  static JsonObject toJson(List<Entry> entries, long seed, String command) {
    JsonArray arr = new JsonArray();
    for (Entry e : entries) {
      arr.add(new JsonObject()
          .put("name", e.name())
          .put("file", e.file())
          .put("job", e.job())
          .put("expected", e.expected())
          .put("faultStart", e.faultStartMs() < 0 ? null : Instant.ofEpochMilli(e.faultStartMs())
              .toString())
          .put("faultStartMs", e.faultStartMs() < 0 ? null : e.faultStartMs())
          .put("start", Instant.ofEpochMilli(e.startMs()).toString())
          .put("end", Instant.ofEpochMilli(e.endMs()).toString())
          .put("description", e.description())
          .put("shape", e.shape()));
    }
    return new JsonObject()
        .put("format", "gzip'd Prometheus text exposition, one sample a line: "
            + "name{labels} value timestamp_ms (see README.md)")
        .put("generator", command)
        .put("seed", seed)
        .put("scenarios", arr);
  }

  /** Reads {@code dir/manifest.json}. */
  public static List<Entry> read(Path dir) throws IOException {
    JsonObject root;
    try {
      root = new JsonObject(Files.readString(dir.resolve(FILE), StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      throw new IOException(dir.resolve(FILE) + ": not a scenario manifest: " + e.getMessage(), e);
    }
    List<Entry> out = new ArrayList<>();
    for (Object o : root.getJsonArray("scenarios")) {
      JsonObject j = (JsonObject) o;
      Long fault = j.getLong("faultStartMs");
      out.add(new Entry(j.getString("name"), j.getString("file"), j.getString("job"),
          j.getString("expected"), fault == null ? -1 : fault,
          Instant.parse(j.getString("start")).toEpochMilli(),
          Instant.parse(j.getString("end")).toEpochMilli(), j.getString("description"),
          j.getJsonObject("shape")));
    }
    return out;
  }
}
