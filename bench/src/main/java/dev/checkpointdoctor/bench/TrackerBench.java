package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.detector.baseline.SignalTracker;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.Random;

/**
 * One scrape's tracker steps at the steady state: every tracker of a fleet a week old (seasonal
 * envelopes holding eight days, filled by a value every 15 minutes, then 2 h of 15 s scrapes)
 * judges and learns one observation, as the detector does for each sample. Unlike {@link
 * BaselineBench} this includes the seasonal envelope, which every observation of a ready
 * baseline asks and widens, and the hour changes it packs at (one every 240 scrapes). Half the
 * series carry continuous noise, half small integers with many ties, as in BaselineBench.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.checkpointdoctor.bench.TrackerBench} prints
 * thread CPU ns per observation (five 2 s windows after 3 s). To compare another build's
 * detector, put its jar first: {@code -cp OTHER.jar:bench/target/benchmarks.jar}.
 */
public final class TrackerBench {
  private static final int NOISE = 1 << 12;
  private final SignalTracker[] trackers;
  private final double[] level;
  private final double[] noise = new double[NOISE];
  private long ts = 1_796_000_000_000L;
  private int round;

  TrackerBench(int n) {
    Random r = new Random(7);
    for (int i = 0; i < NOISE; i++) {
      noise[i] = r.nextGaussian();
    }
    DetectorSettings settings = DetectorSettings.defaults();
    trackers = new SignalTracker[n];
    level = new double[n];
    for (int i = 0; i < n; i++) {
      trackers[i] = new SignalTracker(Signal.CHECKPOINT_DURATION, settings);
      level[i] = 50 + r.nextInt(5000);
    }
    for (int k = 0; k < 8 * 24 * 4; k++) {
      scrape(15 * 60_000L);
    }
    for (int k = 0; k < 480; k++) {
      scrape(15_000L);
    }
  }

  private double value(int i) {
    double z = noise[(round * 7919 + i * 31) & (NOISE - 1)];
    return (i & 1) == 0 ? level[i] * (1 + 0.05 * z) : Math.rint(4 + 2 * z);
  }

  private double scrape(long stepMs) {
    ts += stepMs;
    round++;
    double sum = 0;
    for (int i = 0; i < trackers.length; i++) {
      sum += trackers[i].observe(ts, value(i)).upper();
    }
    return sum;
  }

  public static void main(String[] args) {
    int n = Integer.getInteger("bench.trackers", 5000);
    TrackerBench b = new TrackerBench(n);
    int batch = Math.max(1, 10_000 / n);
    ThreadCpu.warm(() -> b.scrape(15_000L), batch, 3_000_000_000L);
    StringBuilder out = new StringBuilder(String.format("%,d trackers, CPU ns per observation:", n));
    for (int w = 0; w < 5; w++) {
      out.append(String.format(" %.1f",
          ThreadCpu.window(() -> b.scrape(15_000L), batch, 2_000_000_000L) / n));
    }
    System.out.println(out);
  }
}
