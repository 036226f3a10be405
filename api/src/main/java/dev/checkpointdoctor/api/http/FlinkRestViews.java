package dev.checkpointdoctor.api.http;

import dev.checkpointdoctor.detector.facts.CheckpointConfig;
import dev.checkpointdoctor.detector.facts.CheckpointDetail;
import dev.checkpointdoctor.detector.facts.CheckpointTimeout;
import dev.checkpointdoctor.detector.facts.JobFacts;
import dev.checkpointdoctor.detector.facts.SubtaskTiming;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The Flink REST facts of a job as JSON (see openapi.yaml: FlinkRest). */
final class FlinkRestViews {
  /** Subtasks listed under the last checkpoint: the slowest first. */
  static final int SLOWEST = 5;

  private FlinkRestViews() {}

  /** The timeout the diagnosis' forecast is made against, and where it came from. */
  static JsonObject timeout(JsonObject diagnosis, JobFacts facts, DetectorSettings settings) {
    CheckpointTimeout t = CheckpointTimeout.of(facts, settings.checkpointTimeout());
    return diagnosis.put("timeoutMs", t.ms()).put("timeoutSource", t.source());
  }

  /** Null when the job has no facts (no --flink-rest-url, or no JobManager knows it). */
  static JsonObject facts(JobFacts f) {
    if (f == null) {
      return null;
    }
    CheckpointConfig c = f.config();
    JsonObject config = new JsonObject()
        .put("timeoutMs", known(c.timeoutMs()))
        .put("intervalMs", c.intervalMs() > 0 && c.intervalMs() < Long.MAX_VALUE / 2
            ? c.intervalMs() : null)
        .put("minPauseMs", known(c.minPauseMs()))
        .put("maxConcurrent", c.maxConcurrent() >= 0 ? c.maxConcurrent() : null)
        .put("unaligned", c.unaligned())
        .put("mode", c.mode())
        .put("stateBackend", c.stateBackend())
        .put("checkpointStorage", c.checkpointStorage())
        .put("checkpointDir", c.checkpointDir())
        .put("storageScheme", c.storageScheme())
        .put("rocksDbLocalDirs", new JsonArray(new ArrayList<>(c.rocksDbLocalDirs())));
    return new JsonObject()
        .put("jobId", f.jobId())
        .put("endpoint", f.source())
        .put("observedAt", JsonViews.time(f.observedAtMs()))
        .put("checkpointConfig", config)
        .put("lastCheckpoint", checkpoint(f.checkpoint()));
  }

  private static JsonObject checkpoint(CheckpointDetail d) {
    if (d == null) {
      return null;
    }
    List<SubtaskTiming> slowest = new ArrayList<>(d.subtasks());
    // never-acknowledged subtasks first (they held the checkpoint up), then by duration
    slowest.sort(Comparator.comparing(SubtaskTiming::acknowledged)
        .thenComparing(Comparator.comparingLong(SubtaskTiming::endToEndMs).reversed()));
    JsonArray subtasks = new JsonArray();
    for (SubtaskTiming s : slowest.subList(0, Math.min(SLOWEST, slowest.size()))) {
      SubtaskTiming.Phase p = s.longestPhase();
      subtasks.add(new JsonObject()
          .put("vertex", s.vertexName())
          .put("vertexId", s.vertexId())
          .put("subtask", s.index())
          .put("acknowledged", s.acknowledged())
          .put("endToEndMs", known(s.endToEndMs()))
          .put("startDelayMs", known(s.startDelayMs()))
          .put("alignmentMs", known(s.alignmentMs()))
          .put("syncMs", known(s.syncMs()))
          .put("asyncMs", known(s.asyncMs()))
          .put("stateSize", known(s.stateSize()))
          .put("slowestPhase", p == null ? null : p.name().toLowerCase(java.util.Locale.ROOT)));
    }
    return new JsonObject()
        .put("id", d.id())
        .put("status", d.status())
        .put("why", d.why())
        .put("triggeredAt", JsonViews.time(d.triggerMs()))
        .put("failedAt", d.failureMs() > 0 ? JsonViews.time(d.failureMs()) : null)
        .put("failureMessage", d.failureMessage())
        .put("endToEndMs", known(d.endToEndMs()))
        .put("subtasks", d.numSubtasks() >= 0 ? d.numSubtasks() : null)
        .put("acknowledged", d.numAcknowledged() >= 0 ? d.numAcknowledged() : null)
        .put("slowestSubtasks", subtasks);
  }

  private static Long known(long v) {
    return v >= 0 ? v : null;
  }
}
