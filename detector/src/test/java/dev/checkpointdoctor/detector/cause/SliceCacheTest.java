package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Kept windows and medians must answer, bit for bit, what {@link Stats} answers over a fresh
 * copy of the same points, whatever happened to the history in between: appends, points
 * expiring off the front, thinning (a new layout), slices moving either way, non-finite values.
 */
class SliceCacheTest {
  private static final double[] QS = {0, 0.1, 0.5, 0.9, 0.95, 1};

  @Test
  void keptAnswersEqualFreshOnesWhateverTheHistoryDid() {
    Random r = new Random(5);
    for (int round = 0; round < 200; round++) {
      FakeHistory h = new FakeHistory();
      SliceCache cache = new SliceCache();
      int from = 0;
      for (int step = 0; step < 400; step++) {
        int op = r.nextInt(20);
        if (op < 12 || h.size() < 4) {
          h.append(value(r));
        } else if (op < 15) {
          h.expire(1 + r.nextInt(Math.min(5, h.size())));
        } else if (op == 15) {
          h.thin();
        } // else: only the bounds move
        // the slice bounds move a little either way, now and then jump
        from = r.nextInt(8) == 0 ? r.nextInt(h.size() + 1)
            : Math.max(0, Math.min(h.size(), from + r.nextInt(5) - 2));
        int to = r.nextInt(6) == 0 ? from + r.nextInt(h.size() - from + 1) : h.size();
        cache.beginDiagnosis();
        SortedWindow w = cache.window(h, from, to);
        double[] copy = JobEvidenceSlices.copy(h, from, to);
        for (double q : QS) {
          assertBits(w.quantile(q), Stats.quantile(copy, q));
        }
        assertBits(w.max(), Stats.max(copy));
        assertThat(w.size()).isEqualTo(copy.length);
        for (double t : new double[] {0, 0.5, 1, -0.0}) {
          assertBits(w.fractionAtLeast(t), Stats.fractionAtLeast(copy, t));
        }
        double before = cache.median(h, 0, from);
        assertBits(before, Stats.median(JobEvidenceSlices.copy(h, 0, from)));
        cache.endDiagnosis();
        assertThat(cache.size()).isEqualTo(1);
      }
    }
  }

  @Test
  void historiesADiagnosisDidNotReadAreDropped() {
    SliceCache cache = new SliceCache();
    FakeHistory a = new FakeHistory();
    FakeHistory b = new FakeHistory();
    a.append(1);
    b.append(2);
    cache.beginDiagnosis();
    cache.window(a, 0, 1);
    cache.median(b, 0, 1);
    cache.endDiagnosis();
    assertThat(cache.size()).isEqualTo(2);
    cache.beginDiagnosis();
    cache.window(a, 0, 1);
    cache.endDiagnosis();
    assertThat(cache.size()).isEqualTo(1);
  }

  private static double value(Random r) {
    return switch (r.nextInt(10)) {
      case 0 -> Double.NaN;
      case 1 -> Double.POSITIVE_INFINITY;
      case 2 -> r.nextBoolean() ? 0.0 : -0.0;
      case 3, 4 -> r.nextInt(4); // ties
      default -> r.nextGaussian() * 100;
    };
  }

  private static void assertBits(double actual, double expected) {
    assertThat(Double.doubleToRawLongBits(actual)).as("%s vs %s", actual, expected)
        .isEqualTo(Double.doubleToRawLongBits(expected));
  }

  /** {@link JobEvidence#slice} by index. */
  private static final class JobEvidenceSlices {
    static double[] copy(SeriesHistory h, int from, int to) {
      double[] out = new double[Math.max(0, to - from)];
      int n = 0;
      for (int i = from; i < to; i++) {
        if (Double.isFinite(h.value(i))) {
          out[n++] = h.value(i);
        }
      }
      return Arrays.copyOf(out, n);
    }
  }

  /** A history that keeps the position promise of {@link SeriesHistory#firstPosition()}. */
  private static final class FakeHistory implements SeriesHistory {
    private double[] values = new double[0];
    private long first;
    private long layout;
    private long clock;

    void append(double v) {
      values = Arrays.copyOf(values, values.length + 1);
      values[values.length - 1] = v;
      clock++;
    }

    void expire(int n) {
      values = Arrays.copyOfRange(values, n, values.length);
      first += n;
    }

    void thin() {
      int half = values.length / 2;
      double[] out = new double[values.length];
      int w = 0;
      for (int i = 0; i < half; i += 2) {
        out[w++] = values[i];
      }
      for (int i = half; i < values.length; i++) {
        out[w++] = values[i];
      }
      values = Arrays.copyOf(out, w);
      layout++;
    }

    @Override
    public Signal signal() {
      return Signal.BUSY;
    }

    @Override
    public String scope() {
      return "task:a/0";
    }

    @Override
    public int size() {
      return values.length;
    }

    @Override
    public long timeMs(int i) {
      return clock; // unused by the cache
    }

    @Override
    public double value(int i) {
      return values[i];
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
