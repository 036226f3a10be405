package dev.checkpointdoctor.api.bench;

import dev.checkpointdoctor.api.bench.LoadDriver.Result;
import dev.checkpointdoctor.api.bench.LoadDriver.Workload;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The side-by-side load benchmark: builds remote-write traffic once per load, then runs it against
 * Checkpoint Doctor (the runnable jar, detection on), Prometheus 2.42 (remote-write receiver, 10 m
 * out-of-order window) and VictoriaMetrics 1.79, one after the other on loopback, and prints
 * answered and processed samples/s, 503s, drops, latency, CPU, peak RSS and same-run ratios. See
 * docs/BENCHMARKS.md.
 *
 * <p>Loads ({@code bench.loads}, default {@code kept,unfiltered}): {@code kept} is what a user who
 * copies deploy/prometheus/remote-write.yml sends, {@link SampleFleet#kept} (every series used);
 * {@code unfiltered} the same fleet without the keep rule; {@code synthetic} the earlier {@link
 * FlinkFleet} (13 % used) for comparison with old figures.
 *
 * <p>Settings are system properties: {@code bench.loads}, {@code bench.jobs} (80; synthetic: 12),
 * {@code bench.parallelism} (8) and {@code bench.hosts} (16) for synthetic, {@code
 * bench.connections} (4), {@code bench.warmupSamples} (8,000,000) and {@code bench.samples}
 * (4,000,000) per load, rounded up to whole scrapes, {@code bench.samplesPerBody} (500), {@code
 * bench.maxSeconds} (120, per target), {@code bench.jar} (api/target/checkpoint-doctor.jar),
 * {@code bench.javaOpts} (empty), {@code bench.cpdArgs} (extra service flags, empty), {@code
 * bench.targets} (cpd,prometheus,vm).
 */
public final class LoadBench {
  private LoadBench() {}

  /** One target's figures. */
  record Row(String name, Result result, double cpuSeconds, double peakRssMib,
      double startupSeconds, double serverCounted, double drainedSeconds, double dropped) {}

  public static void main(String[] args) throws Exception {
    List<String> loads = List.of(System.getProperty("bench.loads", "kept,unfiltered").split(","));
    int connections = Integer.getInteger("bench.connections", 4);
    long warmupSamples = Long.getLong("bench.warmupSamples", 8_000_000L);
    long samples = Long.getLong("bench.samples", 4_000_000L);
    int perBody = Integer.getInteger("bench.samplesPerBody", 500);
    double maxSeconds = Double.parseDouble(System.getProperty("bench.maxSeconds", "120"));
    String jar = System.getProperty("bench.jar", "api/target/checkpoint-doctor.jar");
    String javaOpts = System.getProperty("bench.javaOpts", "");
    String cpdArgs = System.getProperty("bench.cpdArgs", "");
    List<String> targets = List.of(System.getProperty("bench.targets", "cpd,prometheus,vm")
        .split(","));
    System.out.printf("machine: %d cores, load average %s%n",
        Runtime.getRuntime().availableProcessors(), loadAverage());
    for (String load : loads) {
      Fleet fleet = fleet(load);
      int warmup = (int) Math.ceil((double) warmupSamples / fleet.size());
      int rounds = (int) Math.ceil((double) samples / fleet.size());
      long t0 = System.currentTimeMillis()
          - (long) (warmup + rounds) * BodyFactory.SCRAPE_INTERVAL_MS;
      long built = System.nanoTime();
      Workload w = LoadDriver.build(fleet, connections, warmup, rounds, perBody, t0);
      long bytes = w.perConnection().stream().flatMap(List::stream)
          .mapToLong(b -> b.bytes().length).sum();
      long bodies = w.perConnection().stream().mapToLong(List::size).sum();
      System.out.printf("%nload %s: %d series per scrape (%d used by the catalog, %.0f%%); %d"
              + " connections; %d+%d rounds; %d bodies of <= %d samples, %.1f KiB average"
              + " compressed; built in %.1f s%n", load, fleet.size(), fleet.usedSeries(),
          100.0 * fleet.usedSeries() / fleet.size(), connections, warmup, rounds, bodies,
          perBody, bytes / 1024.0 / bodies, (System.nanoTime() - built) / 1e9);
      Map<String, Row> rows = new LinkedHashMap<>();
      for (String target : targets) {
        rows.put(target, run(target, w, jar, javaOpts, cpdArgs, maxSeconds));
      }
      System.out.printf("%nload %s, measured samples offered per target: %d (warm-up excluded)"
          + "%n", load, w.totalSamples());
      printTable(rows);
    }
    System.out.printf("%nload average at the end: %s%n", loadAverage());
  }

  static Fleet fleet(String load) {
    int jobs = Integer.getInteger("bench.jobs", load.equals("synthetic") ? 12 : 80);
    return switch (load) {
      case "kept" -> SampleFleet.kept(jobs, Path.of("deploy", "prometheus", "remote-write.yml"));
      case "unfiltered" -> SampleFleet.unfiltered(jobs);
      case "synthetic" -> new FlinkFleet(jobs, Integer.getInteger("bench.parallelism", 8),
          Integer.getInteger("bench.hosts", 16));
      default -> throw new IllegalArgumentException("unknown load " + load
          + " (kept, unfiltered, synthetic)");
    };
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static Row run(String target, Workload w, String jar, String javaOpts, String cpdArgs,
      double maxSeconds) throws Exception {
    Path work = Files.createTempDirectory("cpd-load-");
    int port = freePort();
    String loadBefore = loadAverage();
    ServerProcess server = switch (target) {
      case "cpd" -> ServerProcess.start("checkpoint-doctor", cpdCommand(jar, javaOpts, cpdArgs,
          port, work), port, "/readyz", work.resolve("cpd.log"));
      case "prometheus" -> ServerProcess.start("prometheus-2.42", prometheusCommand(port, work),
          port, "/-/ready", work.resolve("prometheus.log"));
      case "vm" -> ServerProcess.start("victoriametrics-1.79", List.of("victoria-metrics",
          "-httpListenAddr=127.0.0.1:" + port, "-storageDataPath=" + work.resolve("vm"),
          "-retentionPeriod=1d"), port, "/health", work.resolve("vm.log"));
      default -> throw new IllegalArgumentException("unknown target " + target);
    };
    try (server) {
      double[] cpuAtStart = new double[1];
      long[] measureStart = new long[1];
      double[] droppedAtStart = new double[1];
      Result r = LoadDriver.run(w, "127.0.0.1", port, "/api/v1/write", maxSeconds, () -> {
        try {
          if (target.equals("cpd")) {
            // The warm-up's samples are queued, not yet processed: let the detector finish
            // them, or the measured phase would pay for the warm-up's detection too.
            awaitDrained(server);
            droppedAtStart[0] = cpdDropped(server);
          }
          cpuAtStart[0] = server.cpuSeconds();
          measureStart[0] = System.nanoTime();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted waiting for the detector", e);
        }
      });
      // 204 from Checkpoint Doctor means "queued for the detector"; wait until the detector
      // has processed everything so its sustained rate is reported too.
      double drained = r.seconds();
      double dropped = 0;
      if (target.equals("cpd")) {
        awaitDrained(server);
        drained = (System.nanoTime() - measureStart[0]) / 1e9;
        dropped = cpdDropped(server) - droppedAtStart[0];
      }
      double cpu = server.cpuSeconds() - cpuAtStart[0];
      double counted = switch (target) {
        case "cpd" -> server.metric("checkpoint_doctor_samples_received_total", null);
        case "prometheus" -> server.metric("prometheus_tsdb_head_samples_appended_total", null);
        default -> server.metric("vm_rows_inserted_total", "promremotewrite");
      };
      Row row = new Row(server.name, r, cpu, server.peakRssMib(), server.startupSeconds,
          counted, drained, dropped);
      print(row, loadBefore);
      return row;
    }
  }

  /**
   * Samples the service did not use, for any reason but an unused metric name (which the
   * unfiltered load sends on purpose): overload, detector drops, non-finite values, limits.
   */
  private static double cpdDropped(ServerProcess server) throws IOException,
      InterruptedException {
    double all = server.metric("checkpoint_doctor_samples_dropped_total", null)
        + server.metric("checkpoint_doctor_detector_samples_dropped_total", null);
    double unused = server.metric("checkpoint_doctor_samples_dropped_total", "unused_metric")
        + server.metric("checkpoint_doctor_detector_samples_dropped_total", "unused_metric");
    return all - unused;
  }

  private static void awaitDrained(ServerProcess server)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + 600_000_000_000L;
    while (server.metric("checkpoint_doctor_queued_samples", null) > 0) {
      if (System.nanoTime() > deadline) {
        throw new IOException("detector queue not drained within 10 minutes");
      }
      java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L); // polling a remote gauge
    }
  }

  private static List<String> cpdCommand(String jar, String javaOpts, String cpdArgs, int port,
      Path work) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String o : javaOpts.trim().split("\\s+")) {
      if (!o.isEmpty()) {
        cmd.add(o);
      }
    }
    cmd.addAll(List.of("-jar", jar, "--host", "127.0.0.1", "--port", Integer.toString(port),
        "--data-dir", work.resolve("cpd").toString()));
    for (String a : cpdArgs.trim().split("\\s+")) {
      if (!a.isEmpty()) {
        cmd.add(a);
      }
    }
    return cmd;
  }

  private static List<String> prometheusCommand(int port, Path work) throws IOException {
    Path config = work.resolve("prometheus.yml");
    Files.writeString(config, """
        global:
          scrape_interval: 15s
        storage:
          tsdb:
            out_of_order_time_window: 10m
        scrape_configs: []
        """);
    return List.of("prometheus", "--config.file=" + config,
        "--storage.tsdb.path=" + work.resolve("prometheus"),
        "--web.listen-address=127.0.0.1:" + port, "--web.enable-remote-write-receiver");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static void print(Row row, String loadBefore) {
    Result r = row.result();
    System.out.printf("%s: %d samples answered 2xx, %d rejected (4xx), %d requests in %.2f s, %d"
            + " answered 5xx and retried, %.0f samples dropped; server counted %.0f samples in"
            + " total; everything processed after %.2f s (%,.0f samples/s); load average %s ->"
            + " %s%n", row.name(), r.acceptedSamples(), r.rejectedSamples(), r.requests(),
        r.seconds(), r.retries(), row.dropped(), row.serverCounted(), row.drainedSeconds(),
        r.acceptedSamples() / row.drainedSeconds(), loadBefore, loadAverage());
  }

  private static void printTable(Map<String, Row> rows) {
    System.out.println();
    System.out.println("| target | answered samples/s | processed samples/s | 503s | dropped"
        + " samples | samples per server CPU-s | p50 ms | p99 ms | peak RSS MiB |");
    System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Row row : rows.values()) {
      Result r = row.result();
      System.out.printf("| %s | %,.0f | %,.0f | %d | %,.0f | %,.0f | %.2f | %.2f | %.0f |%n",
          row.name(), r.samplesPerSecond(), processedPerSecond(row), r.retries(), row.dropped(),
          r.acceptedSamples() / Math.max(row.cpuSeconds(), 0.01), r.p50Micros() / 1000.0,
          r.p99Micros() / 1000.0, row.peakRssMib());
    }
    Row cpd = rows.get("cpd");
    if (cpd == null) {
      return;
    }
    for (Row other : rows.values()) {
      if (other == cpd) {
        continue;
      }
      System.out.printf("checkpoint-doctor / %s: processed %.2fx, answered %.2fx, per CPU-s"
              + " %.2fx, p99 %.2fx, peak RSS %.2fx%n", other.name(),
          processedPerSecond(cpd) / processedPerSecond(other),
          cpd.result().samplesPerSecond() / other.result().samplesPerSecond(),
          (cpd.result().acceptedSamples() / cpd.cpuSeconds())
              / (other.result().acceptedSamples() / other.cpuSeconds()),
          (double) cpd.result().p99Micros() / Math.max(1, other.result().p99Micros()),
          cpd.peakRssMib() / other.peakRssMib());
    }
  }

  /**
   * Measured samples over the time until the server had done everything with them: for
   * Checkpoint Doctor, whose 204 means "queued for the detector", until its queue was empty; for
   * the others, whose 2xx means stored, the time to the last answer.
   */
  private static double processedPerSecond(Row row) {
    return row.result().acceptedSamples() / Math.max(row.drainedSeconds(), 1e-9);
  }
}
