package dev.checkpointdoctor.api.bench;

import dev.checkpointdoctor.api.bench.BodyFactory.Body;
import dev.checkpointdoctor.api.it.Bodies;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether one instance holds a fleet at 15 s scrapes: {@code bench.jobs} Flink jobs of ~225 used
 * series each ({@link FlinkFleet} with parallelism 2, 4 TaskManagers per job, the keep rule
 * applied), sent to the runnable jar (default settings, {@code bench.heap} heap) the way one
 * Prometheus sends them.
 *
 * <p>First {@code bench.backfillRounds} scrapes (480: 2 h) stamped in the past are sent as fast as
 * the service takes them, so baselines, envelopes and histories are full, as in steady state.
 * Then for {@code bench.minutes} (5) of wall time every 15 s brings one scrape stamped now, and
 * the time until the service has processed it (its queue empty) is recorded: it holds the fleet
 * when every scrape is processed well within the 15 s, without 503s or drops. Meanwhile probe
 * jobs time an anomaly from the POST of the sample that opens it to its listing in {@code GET
 * /api/v1/anomalies} (as {@link AnomalyLatency} does, under the fleet's load). Prints the round
 * times, the latency percentiles, the heap after a full GC and the CPU the service used.
 */
public final class FleetCapacity {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(2)).build();

  private FleetCapacity() {}

  public static void main(String[] args) throws Exception {
    int jobs = Integer.getInteger("bench.jobs", 500);
    int backfill = Integer.getInteger("bench.backfillRounds", 480);
    double minutes = Double.parseDouble(System.getProperty("bench.minutes", "5"));
    String heap = System.getProperty("bench.heap", "4g");
    String jar = System.getProperty("bench.jar", "api/target/checkpoint-doctor.jar");
    String cpdArgs = System.getProperty("bench.cpdArgs", "");
    int connections = Integer.getInteger("bench.connections", 4);

    Fleet fleet = new FlinkFleet(jobs, 2, jobs).kept();
    System.out.printf("machine: %d cores, load average %s; fleet: %d jobs, %d used series (%.0f"
            + " per job), %.0f samples/s at 15 s scrapes; heap %s%n",
        Runtime.getRuntime().availableProcessors(), LoadBench.loadAverage(), jobs, fleet.size(),
        (double) fleet.size() / jobs, fleet.size() / 15.0, heap);
    Path work = Files.createTempDirectory("cpd-capacity-");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-Xmx" + heap, "-jar", jar, "--host", "127.0.0.1", "--port",
        Integer.toString(port), "--data-dir", work.resolve("cpd").toString()));
    for (String a : cpdArgs.trim().split("\\s+")) {
      if (!a.isEmpty()) {
        cmd.add(a);
      }
    }
    try (ServerProcess server = ServerProcess.start("checkpoint-doctor", cmd, port, "/readyz",
        work.resolve("cpd.log"))) {
      long now = System.currentTimeMillis();
      long t0 = now - (backfill + 1) * BodyFactory.SCRAPE_INTERVAL_MS;
      // backfill, built and sent a slice of rounds at a time (all of it would not fit the heap)
      long started = System.nanoTime();
      double cpu0 = server.cpuSeconds();
      long sent = 0;
      for (int from = 0; from < backfill; from += 20) {
        int rounds = Math.min(20, backfill - from);
        LoadDriver.Workload w = LoadDriver.build(fleet, connections, 0, rounds, 500,
            t0 + from * BodyFactory.SCRAPE_INTERVAL_MS);
        LoadDriver.Result r = LoadDriver.run(w, "127.0.0.1", port, "/api/v1/write", 3600,
            () -> { });
        sent += r.acceptedSamples();
        if (r.rejectedSamples() > 0) {
          throw new IllegalStateException("backfill rejected " + r.rejectedSamples());
        }
      }
      awaitDrained(server);
      double backfillSeconds = (System.nanoTime() - started) / 1e9;
      System.out.printf("backfill: %d scrapes, %,d samples processed in %.0f s (%,.0f samples/s,"
              + " %.0f CPU-s); heap after full GC %s MiB%n", backfill, sent, backfillSeconds,
          sent / backfillSeconds, server.cpuSeconds() - cpu0, heapAfterGc(server));

      // real time: one scrape per 15 s, probes alongside
      AtomicBoolean running = new AtomicBoolean(true);
      List<Long> latencies = new java.util.concurrent.CopyOnWriteArrayList<>();
      Thread probes = new Thread(() -> probe(port, running, latencies), "probes");
      probes.start();
      List<Double> roundSeconds = new ArrayList<>();
      long retries = 0;
      double cpu1 = server.cpuSeconds();
      long realStart = System.nanoTime();
      int round = 0;
      while (System.nanoTime() - realStart < minutes * 60e9) {
        long tick = realStart + (long) (round * BodyFactory.SCRAPE_INTERVAL_MS * 1e6);
        long wait = tick - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // paces the scrapes
        }
        long roundStart = System.nanoTime();
        LoadDriver.Workload w = LoadDriver.build(fleet, connections, 0, 1, 500,
            System.currentTimeMillis());
        LoadDriver.Result r = LoadDriver.run(w, "127.0.0.1", port, "/api/v1/write", 60,
            () -> { });
        retries += r.retries();
        awaitDrained(server);
        roundSeconds.add((System.nanoTime() - roundStart) / 1e9);
        round++;
      }
      running.set(false);
      probes.join();
      double realSeconds = (System.nanoTime() - realStart) / 1e9;
      double[] rs = roundSeconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      long[] lat = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
      System.out.printf("real time: %d scrapes in %.0f s; scrape sent and processed in p50 %.2f"
              + " s, max %.2f s (of 15 s); %d answered 5xx; service CPU %.0f %% of one core%n",
          rs.length, realSeconds, rs[rs.length / 2], rs[rs.length - 1], retries,
          100 * (server.cpuSeconds() - cpu1) / realSeconds);
      if (lat.length > 0) {
        System.out.printf("anomaly latency, %d probes under load: p50 %.1f ms, p99 %.1f ms, max"
                + " %.1f ms%n", lat.length, lat[lat.length / 2] / 1000.0,
            lat[Math.min(lat.length - 1, (int) Math.ceil(0.99 * lat.length) - 1)] / 1000.0,
            lat[lat.length - 1] / 1000.0);
      }
      double dropped = server.metric("checkpoint_doctor_samples_dropped_total", null)
          - server.metric("checkpoint_doctor_samples_dropped_total", "unused_metric");
      System.out.printf("dropped samples: %.0f; heap after full GC %s MiB; peak RSS %.0f MiB;"
          + " holds: %s%n", dropped, heapAfterGc(server), server.peakRssMib(),
          rs[rs.length - 1] < 15 && retries == 0 && dropped == 0 ? "yes" : "NO");
    }
  }

  /** Probe jobs: 25 normal checkpoints, then slow ones; times the one that opens the anomaly. */
  private static void probe(int port, AtomicBoolean running, List<Long> out) {
    String write = "http://127.0.0.1:" + port + "/api/v1/write";
    long t0 = System.currentTimeMillis() - 3_600_000L;
    try {
      for (int p = 0; running.get(); p++) {
        String job = "latency_probe_" + p;
        int i = 0;
        for (; i < 25; i++) {
          post(write, Bodies.checkpointScrape(job, t0 + i * 15_000L, i + 1, 300 + 7 * (i % 5)));
        }
        for (int k = 1; k < 3; k++, i++) { // --open-after is 3 by default
          post(write, Bodies.checkpointScrape(job, t0 + i * 15_000L, i + 1, 5_000));
        }
        byte[] crossing = Bodies.checkpointScrape(job, t0 + i * 15_000L, i + 1, 5_000);
        URI open = URI.create("http://127.0.0.1:" + port + "/api/v1/anomalies?state=open&job="
            + job);
        long start = System.nanoTime();
        post(write, crossing);
        while (HTTP.send(HttpRequest.newBuilder(open).build(),
            HttpResponse.BodyHandlers.ofString()).body().equals("{\"anomalies\":[]}")) {
          if (System.nanoTime() - start > 30e9) {
            throw new IllegalStateException(job + ": no anomaly within 30 s");
          }
        }
        out.add((System.nanoTime() - start) / 1000);
        Thread.sleep(500); // one probe every ~half second: the probes must not be the load
      }
    } catch (Exception e) {
      throw new IllegalStateException("probe failed", e);
    }
  }

  private static void post(String url, byte[] body) throws Exception {
    int code = HTTP.send(HttpRequest.newBuilder(URI.create(url))
        .header("Content-Encoding", "snappy").header("Content-Type", "application/x-protobuf")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
    if (code != 204) {
      throw new IllegalStateException("write answered " + code);
    }
  }

  private static void awaitDrained(ServerProcess server) throws Exception {
    long deadline = System.nanoTime() + 3_600_000_000_000L;
    while (server.metric("checkpoint_doctor_queued_samples", null) > 0) {
      if (System.nanoTime() > deadline) {
        throw new IOException("detector queue not drained within an hour");
      }
      java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L); // polling a remote gauge
    }
  }

  private static String jcmd() {
    return Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
  }

  /** Heap in use after a full GC of the service (jcmd), in MiB. */
  private static String heapAfterGc(ServerProcess server) throws Exception {
    String pid = Long.toString(server.process.pid());
    Process gc = new ProcessBuilder(jcmd(), pid, "GC.run").redirectErrorStream(true).start();
    gc.getInputStream().readAllBytes();
    gc.waitFor();
    Process info = new ProcessBuilder(jcmd(), pid, "GC.heap_info").redirectErrorStream(true)
        .start();
    String text = new String(info.getInputStream().readAllBytes());
    info.waitFor();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(text);
    return m.find() ? String.format("%,d", Long.parseLong(m.group(1)) / 1024) : "?";
  }
}
