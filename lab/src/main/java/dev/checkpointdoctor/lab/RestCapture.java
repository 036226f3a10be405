package dev.checkpointdoctor.lab;

import static dev.checkpointdoctor.lab.Lab.JSON;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.SerializationFeature;

/**
 * Saves what the MiniCluster's JobManager REST endpoint answers for the paths Checkpoint
 * Doctor's poller reads, one file per path (the path with '/' as "__", ".json"), so the real
 * answers of each Flink line can be served again by tests. Records the status too: a path that
 * answers 404 on one line is worth knowing.
 */
final class RestCapture {
  private RestCapture() {}

  /** File name of a REST path: "/jobs/abc/checkpoints" → "jobs__abc__checkpoints.json". */
  static String fileName(String path) {
    return path.substring(1).replace("/", "__") + ".json";
  }

  /**
   * Captures the job's overview, job, checkpoint config and history, the details and per-vertex
   * subtask details of the latest completed and failed checkpoint and of the checkpoints in
   * progress, and the JobManager configuration; returns the number of files written.
   */
  static int capture(String restUrl, String jobId, Path dir) throws IOException {
    Files.createDirectories(dir);
    StringBuilder index = new StringBuilder();
    int n = 0;
    Set<String> paths = new LinkedHashSet<>();
    paths.add("/config");
    paths.add("/jobs/overview");
    paths.add("/jobmanager/config");
    paths.add("/jobs/" + jobId);
    paths.add("/jobs/" + jobId + "/jobmanager/config");
    paths.add("/jobs/" + jobId + "/checkpoints/config");
    paths.add("/jobs/" + jobId + "/checkpoints");
    JsonNode job = null;
    JsonNode checkpoints = null;
    for (String p : paths) {
      JsonNode body = save(restUrl, p, dir, index);
      n++;
      if (p.equals("/jobs/" + jobId)) {
        job = body;
      } else if (p.equals("/jobs/" + jobId + "/checkpoints")) {
        checkpoints = body;
      }
    }
    Set<Long> ids = new LinkedHashSet<>();
    if (checkpoints != null) {
      for (String kind : new String[] {"completed", "failed"}) {
        JsonNode c = checkpoints.path("latest").path(kind);
        if (c.has("id")) {
          ids.add(c.path("id").asLong());
        }
      }
      for (JsonNode h : checkpoints.path("history")) {
        if ("in_progress".equalsIgnoreCase(h.path("status").asText())) {
          ids.add(h.path("id").asLong());
        }
      }
    }
    for (long id : ids) {
      String base = "/jobs/" + jobId + "/checkpoints/details/" + id;
      save(restUrl, base, dir, index);
      n++;
      if (job != null) {
        for (JsonNode v : job.path("vertices")) {
          save(restUrl, base + "/subtasks/" + v.path("id").asText(), dir, index);
          n++;
        }
      }
    }
    Files.writeString(dir.resolve("index.txt"), index.toString());
    return n;
  }

  private static JsonNode save(String restUrl, String path, Path dir, StringBuilder index)
      throws IOException {
    HttpResponse<String> r = Http.get(restUrl + path);
    index.append(r.statusCode()).append(' ').append(path).append('\n');
    JsonNode body;
    try {
      body = JSON.readTree(r.body());
    } catch (IOException e) {
      Files.writeString(dir.resolve(fileName(path)), r.body());
      return null;
    }
    Files.writeString(dir.resolve(fileName(path)),
        JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(body) + "\n");
    return r.statusCode() == 200 ? body : null;
  }
}
