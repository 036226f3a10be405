package dev.checkpointdoctor.eval.family2;

import static dev.checkpointdoctor.eval.family2.Faults.BACKPRESSURE;
import static dev.checkpointdoctor.eval.family2.Faults.CPU;
import static dev.checkpointdoctor.eval.family2.Faults.DISK;
import static dev.checkpointdoctor.eval.family2.Faults.GC;
import static dev.checkpointdoctor.eval.family2.Faults.INTERVAL;
import static dev.checkpointdoctor.eval.family2.Faults.ROCKSDB;
import static dev.checkpointdoctor.eval.family2.Faults.SKEW;
import static dev.checkpointdoctor.eval.family2.Faults.STATE;
import static dev.checkpointdoctor.eval.family2.Faults.STORAGE;
import static dev.checkpointdoctor.eval.family2.Faults.UNALIGNED;

import dev.checkpointdoctor.eval.family2.JobPlan.Backend;
import dev.checkpointdoctor.eval.family2.JobPlan.FaultPlan;
import dev.checkpointdoctor.eval.family2.JobPlan.Lifecycle;
import dev.checkpointdoctor.eval.family2.JobPlan.Storage;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The corpus of one seed: four jobs per cause, a few jobs with two faults at once, two jobs
 * whose root cause sits in a source the service cannot join on that layout, and the healthy
 * controls. Every job draws its own parameters from its own seed.
 */
final class CorpusPlanner {
  static final long HOUR = 3_600_000L;
  static final long MINUTE = 60_000L;
  /** A Monday, so that the weekly control can start on a Friday near it. */
  static final long EPOCH = Instant.parse("2026-04-06T00:00:00Z").toEpochMilli();
  static final List<String> CONTROLS = List.of("daily_cycle", "weekly_cycle", "redeploy",
      "rescale", "submitted_declined_first", "unaligned_variance", "isolated_slow_checkpoints",
      "slow_drift", "shorter_interval_that_fits", "taskmanager_lost", "standalone_layout");

  private static final Map<String, Ramp[]> RAMPS = Map.of(
      DISK, new Ramp[] {Ramp.STEP, Ramp.LINEAR, Ramp.SIGMOID, Ramp.STEP_THEN_DRIFT},
      STATE, new Ramp[] {Ramp.LINEAR, Ramp.STEP_THEN_DRIFT, Ramp.SIGMOID, Ramp.STEP},
      BACKPRESSURE, new Ramp[] {Ramp.STEP, Ramp.LINEAR, Ramp.SIGMOID, Ramp.STEP_THEN_DRIFT},
      UNALIGNED, new Ramp[] {Ramp.STEP, Ramp.SIGMOID, Ramp.LINEAR, Ramp.STEP_THEN_DRIFT},
      ROCKSDB, new Ramp[] {Ramp.STEP, Ramp.LINEAR, Ramp.SIGMOID, Ramp.STEP_THEN_DRIFT},
      GC, new Ramp[] {Ramp.LINEAR, Ramp.SIGMOID, Ramp.STEP_THEN_DRIFT, Ramp.STEP},
      STORAGE, new Ramp[] {Ramp.STEP, Ramp.LINEAR, Ramp.SIGMOID, Ramp.STEP_THEN_DRIFT},
      SKEW, new Ramp[] {Ramp.STEP, Ramp.SIGMOID, Ramp.LINEAR, Ramp.STEP_THEN_DRIFT},
      CPU, new Ramp[] {Ramp.STEP, Ramp.LINEAR, Ramp.SIGMOID, Ramp.STEP_THEN_DRIFT},
      INTERVAL, new Ramp[] {Ramp.STEP, Ramp.STEP, Ramp.STEP, Ramp.STEP});
  private static final Map<String, String[]> VARIANTS = Map.of(
      DISK, new String[] {"neighbour_io", "cache_miss", "load_rise", "compaction_io"},
      STATE, new String[] {"no_ttl", "new_keys", "backfill_keys", "no_ttl"},
      BACKPRESSURE, new String[] {"slow_sink", "slow_sink", "slow_lookup", "slow_sink"},
      UNALIGNED, new String[] {"slow_sink", "slow_sink", "slow_sink", "slow_sink"},
      ROCKSDB, new String[] {"write_burst", "compaction_cpu", "write_burst", "compaction_cpu"},
      GC, new String[] {"leak", "heap_state", "leak", "cache"},
      STORAGE, new String[] {"hangs", "bandwidth", "latency", "bandwidth"},
      SKEW, new String[] {"hot_key", "hot_key", "mild", "hot_key"},
      CPU, new String[] {"load_rise", "cpu_cost", "cpu_cost", "load_rise"},
      INTERVAL, new String[] {"redeploy", "redeploy", "redeploy", "redeploy"});
  private static final String[] JOB_BASES = {"orders-enrichment", "payment-ledger",
      "fraud-scoring", "clickstream-sessions", "inventory-sync", "ad-impressions",
      "iot-telemetry", "user-profile-updates", "search-events", "shipment-tracking",
      "price-alerts", "card-authorizations", "session-analytics", "recommendation-features",
      "log-aggregation", "metrics-rollup", "geo-events", "cdc-customers", "booking-events",
      "chat-moderation", "returns-processing", "loyalty-points", "sensor-anomalies",
      "billing-usage", "cart-abandonment", "email-engagement", "device-heartbeats",
      "trade-settlement", "ride-matching", "content-views"};
  private static final String[] REGIONS = {"eu", "us", "apac", "v2", "prod", "de", "uk"};

  private final SplittableRandom master;
  private final Set<String> jobNames = new HashSet<>();
  private final List<Family2Scenario> out = new ArrayList<>();

  private CorpusPlanner(long seed) {
    this.master = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 0x2F2F_0002L);
  }

  static List<Family2Scenario> corpus(long seed) {
    return new CorpusPlanner(seed).plan();
  }

  private List<Family2Scenario> plan() {
    for (String cause : Faults.CAUSES) {
      for (int j = 0; j < 4; j++) {
        JobDraft d = draft(cause + "_" + (j + 1));
        d.expected = cause;
        long start = faultStart(d);
        configure(d, cause, j, start);
        addFault(d, cause, start, RAMPS.get(cause)[j], VARIANTS.get(cause)[j]);
        add(d);
      }
    }
    String[][] duals = {{DISK, SKEW}, {STORAGE, STATE}, {CPU, STATE}, {GC, SKEW}};
    for (int j = 0; j < duals.length; j++) {
      JobDraft d = draft("dual_" + duals[j][0] + "_" + duals[j][1]);
      d.expected = duals[j][0];
      long start = faultStart(d);
      configure(d, duals[j][0], j % 4, start);
      configure(d, duals[j][1], 0, start);
      addFault(d, duals[j][0], start, RAMPS.get(duals[j][0])[j], VARIANTS.get(duals[j][0])[0]);
      long second = start + (long) (Noise.uniform(d.rng, 30, 90) * MINUTE);
      addFault(d, duals[j][1], second, Ramp.values()[d.rng.nextInt(4)],
          VARIANTS.get(duals[j][1])[duals[j][1].equals(SKEW) ? 0 : 1]);
      add(d);
    }
    JobDraft disk = draft("unjoinable_disk_throttling");
    disk.expected = DISK;
    long start = faultStart(disk);
    configure(disk, DISK, 0, start);
    disk.layout = Layout.Kind.K8S_NATIVE;
    addFault(disk, DISK, start, Ramp.SIGMOID, "neighbour_io");
    add(disk);
    JobDraft cpu = draft("unjoinable_cpu_throttling");
    cpu.expected = CPU;
    start = faultStart(cpu);
    configure(cpu, CPU, 1, start);
    cpu.layout = Layout.Kind.K8S_STANDALONE;
    addFault(cpu, CPU, start, Ramp.STEP, "cpu_cost");
    add(cpu);
    for (String control : CONTROLS) {
      JobDraft d = draft("healthy_" + control);
      Controls.configure(d, control);
      add(d);
    }
    return out;
  }

  private JobDraft draft(String name) {
    long seed = master.nextLong();
    long start = EPOCH + master.nextInt(6) * 24 * HOUR + master.nextInt(24) * HOUR
        + master.nextInt(4) * 15 * MINUTE;
    JobDraft d = new JobDraft(seed, start);
    d.name = name;
    String base = JOB_BASES[master.nextInt(JOB_BASES.length)] + "-"
        + REGIONS[master.nextInt(REGIONS.length)];
    String unique = base;
    for (int n = 2; !jobNames.add(unique); n++) {
      unique = base + "-" + n;
    }
    d.jobName = Names.sanitize(unique);
    return d;
  }

  /** Twelve hours of normal running, then the fault, which lasts 4-6 h. */
  private static long faultStart(JobDraft d) {
    long start = d.startMs + 12 * HOUR + (long) (d.rng.nextDouble() * 20) * MINUTE;
    d.endMs = start + (long) (Noise.uniform(d.rng, 4, 6) * HOUR);
    return start;
  }

  /** What a cause needs of the job to be physically possible there. */
  static void configure(JobDraft d, String cause, int j, long faultStart) {
    switch (cause) {
      case DISK -> {
        d.layout = new Layout.Kind[] {Layout.Kind.BARE_METAL_IP, Layout.Kind.K8S_HOSTNET,
            Layout.Kind.BARE_METAL_FQDN, Layout.Kind.K8S_HOSTNET}[j];
        d.backend = Backend.ROCKSDB;
        d.volume = DiskVolume.Kind.GP2;
        d.dailyAmplitude = Math.max(0.12, d.dailyAmplitude);
      }
      case STATE -> {
        if (j == 1) {
          d.heapBackend();
        } else {
          d.incremental = j % 2 == 0;
        }
      }
      case BACKPRESSURE -> {
        d.unaligned = false;
        if (j == 2) {
          d.template = 3;
        }
      }
      case UNALIGNED -> {
        // the jobs that turn on unaligned checkpoints: wide records, many channels, generous
        // network buffers, not much state to churn
        d.unaligned = true;
        if (d.parallelism < 8) {
          d.parallelism(8 + 4 * d.rng.nextInt(3));
        }
        d.recordBytes = Noise.logUniform(d.rng, 1000, 8000);
        d.buffersPerChannel = d.rng.nextBoolean() ? 4 : 8;
        d.floatingBuffers = d.rng.nextBoolean() ? 16 : 64;
        d.stateBytes = Noise.logUniform(d.rng, 100e6, 3e9);
        d.writeBytesPerRecord = Noise.logUniform(d.rng, 20, 80);
      }
      case ROCKSDB -> {
        d.backend = Backend.ROCKSDB;
        d.volume = j % 2 == 0 ? DiskVolume.Kind.NVME : DiskVolume.Kind.GP3;
        d.provisionedIops = Noise.uniform(d.rng, 6000, 12000);
        // a heavy writer (MBs per second per instance): compaction already busy at the peak,
        // and L0 fills within hours once it falls behind
        d.compactionMargin = Noise.uniform(d.rng, 1.6, 3.0);
        d.recordsPerSecond = Math.max(d.recordsPerSecond, Noise.logUniform(d.rng, 20_000,
            150_000));
        d.writeBytesPerRecord = Noise.logUniform(d.rng, 200, 800);
        d.layout = new Layout.Kind[] {Layout.Kind.BARE_METAL_FQDN, Layout.Kind.K8S_NATIVE,
            Layout.Kind.BARE_METAL_IP, Layout.Kind.K8S_HOSTNET}[j];
        d.peakCpuShare = Noise.uniform(d.rng, 0.3, 0.4);
      }
      case GC -> {
        if (j != 2) {
          d.heapBackend();
        }
      }
      case STORAGE -> d.storage = new Storage[] {Storage.HDFS, Storage.S3, Storage.NFS,
          Storage.S3}[j];
      case SKEW -> {
        if (d.parallelism < 4) {
          d.parallelism(4 + 2 * d.rng.nextInt(3));
        }
        d.peakUtilization = Math.max(0.42, d.peakUtilization);
      }
      case CPU -> {
        d.layout = new Layout.Kind[] {Layout.Kind.K8S_NATIVE, Layout.Kind.K8S_HOSTNET,
            Layout.Kind.K8S_NATIVE, Layout.Kind.K8S_NATIVE}[j];
        // limits set close to what the job needs at its peak (limit-factor 1, no headroom),
        // and the throttling starts as the daily peak builds up
        d.peakCpuShare = Noise.uniform(d.rng, 0.5, 0.65);
        d.peakHour = hourOfDay(faultStart) + Noise.uniform(d.rng, 0, 4);
      }
      case INTERVAL -> {
        d.backend = Backend.ROCKSDB;
        d.incremental = true;
        d.fixedSeconds = Noise.logUniform(d.rng, 20, 45);
        d.intervalMs = (d.rng.nextBoolean() ? 180 : 300) * 1000L;
        d.minPauseMs = 0;
      }
      default -> throw new IllegalArgumentException(cause);
    }
  }

  static void addFault(JobDraft d, String cause, long start, Ramp ramp, String variant) {
    long rampMs = switch (ramp) {
      case STEP -> 0;
      case LINEAR -> (long) (Noise.uniform(d.rng, 30, 120) * MINUTE);
      case SIGMOID -> (long) (Noise.uniform(d.rng, 40, 150) * MINUTE);
      case STEP_THEN_DRIFT -> (long) (Noise.uniform(d.rng, 60, 180) * MINUTE);
    };
    double severity = Noise.uniform(d.rng, 0.2, 1.0);
    d.faults.add(new FaultPlan(cause, start, ramp, rampMs, severity, variant));
    if (cause.equals(INTERVAL)) {
      // the shorter interval is set from the measured checkpoint duration when the draft is
      // built (JobDraft.build)
      d.lifecycle.add(new Lifecycle(Lifecycle.Kind.REDEPLOY, start, 0, 1_000,
          (long) (Noise.uniform(d.rng, 30, 120) * 1000)));
    }
  }

  private void add(JobDraft d) {
    out.add(new Family2Scenario(d));
  }

  static double hourOfDay(long t) {
    ZonedDateTime z = Instant.ofEpochMilli(t).atZone(ZoneOffset.UTC);
    return z.getHour() + z.getMinute() / 60.0;
  }

  /** The next Friday 00:00 UTC at or after {@code t}. */
  static long friday(long t) {
    ZonedDateTime z = Instant.ofEpochMilli(t).atZone(ZoneOffset.UTC).toLocalDate()
        .atStartOfDay(ZoneOffset.UTC);
    while (z.getDayOfWeek() != DayOfWeek.FRIDAY) {
      z = z.plusDays(1);
    }
    return z.toInstant().toEpochMilli();
  }
}
