package dev.checkpointdoctor.detector.trend;

/**
 * A few ranks of the pair slopes {@code (y[b] - y[a]) / (x[b] - x[a])}, {@code a < b}, {@code
 * x[a] != x[b]}, without storing all of them: a sample of pair slopes gives two pivots that most
 * likely enclose the wanted ranks, one pass over the pairs counts the slopes below the low pivot
 * and keeps only those between the pivots, and the ranks are selected among those. Writing all
 * 11,175 slopes of 150 points and partitioning them (with a mispredicted branch per slope) was
 * most of the trend test's CPU; here the pass stores every slope at the same place and only
 * advances past it when it is kept, so there is nothing to mispredict.
 *
 * <p>The values are those a full sort of all pair slopes puts at the ranks, bit for bit (the
 * same expression computes each slope, and -0.0 sorts before 0.0): below the low pivot are only
 * values less than everything kept, above the high pivot only greater ones.
 */
final class PairSlopes {
  /**
   * Fewer points: storing and partitioning every slope costs less than sampling first (50
   * points took 1.4 times as long sampled, 150 points 0.8 times).
   */
  static final int FROM_POINTS = 100;
  private static final int SAMPLE_SIZE = 256;
  /**
   * Sample ranks added on each side of the wanted ones: a sample rank scatters by at most
   * sqrt(256 / 4) = 8 ranks, so three of those miss about once in a thousand fits (the fit is
   * then made by storing every slope, as before).
   */
  private static final int GUARD = 24;
  /** Beyond this magnitude a difference of two values could overflow and a slope be NaN. */
  private static final double LARGEST = 1e300;

  private PairSlopes() {}

  /**
   * Writes the pair slope at each of {@code ranks} (0-based positions among the {@code pairs}
   * slopes sorted ascending; ascending, no duplicates) to {@code out}.
   *
   * @param pairs the number of pairs with different x
   * @return false, with {@code out} undefined, when the caller must store and select every slope:
   *     a value not finite or too large, or the sample's pivots missed a rank
   */
  static boolean select(double[] x, double[] y, int m, int pairs, int[] ranks, int rankCount,
      double[] out) {
    if (rankCount == 0 || m < FROM_POINTS) {
      return false;
    }
    for (int i = 0; i < m; i++) {
      // also false for NaN
      if (!(Math.abs(x[i]) <= LARGEST && Math.abs(y[i]) <= LARGEST)) {
        return false;
      }
    }
    double[] sample = new double[SAMPLE_SIZE];
    int s = 0;
    // a fixed sequence: which pairs are sampled changes the time taken, never the result
    long state = 0x9E3779B97F4A7C15L;
    for (int tries = 0; tries < 4 * SAMPLE_SIZE && s < SAMPLE_SIZE; tries++) {
      state ^= state << 13;
      state ^= state >>> 7;
      state ^= state << 17;
      int a = (int) ((state >>> 1) % m);
      int b = (int) ((state >>> 33) % m);
      if (a > b) {
        int t = a;
        a = b;
        b = t;
      }
      double dx = x[b] - x[a];
      if (dx != 0) {
        sample[s++] = (y[b] - y[a]) / dx;
      }
    }
    if (s < SAMPLE_SIZE / 2) {
      return false; // mostly equal x: few pairs, or a sample that cannot bracket them
    }
    java.util.Arrays.sort(sample, 0, s);
    int first = ranks[0];
    int last = ranks[rankCount - 1];
    int low = (int) ((long) first * s / pairs) - GUARD;
    int high = (int) ((long) last * s / pairs) + GUARD;
    double lowPivot = low < 0 ? Double.NEGATIVE_INFINITY : sample[low];
    double highPivot = high >= s ? Double.POSITIVE_INFINITY : sample[high];
    // kept: about the ranks' span plus twice the guard's share; room for twice that
    long expected = (long) (last - first) + (long) (2 * GUARD + 2) * pairs / s;
    int limit = (int) Math.min(pairs, 2 * expected + 64);
    double[] kept = new double[limit + m];
    int below = 0;
    int n = 0;
    for (int a = 0; a < m; a++) {
      double xa = x[a];
      double ya = y[a];
      for (int b = a + 1; b < m; b++) {
        double dx = x[b] - xa;
        double slope = (y[b] - ya) / dx;
        boolean pair = dx != 0;
        below += pair & slope < lowPivot ? 1 : 0;
        kept[n] = slope;
        n += pair & slope >= lowPivot & slope <= highPivot ? 1 : 0;
      }
      if (n > limit) {
        return false;
      }
    }
    if (first < below || last >= below + n) {
      return false;
    }
    int[] local = new int[rankCount];
    for (int i = 0; i < rankCount; i++) {
      local[i] = ranks[i] - below;
    }
    OrderStatistics.place(kept, 0, n, local, rankCount);
    for (int i = 0; i < rankCount; i++) {
      out[i] = kept[local[i]];
    }
    return true;
  }
}
