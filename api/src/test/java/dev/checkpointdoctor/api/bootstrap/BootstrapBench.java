package dev.checkpointdoctor.api.bootstrap;

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
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long the start-up bootstrap of a fleet takes, and how much heap it needs: a {@link
 * FakePromApi} in this JVM serves {@code bench.jobs} synthetic jobs ({@link SyntheticFleet}: 68
 * series each) over {@code bench.window}; the service jar runs as a child process with {@code
 * -Xmx${bench.xmx}} and a GC log, bootstrapping from it until /readyz says ready. Prints the
 * seconds, what was read, the largest heap left after a garbage collection (the live set) and the
 * process's peak resident memory; then, as a peer in the same run, the time to fetch the same
 * answers without the service (what the fake server and the transfer cost). Run from the
 * repository root:
 *
 * <pre>
 * ./mvnw -B -Pbench package -DskipTests -pl bench -am
 * java -Dbench.jobs=1000 -cp bench/target/benchmarks.jar \
 *   dev.checkpointdoctor.api.bootstrap.BootstrapBench
 * </pre>
 */
public final class BootstrapBench {
  private BootstrapBench() {}

  public static void main(String[] args) throws Exception {
    int jobs = Integer.getInteger("bench.jobs", 1000);
    int tms = Integer.getInteger("bench.tms", 2);
    String window = System.getProperty("bench.window", "7d");
    String xmx = System.getProperty("bench.xmx", "1g");
    String jar = System.getProperty("bench.jar", "api/target/checkpoint-doctor.jar");
    long windowMs = dev.checkpointdoctor.api.app.PromDuration.parsePositive(window).toMillis();
    long now = System.currentTimeMillis();
    List<FakePromApi.Series> fleet = SyntheticFleet.fleet(jobs, tms, now - windowMs, now - 5_000);
    Path dir = Files.createTempDirectory("bootstrap-bench");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (FakePromApi api = new FakePromApi(fleet)) {
      List<String> cmd = new ArrayList<>(List.of("java"));
      String opts = System.getProperty("bench.javaOpts", "");
      if (!opts.isBlank()) {
        cmd.addAll(List.of(opts.trim().split("\\s+")));
      }
      cmd.addAll(List.of("-Xmx" + xmx,
          "-Xlog:gc:file=" + dir.resolve("gc.log"), "-jar", jar, "--host", "127.0.0.1",
          "--port", Integer.toString(port), "--data-dir", dir.resolve("data").toString(),
          "--bootstrap-url", api.url(), "--bootstrap-window", window,
          "--bootstrap-timeout", "5m"));
      System.out.printf(Locale.ROOT, "fleet: %d jobs, %,d series over %s; service -Xmx%s%n",
          jobs, fleet.size(), window, xmx);
      long t0 = System.nanoTime();
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(dir.resolve("service.log").toFile()).start();
      HttpClient http = HttpClient.newHttpClient();
      long peakRssKb = 0;
      String status = "";
      while (p.isAlive()) {
        peakRssKb = Math.max(peakRssKb, rssKb(p.pid()));
        try {
          String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
              + "/readyz")).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.ofString()).body();
          if (body.contains("\"ready\"")) {
            break;
          }
          status = body;
        } catch (IOException notYet) {
          // not listening yet
        }
        Thread.sleep(1000); // a progress poll; the seconds come from the service's own metric
      }
      double wall = (System.nanoTime() - t0) / 1e9;
      String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
          + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
      peakRssKb = Math.max(peakRssKb, vmHwmKb(p.pid()));
      double cpu = cpuSeconds(p.pid());
      // the live set once ready: a full collection (young pauses' "after" counts old garbage)
      long liveMb = -1;
      try {
        Process gc = new ProcessBuilder("jcmd", Long.toString(p.pid()), "GC.run")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (gc.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)) {
          liveMb = lastFullGcMb(dir.resolve("gc.log"));
        }
      } catch (IOException noJcmd) {
        // a JRE without jcmd: the young-pause figure stands alone
      }
      p.destroy();
      p.waitFor();
      System.out.printf(Locale.ROOT, "start to ready: %.1f s (bootstrap_seconds_total %.1f s); "
              + "service CPU %.1f s (all threads, start-up included)%n",
          wall, metric(metrics, "checkpoint_doctor_bootstrap_seconds_total"), cpu);
      System.out.printf(Locale.ROOT, "jobs done %.0f, failed %.0f; series %,.0f; points read "
              + "%,.0f; samples fed %,.0f; queries %,.0f; answers %.1f MB%n",
          metric(metrics, "checkpoint_doctor_bootstrap_jobs{state=\"done\"}"),
          metric(metrics, "checkpoint_doctor_bootstrap_jobs{state=\"failed\"}"),
          metric(metrics, "checkpoint_doctor_bootstrap_series_read_total"),
          metric(metrics, "checkpoint_doctor_bootstrap_samples_read_total"),
          metric(metrics, "checkpoint_doctor_bootstrap_samples_fed_total"),
          metric(metrics, "checkpoint_doctor_bootstrap_queries_total"),
          metric(metrics, "checkpoint_doctor_bootstrap_bytes_read_total") / 1e6);
      System.out.printf(Locale.ROOT, "heap after GC, largest: %d MB (of -Xmx%s); live set once"
          + " ready (full GC): %d MB; peak RSS %d MB; baselines %,.0f; tracked series %,.0f%n",
          maxHeapAfterGcMb(dir.resolve("gc.log")), xmx, liveMb, peakRssKb / 1024,
          metric(metrics, "checkpoint_doctor_baselines"),
          metric(metrics, "checkpoint_doctor_tracked_series"));
      // The peer, in the same run: the same requests, one after the other as the service's one
      // reader sends them, answers read and thrown away. What the fake server and the transfer
      // cost; the rest of the bootstrap is the service's parsing and learning.
      List<String> asked = api.requests();
      long f0 = System.nanoTime();
      long bytes = 0;
      for (String r : asked) {
        bytes += http.send(HttpRequest.newBuilder(URI.create(api.url() + r)).build(),
            HttpResponse.BodyHandlers.ofByteArray()).body().length;
      }
      double fetch = (System.nanoTime() - f0) / 1e9;
      double boot = metric(metrics, "checkpoint_doctor_bootstrap_seconds_total");
      System.out.printf(Locale.ROOT, "peer: the same %,d requests fetched only: %.1f s (%.1f MB);"
          + " bootstrap_seconds / fetch-only = %.2f%n", asked.size(), fetch, bytes / 1e6,
          boot / fetch);
      System.out.println("logs: " + dir + (status.isEmpty() ? "" : " (last status " + status
          + ")"));
    }
  }

  private static double metric(String exposition, String name) {
    for (String line : exposition.split("\n")) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1).trim());
      }
    }
    return Double.NaN;
  }

  /** "GC(12) Pause Young ... 300M->120M(512M)": the largest heap left after a collection. */
  static long maxHeapAfterGcMb(Path gcLog) throws IOException {
    Pattern after = Pattern.compile("\\d+M->(\\d+)M\\(");
    long max = 0;
    for (String line : Files.readAllLines(gcLog)) {
      Matcher m = after.matcher(line);
      if (m.find()) {
        max = Math.max(max, Long.parseLong(m.group(1)));
      }
    }
    return max;
  }

  /** "GC(40) Pause Full (System.gc()) 900M->210M(1024M)": the heap left by the last one. */
  static long lastFullGcMb(Path gcLog) throws IOException {
    Pattern after = Pattern.compile("Pause Full.*?\\d+M->(\\d+)M\\(");
    long last = -1;
    for (String line : Files.readAllLines(gcLog)) {
      Matcher m = after.matcher(line);
      if (m.find()) {
        last = Long.parseLong(m.group(1));
      }
    }
    return last;
  }

  /** utime + stime of a process, from /proc/PID/stat (clock ticks of 1/100 s on Linux). */
  private static double cpuSeconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  private static long rssKb(long pid) {
    return procStatus(pid, "VmRSS:");
  }

  private static long vmHwmKb(long pid) {
    return procStatus(pid, "VmHWM:");
  }

  private static long procStatus(long pid, String key) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith(key)) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return 0;
  }
}
