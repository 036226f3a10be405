package dev.checkpointdoctor.api.flinkrest;

import dev.checkpointdoctor.detector.facts.CheckpointConfig;
import dev.checkpointdoctor.detector.facts.CheckpointDetail;
import dev.checkpointdoctor.detector.facts.SubtaskTiming;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the JobManager's REST answers into plain facts, leniently: Flink 1.15–2.x add, rename and
 * drop fields, so every field is optional, unknown ones are ignored, numbers may come as strings,
 * and a missing value stays -1 or null instead of failing the whole answer.
 */
final class FlinkRestParser {
  private FlinkRestParser() {}

  /** A job of {@code /jobs/overview}. */
  record OverviewJob(String jid, String name, String state, long startTimeMs) {
    boolean running() {
      // terminal states end the job's facts; the others (created, restarting, …) keep them
      return !List.of("FINISHED", "CANCELED", "FAILED", "SUSPENDED").contains(state);
    }
  }

  static List<OverviewJob> overview(JsonObject body) {
    List<OverviewJob> out = new ArrayList<>();
    JsonArray jobs = array(body, "jobs");
    for (int i = 0; i < jobs.size(); i++) {
      JsonObject j = object(jobs.getValue(i));
      String jid = text(j, "jid");
      if (jid != null) {
        out.add(new OverviewJob(jid, text(j, "name"), upper(text(j, "state")),
            num(j, "start-time")));
      }
    }
    return out;
  }

  /** Vertex id → name, in the job graph's order, from {@code /jobs/:jid}. */
  static Map<String, String> vertices(JsonObject job) {
    Map<String, String> out = new LinkedHashMap<>();
    JsonArray v = array(job, "vertices");
    for (int i = 0; i < v.size(); i++) {
      JsonObject o = object(v.getValue(i));
      String id = text(o, "id");
      if (id != null) {
        out.put(id, text(o, "name") == null ? id : text(o, "name"));
      }
    }
    return out;
  }

  /** {@code /jobmanager/config} and {@code /jobs/:jid/jobmanager/config}: [{key, value}]. */
  static Map<String, String> keyValues(JsonArray body) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < body.size(); i++) {
      JsonObject o = object(body.getValue(i));
      if (text(o, "key") != null) {
        out.put(text(o, "key"), text(o, "value"));
      }
    }
    return out;
  }

  /**
   * The checkpoint configuration: {@code /jobs/:jid/checkpoints/config} (null when checkpointing
   * is off, which Flink answers with 404) and the JobManager's configuration for the checkpoint
   * directory and RocksDB's local dirs (the job's own configuration first).
   */
  static CheckpointConfig config(JsonObject cp, Map<String, String> jobConfig,
      Map<String, String> clusterConfig) {
    JsonObject c = cp == null ? new JsonObject() : cp;
    String dir = firstOf(jobConfig, clusterConfig, "execution.checkpointing.dir",
        "state.checkpoints.dir");
    String localDirs = firstOf(jobConfig, clusterConfig, "state.backend.rocksdb.localdir",
        "state.backend.rocksdb.local-directories");
    List<String> dirs = new ArrayList<>();
    if (localDirs != null) {
      // Flink splits the option on ',' and the path separator
      for (String d : localDirs.split("[,:]")) {
        if (!d.isBlank()) {
          dirs.add(d.strip());
        }
      }
    }
    Object unaligned = c.getValue("unaligned_checkpoints");
    return new CheckpointConfig(num(c, "timeout"), num(c, "interval"), num(c, "min_pause"),
        (int) num(c, "max_concurrent"), unaligned == null ? null : Boolean.valueOf(
            String.valueOf(unaligned)), lower(text(c, "mode")), text(c, "state_backend"),
        text(c, "checkpoint_storage"), dir, CheckpointConfig.schemeOf(dir), dirs);
  }

  /** One checkpoint of {@code /jobs/:jid/checkpoints} (latest or history). */
  record Summary(long id, String status, long triggerMs, long latestAckMs, long failureMs,
      String failureMessage, long endToEndMs, int numSubtasks, int numAcknowledged) {}

  /** What {@code /jobs/:jid/checkpoints} says about recent checkpoints. */
  record History(Summary latestCompleted, Summary latestFailed, List<Summary> inProgress,
      long p50EndToEndMs) {}

  static History history(JsonObject body) {
    JsonObject latest = object(body.getValue("latest"));
    List<Summary> running = new ArrayList<>();
    JsonArray h = array(body, "history");
    for (int i = 0; i < h.size(); i++) {
      Summary s = summary(object(h.getValue(i)));
      if (s != null && s.status().equals("in_progress")) {
        running.add(s);
      }
    }
    JsonObject e2e = object(object(body.getValue("summary")).getValue("end_to_end_duration"));
    return new History(summary(object(latest.getValue("completed"))),
        summary(object(latest.getValue("failed"))), running, num(e2e, "p50"));
  }

  static Summary summary(JsonObject c) {
    if (c.isEmpty() || !c.containsKey("id")) {
      return null;
    }
    return new Summary(num(c, "id"), status(text(c, "status")), num(c, "trigger_timestamp"),
        num(c, "latest_ack_timestamp"), num(c, "failure_timestamp"),
        text(c, "failure_message"), num(c, "end_to_end_duration"),
        (int) num(c, "num_subtasks"), (int) num(c, "num_acknowledged_subtasks"));
  }

  /**
   * A checkpoint's details with every vertex's subtasks ({@code
   * /jobs/:jid/checkpoints/details/:cid} and its {@code subtasks/:vid}).
   *
   * @param subtasksByVertex vertex id → its subtask details answer (vertices left out were not
   *     read)
   * @param nowMs when it was read: the age of a checkpoint still in progress
   */
  static CheckpointDetail detail(JsonObject details, Map<String, JsonObject> subtasksByVertex,
      Map<String, String> vertexNames, String why, long nowMs) {
    Summary s = summary(details);
    if (s == null) {
      return null;
    }
    List<SubtaskTiming> timings = new ArrayList<>();
    subtasksByVertex.forEach((vid, body) -> {
      String name = vertexNames.getOrDefault(vid, vid);
      JsonArray subs = array(body, "subtasks");
      for (int i = 0; i < subs.size(); i++) {
        JsonObject t = object(subs.getValue(i));
        boolean acked = "completed".equalsIgnoreCase(text(t, "status"));
        JsonObject cp = object(t.getValue("checkpoint"));
        JsonObject align = object(t.getValue("alignment"));
        Object unaligned = t.getValue("unaligned_checkpoint");
        timings.add(new SubtaskTiming(vid, name, (int) num(t, "index"), acked,
            num(t, "end_to_end_duration"), num(t, "start_delay"), num(align, "duration"),
            num(cp, "sync"), num(cp, "async"), num(t, "state_size"),
            Boolean.parseBoolean(String.valueOf(unaligned))));
      }
    });
    long e2e = switch (s.status()) {
      case "failed" -> s.failureMs() > 0 && s.triggerMs() > 0 ? s.failureMs() - s.triggerMs()
          : s.endToEndMs();
      case "in_progress" -> s.triggerMs() > 0 ? Math.max(0, nowMs - s.triggerMs())
          : s.endToEndMs();
      default -> s.endToEndMs();
    };
    return new CheckpointDetail(s.id(), s.status(), why, s.triggerMs(), s.failureMs(),
        s.failureMessage(), e2e, s.numSubtasks(), s.numAcknowledged(), timings);
  }

  /**
   * Which checkpoint deserves a closer look: the latest failed one when it is newer than the
   * latest completed, else one in progress for unusually long, else the latest completed when it
   * was unusually slow; null when every recent checkpoint was unremarkable.
   */
  record Pick(long id, String why) {}

  static Pick pick(History h, long timeoutMs, long nowMs) {
    long slow = slowThreshold(h.p50EndToEndMs(), timeoutMs);
    Summary c = h.latestCompleted();
    Summary f = h.latestFailed();
    if (f != null && (c == null || f.triggerMs() > c.triggerMs())) {
      return new Pick(f.id(), "failed");
    }
    for (Summary r : h.inProgress()) {
      if (r.triggerMs() > 0 && nowMs - r.triggerMs() >= slow) {
        return new Pick(r.id(), "long_running");
      }
    }
    if (c != null && c.endToEndMs() >= slow) {
      return new Pick(c.id(), "slow");
    }
    return null;
  }

  /**
   * Unusually slow: three times the median checkpoint and at least 10 s, but never more than
   * half the timeout (a checkpoint half way to expiring is worth a look whatever the median).
   */
  static long slowThreshold(long p50Ms, long timeoutMs) {
    long t = Math.max(3 * Math.max(0, p50Ms), 10_000);
    return timeoutMs > 0 ? Math.min(t, timeoutMs / 2) : t;
  }

  // ------------------------------------------------------------------------- lenient access

  static JsonObject object(Object o) {
    if (o instanceof JsonObject j) {
      return j;
    }
    if (o instanceof Map<?, ?> m) {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) m;
      return new JsonObject(map);
    }
    return new JsonObject();
  }

  static JsonArray array(JsonObject o, String key) {
    Object v = o.getValue(key);
    if (v instanceof JsonArray a) {
      return a;
    }
    if (v instanceof List<?> l) {
      return new JsonArray(new ArrayList<>(l));
    }
    return new JsonArray();
  }

  static String text(JsonObject o, String key) {
    Object v = o.getValue(key);
    return v == null ? null : String.valueOf(v);
  }

  /** A number, or a number written as a string; -1 when absent or not a number. */
  static long num(JsonObject o, String key) {
    Object v = o.getValue(key);
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof String s) {
      try {
        return (long) Double.parseDouble(s.strip());
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return -1;
  }

  /** "COMPLETED" / "completed" → "completed"; IN_PROGRESS → "in_progress". */
  private static String status(String s) {
    return s == null ? "unknown" : s.toLowerCase(Locale.ROOT);
  }

  private static String upper(String s) {
    return s == null ? "" : s.toUpperCase(Locale.ROOT);
  }

  private static String lower(String s) {
    return s == null ? null : s.toLowerCase(Locale.ROOT);
  }

  private static String firstOf(Map<String, String> a, Map<String, String> b, String... keys) {
    for (Map<String, String> m : List.of(a, b)) {
      for (String k : keys) {
        String v = m.get(k);
        if (v != null && !v.isBlank()) {
          return v.strip();
        }
      }
    }
    return null;
  }
}
