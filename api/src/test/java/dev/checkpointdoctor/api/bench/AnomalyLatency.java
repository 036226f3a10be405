package dev.checkpointdoctor.api.bench;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.it.Bodies;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import java.nio.file.Files;
import java.util.Arrays;

/**
 * Time from the POST carrying the sample that opens an anomaly (the {@code --open-after}-th slow
 * checkpoint in a row) to that anomaly being listed by {@code GET /api/v1/anomalies}. The service
 * runs in-process with its production wiring (HTTP, decoder, queue, detector thread); each probe
 * job learns 25 normal checkpoints first. Settings: {@code bench.probes} (20).
 */
public final class AnomalyLatency {
  private AnomalyLatency() {}

  public static void main(String[] args) throws Exception {
    int probes = Integer.getInteger("bench.probes", 20);
    long[] micros = measure(probes, Files.createTempDirectory("cpd-latency-"));
    Arrays.sort(micros);
    System.out.printf("anomaly visible after the crossing sample's POST, %d probes: min %.2f ms,"
            + " p50 %.2f ms, max %.2f ms%n", probes, micros[0] / 1000.0,
        micros[probes / 2] / 1000.0, micros[probes - 1] / 1000.0);
  }

  /** One latency per probe job, in microseconds. */
  static long[] measure(int probes, java.nio.file.Path dataDir) throws Exception {
    long[] out = new long[probes];
    try (CheckpointDoctor s = TestService.start(dataDir)) {
      String write = TestService.url(s, "/api/v1/write");
      int openAfter = s.settings().detector().openAfter();
      long t0 = System.currentTimeMillis() - 3_600_000L;
      for (int p = 0; p < probes; p++) {
        String job = "latency_probe_" + p;
        String open = TestService.url(s, "/api/v1/anomalies?state=open&job=" + job);
        int i = 0;
        for (; i < 25; i++) {
          post(write, Bodies.checkpointScrape(job, t0 + i * 15_000L, i + 1, 300 + 7 * (i % 5)));
        }
        for (int k = 1; k < openAfter; k++, i++) {
          post(write, Bodies.checkpointScrape(job, t0 + i * 15_000L, i + 1, 5_000));
        }
        byte[] crossing = Bodies.checkpointScrape(job, t0 + i * 15_000L, i + 1, 5_000);
        long start = System.nanoTime();
        post(write, crossing);
        // Busy polling is the measurement itself: the figure includes one GET's round trip.
        while (Http.get(open).body().startsWith("{\"anomalies\":[]")) {
          if (System.nanoTime() - start > 10e9) {
            throw new IllegalStateException(job + ": no anomaly within 10 s");
          }
        }
        out[p] = (System.nanoTime() - start) / 1000;
      }
    }
    return out;
  }

  private static void post(String url, byte[] body) {
    int code = Http.post(url, body, Http.remoteWriteHeaders()).statusCode();
    if (code != 204) {
      throw new IllegalStateException("write answered " + code);
    }
  }
}
