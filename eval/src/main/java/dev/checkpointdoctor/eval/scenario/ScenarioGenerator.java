package dev.checkpointdoctor.eval.scenario;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Writes the corpus: one gzip'd recording per scenario and the manifest. */
public final class ScenarioGenerator {
  /** All scenarios start here in event time (a Monday, 00:00 UTC). */
  static final long START_MS = Instant.parse("2026-03-02T00:00:00Z").toEpochMilli();

  private ScenarioGenerator() {}

  /** Generates every scenario into {@code out}; returns the manifest entries. */
  public static List<ScenarioManifest.Entry> generate(Path out, long seed, String only,
      java.io.PrintStream log) throws IOException {
    Files.createDirectories(out);
    List<ScenarioManifest.Entry> entries = new ArrayList<>();
    for (ScenarioSpec spec : ScenarioCatalog.all(seed)) {
      if (only != null && !only.equals(spec.name())) {
        continue;
      }
      SeriesRecorder rec = new SeriesRecorder();
      ScenarioSimulator sim = new ScenarioSimulator(spec, START_MS, seed * 31 + spec.name()
          .hashCode(), rec);
      sim.run();
      long faultStart = spec.fault() == null ? -1 : sim.faultStartMs();
      String file = spec.name() + ".prom.gz";
      JsonObject shape = shape(spec);
      ScenarioManifest.Entry e = new ScenarioManifest.Entry(spec.name(), file, sim.jobName(),
          spec.expected(), faultStart, START_MS, START_MS + spec.durationMs(),
          spec.description(), shape.put("samples", rec.sampleCount()));
      List<String> header = List.of(
          "checkpoint-doctor scenario " + spec.name(),
          "expected: " + spec.expected(),
          "fault_start: " + (faultStart < 0 ? "none" : Instant.ofEpochMilli(faultStart)),
          "description: " + spec.description(),
          "format: name{labels} value timestamp_ms; every Flink metric is a gauge");
      HistoryWriter.write(out.resolve(file), header, types(rec), rec);
      log.printf("%-36s %-32s %8d samples %8d bytes%n", spec.name(), spec.expected(),
          rec.sampleCount(), Files.size(out.resolve(file)));
      entries.add(e);
    }
    String command = "java -jar api/target/checkpoint-doctor.jar scenarios --out scenarios --seed "
        + seed;
    Files.writeString(out.resolve(ScenarioManifest.FILE),
        ScenarioManifest.toJson(entries, seed, command).encodePrettily() + "\n",
        StandardCharsets.UTF_8);
    return entries;
  }

  static JsonObject shape(ScenarioSpec s) {
    return new JsonObject()
        .put("flinkVersion", s.flinkVersion())
        .put("rocksdb", s.rocksdb().name().toLowerCase(java.util.Locale.ROOT))
        .put("kubernetes", s.kubernetes())
        .put("parallelism", s.parallelism())
        .put("taskManagers", s.taskManagers())
        .put("scrapeIntervalSeconds", s.scrapeSeconds())
        .put("checkpointIntervalSeconds", s.checkpointIntervalSeconds())
        .put("incremental", s.incremental())
        .put("unaligned", s.unaligned())
        .put("stateBytes", Math.rint(s.stateBytes()))
        .put("recordsPerSecond", s.recordsPerSecond())
        .put("noise", Math.rint(s.noise() * 1000) / 1000)
        .put("severity", Math.rint(s.severity() * 100) / 100);
  }

  /** Flink's reporter exports every metric as a gauge; node_exporter and cAdvisor counters. */
  private static Map<String, String> types(SeriesRecorder rec) {
    Map<String, String> types = new TreeMap<>();
    for (String name : rec.names().keySet()) {
      types.put(name, name.startsWith("flink_") ? "gauge" : "counter");
    }
    return types;
  }
}
