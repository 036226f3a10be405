package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.JobView;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A job's state trend is kept from one diagnosis to the next ({@link SliceCache#result}); the
 * kept one must equal the trend read afresh whatever changed in between (a new size point at
 * the same event time, in-flight data, points expiring, thinning, the event time, the onset),
 * and be reused when nothing did.
 */
class StateTrendKeptTest {
  private static final long SCRAPE = 15_000L;

  @Test
  void keptTrendEqualsAFreshOneAndIsReusedWhenNothingChanged() {
    DetectorSettings settings = DetectorSettings.defaults();
    Random r = new Random(7);
    int reused = 0;
    int recomputed = 0;
    for (int round = 0; round < 40; round++) {
      Fake job = new Fake();
      SliceCache cache = new SliceCache();
      long t = 0;
      double size = 1e9;
      double rate = r.nextBoolean() ? 0 : 0.002 + 0.01 * r.nextDouble();
      StateTrend last = null;
      for (int step = 0; step < 600; step++) {
        int op = r.nextInt(20);
        if (op < 6) {
          t += SCRAPE; // the next scrape: the event time moves
          job.now = t;
        } else if (op < 11) {
          size *= 1 + rate * (0.5 + r.nextDouble());
          job.size.append(job.now, size); // a checkpoint at the same event time
        } else if (op == 11) {
          job.inFlight.append(job.now, size * 0.05 * r.nextDouble());
        } else if (op == 12 && job.size.size() > 8) {
          job.size.expire(1 + r.nextInt(3));
        } else if (op == 13 && job.size.size() > 8) {
          job.size.thin();
        } else if (op == 14) {
          job.onset = job.now - SCRAPE * r.nextInt(40); // an anomaly opened or resolved
        } // else: nothing changed since the last diagnosis
        cache.beginDiagnosis();
        StateTrend kept = StateTrend.of(new JobEvidence(job, settings, cache));
        cache.endDiagnosis();
        StateTrend fresh = StateTrend.of(new JobEvidence(job, settings));
        assertThat(String.valueOf(kept)).isEqualTo(String.valueOf(fresh));
        if (op >= 15 && last != null) {
          assertThat(kept).isSameAs(last);
          reused++;
        } else if (kept != null && kept != last) {
          recomputed++;
        }
        last = kept;
      }
    }
    assertThat(reused).isGreaterThan(1000);
    assertThat(recomputed).isGreaterThan(1000);
  }

  /** One job: a size and an in-flight data history and an anomaly that dates the onset. */
  private static final class Fake implements JobView {
    final History size = new History(Signal.CHECKPOINT_SIZE);
    final History inFlight = new History(Signal.CHECKPOINT_PERSISTED_DATA);
    long now;
    long onset;

    @Override
    public String job() {
      return "j";
    }

    @Override
    public long eventTimeMs() {
      return now;
    }

    @Override
    public List<Anomaly> openAnomalies() {
      return List.of(new Anomaly(1, "j", Signal.CHECKPOINT_DURATION, "job", true,
          Math.min(onset, now), -1, 1, 1, 0, 2, 5, List.of()));
    }

    @Override
    public List<BaselineSummary> baselines() {
      return List.of();
    }

    @Override
    public List<SeriesHistory> history(Signal signal) {
      return signal == Signal.CHECKPOINT_SIZE ? List.of(size)
          : signal == Signal.CHECKPOINT_PERSISTED_DATA ? List.of(inFlight) : List.of();
    }
  }

  /** A history that keeps the position promise of {@link SeriesHistory#firstPosition()}. */
  private static final class History implements SeriesHistory {
    private final Signal signal;
    private long[] t = new long[0];
    private double[] v = new double[0];
    private long first;
    private long layout;

    History(Signal signal) {
      this.signal = signal;
    }

    void append(long timeMs, double value) {
      t = Arrays.copyOf(t, t.length + 1);
      v = Arrays.copyOf(v, v.length + 1);
      t[t.length - 1] = timeMs;
      v[v.length - 1] = value;
    }

    void expire(int n) {
      t = Arrays.copyOfRange(t, n, t.length);
      v = Arrays.copyOfRange(v, n, v.length);
      first += n;
    }

    void thin() {
      int half = t.length / 2;
      int w = 0;
      for (int r = 0; r < t.length; r++) {
        if (r >= half || r % 2 == 0) {
          t[w] = t[r];
          v[w] = v[r];
          w++;
        }
      }
      t = Arrays.copyOf(t, w);
      v = Arrays.copyOf(v, w);
      layout++;
    }

    @Override
    public Signal signal() {
      return signal;
    }

    @Override
    public String scope() {
      return "job";
    }

    @Override
    public int size() {
      return t.length;
    }

    @Override
    public long timeMs(int i) {
      return t[i];
    }

    @Override
    public double value(int i) {
      return v[i];
    }

    @Override
    public long firstPosition() {
      return first;
    }

    @Override
    public long layoutVersion() {
      return layout;
    }
  }
}
