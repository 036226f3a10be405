package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.cause.FlinkJobSim;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.Diagnoser;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CPU per diagnosis of one realistic job, through the path the server uses ({@link
 * Detector#endBatch()} diagnosing a touched job with an open anomaly): the cause-ranker tests'
 * {@link FlinkJobSim} with 3 tasks x 8 subtasks, 8 RocksDB operators and 4 TaskManagers with their
 * node disks and containers, scraped every 15 s. Two hours of healthy scrapes fill the
 * histories, then every TaskManager disk is held at an IOPS ceiling ({@link
 * FlinkJobSim#diskCeiling}), which opens anomalies that stay open while the fault lasts; every
 * later scrape ends in a diagnosis.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.checkpointdoctor.bench.DiagnosisBench}
 * replays the same seeded job several times (the first runs warm the JIT) and prints the thread
 * CPU ns per diagnosis of each measured run, plus a digest of every diagnosis' full text: two
 * builds that diagnose alike print the same digest. The JMH method scores one fault scrape
 * (its samples plus its diagnosis) in wall time, which the shared machine makes noisy.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DiagnosisBench {
  static final double HEALTHY_MINUTES = 120;
  static final double FAULT_MINUTES = 60;
  static final double SCRAPE_MINUTES = 0.25;
  static final double CEILING_IOPS = 400;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private TimedJob job;

  @Setup(Level.Trial)
  public void setUp() {
    job = new TimedJob(false);
    job.sim.run(HEALTHY_MINUTES, 10, FlinkJobSim.diskCeiling(CEILING_IOPS));
  }

  /** One scrape of the faulty job: its samples and the diagnosis at its end. */
  @Benchmark
  public int faultScrape() {
    job.sim.run(0, SCRAPE_MINUTES, FlinkJobSim.diskCeiling(CEILING_IOPS));
    return job.diagnoses;
  }

  public static void main(String[] args) {
    int warmRuns = Integer.getInteger("warmRuns", 6);
    int runs = Integer.getInteger("runs", 5);
    StringBuilder out = new StringBuilder("CPU ns per diagnosis:");
    String digest = null;
    for (int r = 0; r < warmRuns + runs; r++) {
      TimedJob j = new TimedJob(true);
      j.sim.run(HEALTHY_MINUTES, FAULT_MINUTES, FlinkJobSim.diskCeiling(CEILING_IOPS));
      String d = HexFormat.of().formatHex(j.digest.digest()).substring(0, 16);
      if (digest != null && !digest.equals(d)) {
        throw new IllegalStateException("runs diagnosed differently: " + digest + " " + d);
      }
      digest = d;
      if (r >= warmRuns) {
        out.append(String.format(" %,d", j.diagnosisCpuNs / j.diagnoses));
      }
      if (r == 0) {
        System.out.println("diagnoses per run: " + j.diagnoses + ", last: " + j.last.cause()
            + " " + j.last.confidence() + " via " + j.last.signal());
      }
    }
    System.out.println(out);
    System.out.println("digest of every diagnosis: " + digest);
  }

  /** The simulated job with a diagnoser that times, counts and digests every diagnosis. */
  static final class TimedJob {
    final FlinkJobSim sim;
    final boolean digesting;
    final MessageDigest digest;
    long diagnosisCpuNs;
    int diagnoses;
    Diagnosis last;

    TimedJob(boolean digesting) {
      this.digesting = digesting;
      try {
        digest = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
      DetectorSettings settings = DetectorSettings.defaults();
      CauseRanker ranker = new CauseRanker(settings);
      Diagnoser timed = (view, since) -> {
        long t0 = THREADS.getCurrentThreadCpuTime();
        Diagnosis d = ranker.diagnose(view, since);
        diagnosisCpuNs += THREADS.getCurrentThreadCpuTime() - t0;
        diagnoses++;
        last = d;
        if (this.digesting) {
          digest.update(String.valueOf(d).getBytes(StandardCharsets.UTF_8));
        }
        return d;
      };
      sim = new FlinkJobSim(7, 8, 4, 15, false, settings, timed);
    }
  }
}
