package dev.checkpointdoctor.api.it;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder;
import java.util.Random;

/**
 * Feeds a service Flink-shaped checkpoint scrapes through {@code POST /api/v1/write}, one per
 * minute of event time, with seeded noise so the baselines have a visible width.
 */
public final class CheckpointScenario {
  private final CheckpointDoctor service;
  private final Random random = new Random(42);

  public CheckpointScenario(CheckpointDoctor service) {
    this.service = service;
  }

  /**
   * Checkpoints 1..count of {@code job}, one a minute from {@code t0}: duration around
   * {@code normalMs} until checkpoint {@code shiftAt}, around {@code shiftedMs} from then on.
   */
  public void checkpoints(String job, long t0, int count, double normalMs, int shiftAt,
      double shiftedMs) {
    for (int i = 1; i <= count; i++) {
      double base = i < shiftAt ? normalMs : shiftedMs;
      double duration = base * (1 + 0.08 * random.nextGaussian());
      double size = 30e6 * (1 + 0.05 * random.nextGaussian());
      byte[] body = scrape(job, t0 + (i - 1) * 60_000L, i, duration, size);
      int status = Http.post(TestService.url(service, "/api/v1/write"), body,
          Http.remoteWriteHeaders()).statusCode();
      if (status != 204) {
        throw new AssertionError("remote-write answered " + status);
      }
    }
  }

  /**
   * The checkpoint start delay of {@code subtasks} subtasks of one task of {@code job}, one scrape
   * a minute from {@code t0}, each a little different every checkpoint.
   */
  public void startDelays(String job, long t0, int count, int subtasks) {
    for (int i = 1; i <= count; i++) {
      long ts = t0 + (i - 1) * 60_000L;
      RemoteWriteTestEncoder.Proto[] series = new RemoteWriteTestEncoder.Proto[subtasks];
      for (int k = 0; k < subtasks; k++) {
        double ms = (40 + 5 * k) * (1 + 0.1 * random.nextGaussian());
        series[k] = RemoteWriteTestEncoder.series(new String[] {"__name__",
            "flink_taskmanager_job_task_checkpointStartDelayNanos", "host", "tm-host-1",
            "instance", "tm-1:9250", "job", "flink", "job_name", job, "subtask_index",
            Integer.toString(k), "task_name", "enrich", "tm_id", "tm-1"}, new long[] {ts},
            new double[] {Math.round(ms * 1e6)});
      }
      post(RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(series)));
    }
  }

  /** Disk samples of a node on which no job runs: counted as unjoined. */
  public void lonelyNode(long ts) {
    post(RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(
        RemoteWriteTestEncoder.series(new String[] {"__name__", "node_disk_writes_completed_total",
            "device", "vda", "instance", "lonely-host:9100", "job", "node"},
            new long[] {ts, ts + 15_000}, new double[] {100, 130}))));
  }

  private void post(byte[] body) {
    int status = Http.post(TestService.url(service, "/api/v1/write"), body,
        Http.remoteWriteHeaders()).statusCode();
    if (status != 204) {
      throw new AssertionError("remote-write answered " + status);
    }
  }

  private static byte[] scrape(String job, long ts, long id, double durationMs, double size) {
    return RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(
        Bodies.jobGauge("lastCheckpointDuration", job, ts, Math.round(durationMs)),
        Bodies.jobGauge("lastCheckpointSize", job, ts, Math.round(size)),
        Bodies.jobGauge("lastCheckpointFullSize", job, ts, 50_000_000),
        Bodies.jobGauge("lastCompletedCheckpointId", job, ts, id),
        Bodies.jobGauge("numberOfCompletedCheckpoints", job, ts, id),
        Bodies.jobGauge("numberOfFailedCheckpoints", job, ts, 0),
        Bodies.jobGauge("numberOfInProgressCheckpoints", job, ts, 0)));
  }
}
