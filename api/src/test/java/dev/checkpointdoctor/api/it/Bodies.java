package dev.checkpointdoctor.api.it;

import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Remote-write bodies for HTTP tests: real captures and Flink-shaped ones built here. */
public final class Bodies {
  private Bodies() {}

  /** A real body sent by Prometheus 2.42 (node_exporter scrape, 500 samples). */
  public static byte[] realPrometheus242() {
    try {
      return Files.readAllBytes(Path.of("..", "ingest", "src", "test", "resources",
          "remotewrite", "prometheus-2.42-remote-write-sample.bin"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One JobManager checkpoint gauge of job {@code job} as Flink's reporter names it. */
  public static RemoteWriteTestEncoder.Proto jobGauge(String metric, String job, long ts,
      double value) {
    return RemoteWriteTestEncoder.series(new String[] {"__name__",
        "flink_jobmanager_job_" + metric, "instance", "jm:9249", "job", "flink", "job_id",
        "0123456789abcdef0123456789abcdef", "job_name", job}, new long[] {ts},
        new double[] {value});
  }

  /**
   * A scrape of the checkpoint gauges of one job: checkpoint {@code id} just completed and took
   * {@code durationMs}.
   */
  public static byte[] checkpointScrape(String job, long ts, long id, double durationMs) {
    return checkpointScrape(job, ts, id, durationMs, 0);
  }

  /** As above, with {@code failed} checkpoints failed (expired) so far. */
  public static byte[] checkpointScrape(String job, long ts, long id, double durationMs,
      long failed) {
    return RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(
        jobGauge("lastCheckpointDuration", job, ts, durationMs),
        jobGauge("lastCheckpointSize", job, ts, 1_000_000),
        jobGauge("lastCheckpointFullSize", job, ts, 50_000_000),
        jobGauge("lastCompletedCheckpointId", job, ts, id),
        jobGauge("numberOfCompletedCheckpoints", job, ts, id),
        jobGauge("numberOfFailedCheckpoints", job, ts, failed),
        jobGauge("numberOfInProgressCheckpoints", job, ts, 0)));
  }

  /**
   * As {@link #checkpointScrape(String, long, long, double)} with more labels on every series,
   * e.g. the external labels {@code cluster} and {@code prometheus_replica} of a Prometheus.
   */
  public static byte[] checkpointScrape(String job, long ts, long id, double durationMs,
      java.util.Map<String, String> extra) {
    String[] metrics = {"lastCheckpointDuration", "lastCheckpointSize", "lastCheckpointFullSize",
        "lastCompletedCheckpointId", "numberOfCompletedCheckpoints", "numberOfFailedCheckpoints",
        "numberOfInProgressCheckpoints"};
    double[] values = {durationMs, 1_000_000, 50_000_000, id, id, 0, 0};
    RemoteWriteTestEncoder.Proto[] series = new RemoteWriteTestEncoder.Proto[metrics.length];
    for (int i = 0; i < metrics.length; i++) {
      java.util.TreeMap<String, String> labels = new java.util.TreeMap<>(extra);
      labels.put("__name__", "flink_jobmanager_job_" + metrics[i]);
      labels.put("instance", "jm:9249");
      labels.put("job", "flink");
      labels.put("job_id", "0123456789abcdef0123456789abcdef");
      labels.put("job_name", job);
      String[] pairs = new String[labels.size() * 2];
      int k = 0;
      for (java.util.Map.Entry<String, String> e : labels.entrySet()) {
        pairs[k++] = e.getKey();
        pairs[k++] = e.getValue();
      }
      series[i] = RemoteWriteTestEncoder.series(pairs, new long[] {ts}, new double[] {values[i]});
    }
    return RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(series));
  }
}
