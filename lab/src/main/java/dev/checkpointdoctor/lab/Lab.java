package dev.checkpointdoctor.lab;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The fault lab: a real Flink job in a MiniCluster, scraped every second by a real Prometheus
 * that remote-writes to Checkpoint Doctor, which alerts a real Alertmanager whose webhook lands
 * here. Lets the job run normally, injects one fault at T and prints the timeline.
 *
 * <pre>java -cp lab/target/lab.jar dev.checkpointdoctor.lab.Lab run backpressure [--learn 180] [--fault 240]</pre>
 *
 * Run from the repository root (it starts api/target/checkpoint-doctor.jar and reads the
 * remote-write relabelling from deploy/prometheus/remote-write.yml).
 */
public final class Lab {
  static final ObjectMapper JSON = new ObjectMapper();

  /** A scenario: the fault switch and the cause the service should name. */
  enum Scenario {
    backpressure("backpressure", "file", "rocksdb") {
      @Override
      void inject(boolean on) {
        Faults.slowMap = on;
      }
    },
    state_growth("state_growth", "file", "rocksdb") {
      @Override
      void inject(boolean on) {
        Faults.growState = on;
      }
    },
    checkpoint_storage_slow("checkpoint_storage_slow", "slowfile", "rocksdb") {
      @Override
      void inject(boolean on) {
        Faults.slowStorage = on;
      }
    },
    /** hashmap backend; run the lab JVM with a small heap (-Xmx1g), the fault fills 70 % of it. */
    gc_pressure("gc_pressure", "file", "hashmap") {
      @Override
      void inject(boolean on) {
        Faults.gcPressure = on;
      }
    },
    data_skew("data_skew", "file", "rocksdb") {
      @Override
      void inject(boolean on) {
        Faults.dataSkew = on;
      }
    },
    /** Unaligned checkpoints from the start; wide records so the in-flight buffers weigh MBs. */
    unaligned_checkpoint_inflation("unaligned_checkpoint_inflation", "file", "rocksdb") {
      @Override
      void inject(boolean on) {
        Faults.slowMap = on;
      }

      @Override
      void configure(org.apache.flink.configuration.Configuration conf) {
        WideJob.configure(conf);
      }

      @Override
      org.apache.flink.core.execution.JobClient start(String job,
          org.apache.flink.configuration.Configuration conf) throws Exception {
        return WideJob.start(job, conf);
      }
    },
    checkpoint_interval_too_short("checkpoint_interval_too_short", "slowfile", "rocksdb") {
      @Override
      void inject(boolean on) {
        Faults.slowCheckpointStart = on;
      }
    },
    /**
     * RocksDB's local dir and the checkpoints on a loop-device volume with a token-bucket IOPS
     * budget ({@link BurstableDisk}); at T its credits run out. Root, cgroup v1 blkio, loop devices.
     */
    disk_throttling("disk_throttling", "file", "rocksdb") {
      @Override
      void inject(boolean on) {
        Faults.diskCreditsExhausted = on;
      }

      @Override
      String cannotRun() {
        return BurstableDisk.cannotRun();
      }

      @Override
      LabVolume volume(Path work) throws Exception {
        return BurstableDisk.create(work);
      }
    },
    /**
     * The TaskManager's work under a CFS quota ({@link CpuQuota}), cut at T; the kubelet's cAdvisor
     * counters come from the group's cpu.stat ({@link KubeletCadvisor}). Root, cgroup v1 cpu.
     */
    cpu_throttling("cpu_throttling", "file", "rocksdb") {
      @Override
      void inject(boolean on) {
        Faults.cpuQuotaCut = on;
      }

      @Override
      String cannotRun() {
        return CpuQuota.cannotRun();
      }
    },
    /**
     * RocksDB's local dir on a volume with NFS-like, variable latency from T ({@link NfsLikeDisk}):
     * slow without a ceiling. The operator is to be told that the local dir's disk is slow (its
     * remedy: a fast local disk for the local dir), not that a disk is throttled at a ceiling it
     * does not have, nor that RocksDB stalls (on 2.3.0 it did not). Root, /dev/fuse, a C
     * compiler, loop devices.
     */
    rocksdb_slow_local_disk("local_disk_slow", "file", "rocksdb") {
      @Override
      void inject(boolean on) {
        Faults.nfsSlow = on;
      }

      @Override
      String cannotRun() {
        return NfsLikeDisk.cannotRun();
      }

      @Override
      LabVolume volume(Path work) throws Exception {
        return NfsLikeDisk.create(work);
      }
    };

    final String expectedCause;
    final String checkpointScheme;
    final String backend;

    Scenario(String expectedCause, String checkpointScheme, String backend) {
      this.expectedCause = expectedCause;
      this.checkpointScheme = checkpointScheme;
      this.backend = backend;
    }

    abstract void inject(boolean on);

    /** Scenario-specific Flink settings on top of {@link LabJob#config}. */
    void configure(org.apache.flink.configuration.Configuration conf) {}

    /** The job the scenario runs: the lab's job unless the fault needs another shape. */
    org.apache.flink.core.execution.JobClient start(String job,
        org.apache.flink.configuration.Configuration conf) throws Exception {
      return LabJob.start(job, conf);
    }

    /**
     * The volume the scenario's RocksDB (and perhaps checkpoints) write to, or null for the
     * work dir's disk. Its disk is joined to the job with {@code --host-alias}.
     */
    LabVolume volume(Path work) throws Exception {
      return null;
    }

    /** Why this machine cannot run the scenario, or null. */
    String cannotRun() {
      return null;
    }
  }

  /** Exit code when the scenario cannot run on this machine, so CI can fall back to another. */
  static final int CANNOT_RUN_HERE = 3;

  record Alert(Instant receivedAt, String status, String cause, String severity, String signal) {}

  private Lab() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("clean")) {
      List<String> undone = LabLeftovers.sweep();
      undone.forEach(u -> log("%s", u));
      log("clean: %d leftover(s) of killed lab runs removed", undone.size());
      System.exit(0);
    }
    if (args.length < 2 || !args[0].equals("run")) {
      System.err.println("usage: Lab run <" + List.of(Scenario.values()) + "> [--learn SECONDS]"
          + " [--fault SECONDS] [--after SECONDS] [--jar api/target/checkpoint-doctor.jar] [--recordings lab/recordings]");
      System.err.println("       Lab clean   (undo the mounts, loop devices, FUSE servers and cgroups"
          + " of lab runs killed before their clean-up; every run also does it at its start)");
      System.exit(args.length == 1 && args[0].equals("--help") ? 0 : 2);
    }
    Scenario scenario = Scenario.valueOf(args[1]);
    Duration learn = Duration.ofSeconds(90);
    Duration fault = Duration.ofSeconds(300);
    Duration after = Duration.ZERO;
    Path jar = Path.of("api/target/checkpoint-doctor.jar");
    Path recordings = Path.of("lab/recordings");
    for (int i = 2; i < args.length; i += 2) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("flag " + args[i] + " needs a value");
      }
      switch (args[i]) {
        case "--learn" -> learn = seconds(args[i + 1]);
        case "--fault" -> fault = seconds(args[i + 1]);
        case "--after" -> after = seconds(args[i + 1]);
        case "--jar" -> jar = Path.of(args[i + 1]);
        case "--recordings" -> recordings = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown flag " + args[i]);
      }
    }
    String why = scenario.cannotRun();
    if (why != null) {
      System.err.println("scenario " + scenario + " cannot run here: " + why);
      System.exit(CANNOT_RUN_HERE);
    }
    LabRun run = new LabRun(scenario, learn, fault, jar, recordings);
    run.after = after;
    int rc = run.call();
    System.exit(rc);
  }

  static Duration seconds(String s) {
    return Duration.ofSeconds(Long.parseLong(s.replaceAll("s$", "")));
  }

  static void log(String fmt, Object... args) {
    Object[] all = new Object[args.length + 1];
    all[0] = Instant.now().toString().substring(11, 19);
    System.arraycopy(args, 0, all, 1, args.length);
    System.out.printf(Locale.ROOT, "%s  " + fmt + "%n", all);
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  static long secs(Instant from, Instant to) {
    return Duration.between(from, to).toSeconds();
  }

  static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** Receives Alertmanager's webhook posts and keeps the job's alerts with their arrival time. */
  static HttpServer webhook(String job, List<Alert> alerts) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/hook", ex -> {
      Instant at = Instant.now();
      byte[] body;
      try (InputStream in = ex.getRequestBody()) {
        body = in.readAllBytes();
      }
      try {
        for (JsonNode a : JSON.readTree(body).path("alerts")) {
          JsonNode l = a.path("labels");
          if (job.equals(l.path("job_name").asText())) {
            Alert alert = new Alert(at, a.path("status").asText(), l.path("cause").asText(),
                l.path("severity").asText(), l.path("signal").asText());
            alerts.add(alert);
            log("webhook: %s %s cause=%s severity=%s signal=%s", alert.status(), job,
                alert.cause(), alert.severity(), alert.signal());
          }
        }
      } catch (IOException e) {
        System.err.println("webhook: unreadable body: " + e);
      }
      ex.sendResponseHeaders(200, -1);
      ex.close();
    });
    server.start();
    return server;
  }

  static List<Alert> newAlertList() {
    return new CopyOnWriteArrayList<>();
  }
}
