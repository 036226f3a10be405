package dev.checkpointdoctor.lab;

import static dev.checkpointdoctor.lab.Lab.JSON;
import static dev.checkpointdoctor.lab.Lab.enc;
import static dev.checkpointdoctor.lab.Lab.log;
import static dev.checkpointdoctor.lab.Lab.secs;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

/** One lab run: start everything, learn, inject, watch, record, replay, print the timeline. */
final class LabRun {
  final Lab.Scenario scenario;
  final Duration learn;
  final Duration faultFor;
  final Path jar;
  final Path recordings;
  final String job;
  /**
   * What to stop at the end. Once stopping began (Ctrl-C while a server was still starting),
   * whatever the run thread adds afterwards is stopped at once instead of outliving the lab.
   */
  @SuppressWarnings("serial")
  final List<AutoCloseable> toClose = new ArrayList<>() {
    @Override
    public boolean add(AutoCloseable c) {
      synchronized (LabRun.this) {
        if (!closing) {
          return super.add(c);
        }
      }
      try {
        c.close();
      } catch (Exception e) {
        System.err.println("closing: " + e);
      }
      return false;
    }
  };
  private boolean closing;
  final List<Lab.Alert> alerts = Lab.newAlertList();

  LabRun(Lab.Scenario scenario, Duration learn, Duration faultFor, Path jar, Path recordings) {
    this.scenario = scenario;
    this.learn = learn;
    this.faultFor = faultFor;
    this.jar = jar;
    this.recordings = recordings;
    this.job = "lab_" + scenario.name();
  }

  int call() throws Exception {
    Instant begin = Instant.now();
    Path work = Files.createTempDirectory("cpd-lab-" + scenario.name() + "-");
    System.setProperty("lab.flinklog", work.resolve("flink.log").toString());
    log("scenario %s, work dir %s (Flink log: flink.log)", scenario, work);
    Thread runThread = Thread.currentThread();
    Thread hook = new Thread(() -> {
      closeAll();
      try {
        // let a server that was starting come up and be stopped by toClose.add
        runThread.join(15_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return runIn(work, begin);
    } finally {
      closeAll();
      Runtime.getRuntime().removeShutdownHook(hook);
    }
  }

  synchronized void closeAll() {
    closing = true;
    for (int i = toClose.size() - 1; i >= 0; i--) {
      try {
        toClose.get(i).close();
      } catch (Exception e) {
        System.err.println("closing: " + e);
      }
    }
    toClose.clear();
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** A block of n consecutive free loopback ports. */
  static int freeBlock(int n) throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int from = 20000 + ThreadLocalRandom.current().nextInt(30000);
      boolean free = true;
      for (int p = from; p < from + n && free; p++) {
        try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
          free = s.isBound();
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) {
        return from;
      }
    }
    throw new IOException("no block of " + n + " free ports");
  }

  static String require(String binary) {
    String b = Proc.binary(binary);
    if (b == null) {
      throw new IllegalStateException(binary + " not installed (apt-get install prometheus "
          + "prometheus-alertmanager prometheus-node-exporter)");
    }
    return b;
  }

  int runIn(Path work, Instant begin) throws Exception {
    String promBin = require("prometheus");
    String amBin = require("prometheus-alertmanager");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " missing: ./mvnw -B -Plab -pl lab -am package -DskipTests");
    }
    String keepRegex = Recording.keepRegex(Path.of("deploy/prometheus/remote-write.yml"));

    // disk_throttling: RocksDB and the checkpoints go to the burstable volume (closed last, after
    // Flink let go of its files: toClose runs backwards)
    BurstableDisk disk = null;
    if (scenario == Lab.Scenario.disk_throttling) {
      disk = BurstableDisk.create(work);
      toClose.add(disk);
      Faults.heavyWrites = true;
    }
    Path dataDir = disk == null ? work : disk.mount;

    HttpServer hookServer = Lab.webhook(job, alerts);
    toClose.add(() -> hookServer.stop(0));
    String hookUrl = "http://127.0.0.1:" + hookServer.getAddress().getPort() + "/hook";

    int amPort = freePort();
    Path amDir = work.resolve("alertmanager");
    Files.createDirectories(amDir);
    Files.writeString(amDir.resolve("alertmanager.yml"), "route:\n"
        + "  receiver: webhook\n"
        + "  group_by: ['alertname', 'job_name', 'cause']\n"
        + "  group_wait: 1s\n"
        + "  group_interval: 1s\n"
        + "  repeat_interval: 1h\n"
        + "receivers:\n"
        + "  - name: webhook\n"
        + "    webhook_configs:\n"
        + "      - url: " + hookUrl + "\n"
        + "        send_resolved: true\n");
    String amUrl = "http://127.0.0.1:" + amPort;
    toClose.add(Proc.start("Alertmanager", List.of(amBin,
        "--config.file=" + amDir.resolve("alertmanager.yml"), "--storage.path=" + amDir.resolve("data"),
        "--web.listen-address=127.0.0.1:" + amPort, "--cluster.listen-address="),
        amDir.resolve("alertmanager.log"), Duration.ofSeconds(30), () -> Http.ok(amUrl + "/-/ready")));
    log("Alertmanager on %s, webhook %s", amUrl, hookUrl);

    int cpdPort = freePort();
    String cpd = "http://127.0.0.1:" + cpdPort;
    // the MiniCluster's JobManager REST endpoint, polled by the service (-Dlab.flinkRest=false: not)
    int restPort = freePort();
    String restUrl = "http://127.0.0.1:" + restPort;
    List<String> cpdCommand = new ArrayList<>(List.of(Lab.javaBin(), "-jar", jar.toString(),
        "--host", "127.0.0.1", "--port", String.valueOf(cpdPort),
        "--data-dir", work.resolve("cpd-data").toString(), "--min-observations", "5",
        "--alert-resend-interval", "5s", "--alertmanager-url", amUrl, "--external-url", cpd));
    if (FLINK_REST) {
      cpdCommand.addAll(List.of("--flink-rest-url", restUrl, "--flink-rest-interval", "2s"));
    }
    if (disk != null) {
      // the operator's join: the TaskManager's Flink host (set by the scrape's relabelling below)
      // is node_exporter's instance host under another name
      cpdCommand.addAll(List.of("--host-alias", TM_HOST + "=127.0.0.1"));
    }
    toClose.add(Proc.start("Checkpoint Doctor", cpdCommand,
        work.resolve("checkpoint-doctor.log"), Duration.ofSeconds(60), () -> Http.ok(cpd + "/readyz")));
    log("Checkpoint Doctor on %s (--min-observations 5 --alert-resend-interval 5s%s%s)", cpd,
        disk == null ? "" : " --host-alias " + TM_HOST + "=127.0.0.1",
        FLINK_REST ? " --flink-rest-url " + restUrl + " --flink-rest-interval 2s" : "");

    String nodeTarget = null;
    String nodeBin = Proc.binary("prometheus-node-exporter");
    if (nodeBin != null) {
      int nodePort = freePort();
      String nodeUrl = "http://127.0.0.1:" + nodePort;
      List<String> nodeCommand = new ArrayList<>(List.of(nodeBin, "--web.listen-address=127.0.0.1:" + nodePort));
      if (disk != null) {
        // Debian's default exclude drops loop devices; this is the default without "loop"
        nodeCommand.add("--collector.diskstats.device-exclude=^(ram|fd|(h|s|v|xv)d[a-z]|nvme\\d+n\\d+p)\\d+$");
      }
      toClose.add(Proc.start("node_exporter", nodeCommand,
          work.resolve("node_exporter.log"), Duration.ofSeconds(30), () -> Http.ok(nodeUrl + "/metrics")));
      nodeTarget = "127.0.0.1:" + nodePort;
      log("node_exporter on %s", nodeTarget);
    } else {
      log("node_exporter not installed (apt-get install prometheus-node-exporter): no disk series");
    }

    int reporterFrom = freeBlock(11);
    Configuration conf = LabJob.config(dataDir, reporterFrom, scenario.checkpointScheme,
        scenario.backend);
    conf.setString("rest.port", String.valueOf(restPort));
    scenario.configure(conf);
    JobClient client = scenario.start(job, conf);
    toClose.add(() -> {
      scenario.inject(false);
      client.cancel().get();
    });
    log("Flink %s MiniCluster: job %s (%s) submitted; %d rec/s, parallelism %d, %s state backend,"
        + " incremental checkpoints every 2 s; heap max %d MB", EnvironmentInformation.getVersion(), job,
        client.getJobID(), LabJob.RATE, LabJob.PARALLELISM, scenario.backend, Runtime.getRuntime().maxMemory() >> 20);
    int reporterPort = Wait.until("Flink reporter serving checkpoint metrics", Duration.ofSeconds(90), () -> {
      for (int p = reporterFrom; p <= reporterFrom + 10; p++) {
        try {
          var r = Http.get("http://127.0.0.1:" + p + "/metrics");
          if (r.statusCode() == 200 && r.body().contains("flink_jobmanager_job_lastCheckpointDuration")) {
            return p;
          }
        } catch (RuntimeException e) {
          // not this port
        }
      }
      return null;
    });
    log("Flink Prometheus reporter on 127.0.0.1:%d, JobManager REST on %s", reporterPort, restUrl);
    Path restDir = recordings.resolve("flink-rest").resolve(EnvironmentInformation.getVersion())
        .resolve(scenario.name());

    int promPort = freePort();
    Path promDir = work.resolve("prometheus");
    Files.createDirectories(promDir);
    String promUrl = "http://127.0.0.1:" + promPort;
    Files.writeString(promDir.resolve("prometheus.yml"), "global:\n"
        + "  scrape_interval: 1s\n"
        + "  scrape_timeout: 1s\n"
        + "  evaluation_interval: 1s\n"
        + "scrape_configs:\n"
        + "  - job_name: flink\n"
        + "    static_configs: [{targets: ['127.0.0.1:" + reporterPort + "']}]\n"
        + (disk == null ? "" : flinkHostRelabel())
        + (nodeTarget == null ? "" : "  - job_name: node\n"
            + "    static_configs: [{targets: ['" + nodeTarget + "']}]\n"
            + (disk == null ? "" : volumeRelabel(disk)))
        + "remote_write:\n"
        + "  - name: checkpoint-doctor\n"
        + "    url: " + cpd + "/api/v1/write\n"
        + "    write_relabel_configs:\n"
        + "      - source_labels: [__name__]\n"
        + "        regex: '" + keepRegex + "'\n"
        + "        action: keep\n"
        + "    queue_config:\n"
        + "      batch_send_deadline: 1s\n"
        + "      min_backoff: 100ms\n"
        + "      max_backoff: 5s\n");
    toClose.add(Proc.start("Prometheus", List.of(promBin,
        "--config.file=" + promDir.resolve("prometheus.yml"), "--storage.tsdb.path=" + promDir.resolve("tsdb"),
        "--web.listen-address=127.0.0.1:" + promPort, "--storage.remote.flush-deadline=1s"),
        promDir.resolve("prometheus.log"), Duration.ofSeconds(30), () -> Http.ok(promUrl + "/-/ready")));
    log("Prometheus on %s: scrapes Flink%s every 1 s, remote-writes to Checkpoint Doctor",
        promUrl, nodeTarget == null ? "" : " and node_exporter");
    Instant recordFrom = Instant.now();

    // learning: a fixed span of normal running (the point of the phase), reported every 30 s
    Wait.until("job " + job + " known to Checkpoint Doctor", Duration.ofSeconds(60),
        () -> Http.get(cpd + "/api/v1/jobs/" + enc(job)).statusCode() == 200);
    log("learning baselines for %d s", learn.toSeconds());
    Instant learnUntil = Instant.now().plus(learn);
    Instant[] nextReport = {Instant.now()};
    Wait.poll(learn, Duration.ofMillis(500), () -> {
      if (!Instant.now().isBefore(nextReport[0])) {
        log("  %s", baselineSummary(cpd));
        nextReport[0] = Instant.now().plusSeconds(30);
      }
      return !Instant.now().isBefore(learnUntil);
    });
    log("  %s", baselineSummary(cpd));
    if (disk != null) {
      log("  disk baselines of the job (scope, join): %s", diskJoins(cpd));
    }
    List<String> before = anomalyLines(cpd, null);
    if (!before.isEmpty()) {
      log("anomalies before the fault:");
      before.forEach(l -> log("    %s", l));
    }
    log("diagnosis before the fault: %s", diagnosis(cpd));
    captureRest(restUrl, client, restDir.resolve("normal"));
    int alertsBefore = alerts.size();

    // fault
    Instant t = Instant.now();
    scenario.inject(true);
    log("FAULT %s injected at T = %s", scenario, t);
    BurstableDisk vol = disk;
    Instant[] heldAtBase = {null};
    Instant[] firstAnomaly = {null};
    String[] firstAnomalyLine = {null};
    String[] lastDiagnosis = {"(none)"};
    Instant[] diagnosisChanged = {null};
    Lab.Alert expected = Wait.poll(faultFor, Duration.ofMillis(500), () -> {
      if (firstAnomaly[0] == null) {
        List<String> now = anomalyLines(cpd, t);
        if (!now.isEmpty()) {
          firstAnomaly[0] = Instant.now();
          firstAnomalyLine[0] = now.get(0);
          log("first anomaly (T+%ds): %s", secs(t, firstAnomaly[0]), now.get(0));
        }
      }
      if (vol != null && heldAtBase[0] == null && vol.limit() == BurstableDisk.BASE) {
        // once: the burst is over (the controller's log has every second)
        heldAtBase[0] = Instant.now();
        log("volume held at its baseline (T+%ds): %d MiB/s, credits %d MiB",
            secs(t, heldAtBase[0]), vol.limit() / BurstableDisk.MIB, vol.credits() / BurstableDisk.MIB);
      }
      String d = diagnosis(cpd);
      if (!d.equals(lastDiagnosis[0])) {
        lastDiagnosis[0] = d;
        diagnosisChanged[0] = Instant.now();
        log("diagnosis (T+%ds): %s", secs(t, diagnosisChanged[0]), d);
      }
      for (int i = alertsBefore; i < alerts.size(); i++) {
        Lab.Alert a = alerts.get(i);
        if (a.status().equals("firing") && a.cause().equals(scenario.expectedCause)) {
          return a;
        }
      }
      return null;
    });
    if (FLINK_REST && expected != null) {
      // the poller reads the JobManager every 2 s: give its facts a moment to reach the diagnosis
      Wait.poll(Duration.ofSeconds(60), Duration.ofMillis(500),
          () -> evidence(cpd).stream().anyMatch(e -> e.startsWith("[flink-rest")));
    }
    String liveDiagnosis = diagnosis(cpd);
    List<String> liveEvidence = evidence(cpd);
    captureRest(restUrl, client, restDir.resolve("fault"));
    Instant end = Instant.now();
    // a few more scrapes before recording: Prometheus only holds what it has scraped, and the
    // replay must see the samples the live diagnosis was made from and the evaluation after them
    Thread.sleep(5000);
    scenario.inject(false);

    Path recording = recordings.resolve(FlinkLine.RECORDING_PREFIX + scenario.name() + ".prom.gz");
    long samples = Recording.write(promUrl, keepRegex, recordFrom.minusSeconds(5), Instant.now(), recording);
    log("recorded %d samples of the remote-written series to %s (%d KB)", samples, recording,
        Files.size(recording) / 1024);
    closeAll();
    log("stopped Flink, Prometheus, node_exporter, Checkpoint Doctor, Alertmanager");

    String replay = replay(recording);

    System.out.println();
    System.out.println("=== timeline: " + scenario + " (expected cause " + scenario.expectedCause + ") ===");
    System.out.printf(Locale.ROOT, "normal running        %d s before the fault%n", learn.toSeconds());
    System.out.printf(Locale.ROOT, "fault injected        T = %s%n", t);
    if (heldAtBase[0] != null) {
      System.out.printf(Locale.ROOT, "volume at baseline    T+%ds  %d MiB/s (burst %d MiB/s)%n",
          secs(t, heldAtBase[0]), BurstableDisk.BASE / BurstableDisk.MIB,
          BurstableDisk.BURST / BurstableDisk.MIB);
    }
    System.out.println(firstAnomaly[0] == null ? "first anomaly         none within " + faultFor.toSeconds() + " s"
        : String.format(Locale.ROOT, "first anomaly         T+%ds  %s", secs(t, firstAnomaly[0]), firstAnomalyLine[0]));
    for (int i = alertsBefore; i < alerts.size(); i++) {
      Lab.Alert a = alerts.get(i);
      System.out.printf(Locale.ROOT, "alert at webhook      T+%ds  %s cause=%s severity=%s signal=%s%n",
          secs(t, a.receivedAt()), a.status(), a.cause(), a.severity(), a.signal());
    }
    if (expected == null) {
      System.out.println("alert with cause " + scenario.expectedCause + ": NOT received within "
          + faultFor.toSeconds() + " s");
    }
    System.out.println("live diagnosis        " + liveDiagnosis);
    liveEvidence.forEach(e -> System.out.println("  evidence            " + e));
    System.out.println("replayed diagnosis    " + replay);
    System.out.printf(Locale.ROOT, "run took              %d s end to end%n", secs(begin, Instant.now()));
    return expected == null ? 1 : 0;
  }

  /** Whether the service polls the MiniCluster's REST endpoint (-Dlab.flinkRest=false: not). */
  static final boolean FLINK_REST = !"false".equals(System.getProperty("lab.flinkRest"));

  /** Saves the JobManager's REST answers for the job (see {@link RestCapture}); never fails the run. */
  void captureRest(String restUrl, JobClient client, Path dir) {
    try {
      int n = RestCapture.capture(restUrl, client.getJobID().toString(), dir);
      log("saved %d REST answers of the JobManager to %s", n, dir);
    } catch (IOException | RuntimeException e) {
      log("REST capture to %s failed: %s", dir, e);
    }
  }

  /** The current diagnosis' evidence, one "[scope] sentence" line each. */
  List<String> evidence(String cpd) {
    List<String> out = new ArrayList<>();
    try {
      JsonNode d = JSON.readTree(Http.get(cpd + "/api/v1/jobs/" + enc(job)).body()).path("diagnosis");
      for (JsonNode e : d.path("evidence")) {
        out.add("[" + e.path("scope").asText() + "] " + e.path("sentence").asText());
      }
    } catch (IOException | RuntimeException e) {
      out.add("(" + e + ")");
    }
    return out;
  }

  /** The Flink host the lab's scrape gives the MiniCluster's series (see {@link #flinkHostRelabel}). */
  static final String TM_HOST = "minicluster";

  /**
   * The MiniCluster's TaskManager reports an empty {@code host}, which Prometheus drops; an
   * operator whose Flink hosts are unusable labels them at scrape time the same way.
   */
  static String flinkHostRelabel() {
    return "    metric_relabel_configs:\n"
        + "      - source_labels: [host]\n"
        + "        regex: ''\n"
        + "        target_label: host\n"
        + "        replacement: " + TM_HOST + "\n";
  }

  /**
   * The service ignores {@code loop*} devices (on real nodes they are idle snap/image mounts), but
   * here the loop device stands in for the TaskManager's cloud volume: name it like one. The
   * backend loop device keeps its name and stays invisible, like a provider's throttle.
   */
  static String volumeRelabel(BurstableDisk disk) {
    return "    metric_relabel_configs:\n"
        + "      - source_labels: [device]\n"
        + "        regex: '" + disk.volumeDevice() + "'\n"
        + "        target_label: device\n"
        + "        replacement: " + VOLUME_NAME + "\n";
  }

  /** The volume's {@code device} label after relabelling. */
  static final String VOLUME_NAME = "labvol0";

  /** scope=join of the job's disk baselines. */
  String diskJoins(String cpd) {
    try {
      JsonNode b = JSON.readTree(Http.get(cpd + "/api/v1/jobs/" + enc(job) + "/baselines").body())
          .path("baselines");
      List<String> out = new ArrayList<>();
      for (JsonNode n : b) {
        if (n.path("signal").asText().startsWith("disk_")) {
          String line = n.path("scope").asText() + " " + n.path("join").asText();
          if (!out.contains(line)) {
            out.add(line);
          }
        }
      }
      return out.isEmpty() ? "NONE (node_exporter's disks are not joined to the job)" : out.toString();
    } catch (IOException | RuntimeException e) {
      return e.toString();
    }
  }

  String baselineSummary(String cpd) {
    try {
      JsonNode b = JSON.readTree(Http.get(cpd + "/api/v1/jobs/" + enc(job) + "/baselines").body())
          .path("baselines");
      int ready = 0;
      List<String> learning = new ArrayList<>();
      for (JsonNode n : b) {
        if (n.path("state").asText().equals("ready")) {
          ready++;
        } else if (!learning.contains(n.path("signal").asText())) {
          learning.add(n.path("signal").asText());
        }
      }
      return "baselines: " + ready + " of " + b.size() + " ready; still learning: " + learning;
    } catch (IOException | RuntimeException e) {
      return "baselines: " + e;
    }
  }

  /** Anomalies of the job (all, or those started at or after {@code since}), one line each. */
  List<String> anomalyLines(String cpd, Instant since) {
    List<String> out = new ArrayList<>();
    try {
      JsonNode list = JSON.readTree(Http.get(cpd + "/api/v1/anomalies?job=" + enc(job)).body())
          .path("anomalies");
      for (JsonNode a : list) {
        Instant started = Instant.parse(a.path("startedAt").asText());
        if (since == null || !started.isBefore(since.minusSeconds(2))) {
          out.add(String.format(Locale.ROOT, "%s %s scope=%s started %s observed=%s expected=%s upper=%s",
              a.path("state").asText(), a.path("signal").asText(), a.path("scope").asText(),
              a.path("startedAt").asText(), a.path("observed").asText(), a.path("expected").asText(),
              a.path("upper").asText()));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  String diagnosis(String cpd) {
    try {
      JsonNode d = JSON.readTree(Http.get(cpd + "/api/v1/jobs/" + enc(job)).body()).path("diagnosis");
      if (d.isMissingNode() || d.isNull()) {
        return "(none)";
      }
      return String.format(Locale.ROOT, "cause=%s confidence=%.2f signal=%s",
          d.path("cause").asText(), d.path("confidence").asDouble(), d.path("signal").asText());
    } catch (IOException | RuntimeException e) {
      return "(" + e + ")";
    }
  }

  /** Replays the recording through the runnable jar; returns its diagnosis lines. */
  String replay(Path recording) throws IOException, InterruptedException {
    Path keep = recordings.resolve(FlinkLine.RECORDING_PREFIX + scenario.name() + ".replay.txt");
    List<String> command = new ArrayList<>(List.of(Lab.javaBin(), "-jar", jar.toString(), "replay",
        "--min-observations", "5"));
    if (scenario == Lab.Scenario.disk_throttling) {
      command.addAll(List.of("--host-alias", TM_HOST + "=127.0.0.1")); // the live service's join
    }
    command.add(recording.toString());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(keep.toFile()).start();
    int rc = p.waitFor();
    List<String> diag = new ArrayList<>();
    for (String l : Files.readAllLines(keep)) {
      String low = l.toLowerCase(Locale.ROOT);
      if (low.contains("diagnos") || low.contains("cause")) {
        diag.add(l.strip());
      }
    }
    return "(replay exit " + rc + ", full output in " + keep + ")\n    "
        + String.join("\n    ", diag.subList(0, Math.min(diag.size(), 10)));
  }
}
