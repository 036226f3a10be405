package dev.checkpointdoctor.detector.trend;

/**
 * A few ranks of the pair slopes {@code (y[b] - y[a]) / (x[b] - x[a])}, {@code a < b}, {@code
 * x[a] != x[b]}, without storing and partitioning all of them (11,175 for 150 points, with a
 * mispredicted branch per slope: most of the trend test's CPU). A sample of pair slopes gives two
 * pivots that most likely enclose the wanted ranks. With x strictly ascending (times without
 * repeats) the slopes below the low pivot are counted and those between the pivots listed as
 * inversions of two merge sorts, and only the listed ones are computed ({@link #byInversions});
 * otherwise one branch-free pass over every pair counts those below and keeps those between.
 * The ranks are then selected among the kept slopes.
 *
 * <p>The values are those a full sort of all pair slopes puts at the ranks, bit for bit (the
 * same expression computes each slope, and -0.0 sorts before 0.0): everything counted below is
 * less than everything kept, everything dropped above greater.
 */
final class PairSlopes {
  /**
   * Fewer points: storing and partitioning every slope costs less than sampling first (thread
   * CPU per fit against main's: 50 points 1.3 times as long, 70 points about the same, 150
   * points a half to two thirds).
   */
  static final int FROM_POINTS = 70;
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
    if (Double.isFinite(lowPivot) && Double.isFinite(highPivot)
        && byInversions(x, y, m, pairs, ranks, rankCount, out, lowPivot, highPivot, limit)) {
      return true;
    }
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
  /**
   * The same selection without computing every slope (Matoušek's idea): with x strictly
   * ascending, pair {@code a < b} has slope below {@code t} exactly when {@code y[b] - t x[b] <
   * y[a] - t x[a]}, so the pairs below a pivot are the inversions of the points' keys at that
   * pivot, counted by a merge sort, and the pairs between two pivots are the inversions of the
   * keys at the high pivot taken in the order of the keys at the low one, listed by a second
   * merge sort. Rounding makes a key comparison disagree with the computed slope only for slopes
   * within a bound of the pivot (from the largest values and the closest x), so the pivots are
   * moved out by four times that bound and only the slopes listed between them are computed and
   * compared with the sampled pivots themselves.
   *
   * @return false when the points or the bound do not allow it, or too many pairs lie between
   */
  private static boolean byInversions(double[] x, double[] y, int m, int pairs, int[] ranks,
      int rankCount, double[] out, double lowPivot, double highPivot, int limit) {
    if (pairs != m * (m - 1) / 2) {
      return false; // equal x: their pairs would count as inversions of y
    }
    double largestX = 0;
    double largestY = 0;
    double closest = Double.POSITIVE_INFINITY;
    for (int i = 0; i < m; i++) {
      largestX = Math.max(largestX, Math.abs(x[i]));
      largestY = Math.max(largestY, Math.abs(y[i]));
      if (i > 0) {
        double d = x[i] - x[i - 1];
        if (!(d > 0)) {
          return false; // not ascending
        }
        closest = Math.min(closest, d);
      }
    }
    double pivot = Math.max(Math.abs(lowPivot), Math.abs(highPivot));
    double bound = 2 * pivot + 1; // bounds the moved pivots once the margin is below pivot + 1
    double u = 0x1p-53;
    // a key y - t x is off by u (|y| + 2 |t x|) at most, a comparison of two by twice that, which
    // moves a slope by that over the pair's x distance; a computed slope is off by 4u of itself
    // (at most 2 |y| / closest), or by the smallest double where a product, key or slope
    // underflows
    double error = (2.01 * u * (largestY + 2 * bound * largestX) + 8.1 * u * largestY
        + 4 * Double.MIN_NORMAL) / closest + Double.MIN_NORMAL;
    double margin = 4 * error;
    if (!(margin <= pivot + 1) || !Double.isFinite(bound * largestX + largestY)
        || !Double.isFinite(4 * largestY / closest)) { // no slope overflows
      return false;
    }
    double low = lowPivot - margin;
    double high = highPivot + margin;
    double[] keys = new double[m];
    int[] order = new int[m];
    for (int i = 0; i < m; i++) {
      keys[i] = y[i] - low * x[i];
      order[i] = i;
    }
    double[] keyBuffer = new double[m];
    int[] orderBuffer = new int[m];
    // stable: equal keys stay in index order, so a pair listed later is in index order unless
    // its slope is below the low pivot
    long below = Inversions.sort(keys, order, keyBuffer, orderBuffer, m, null);
    for (int i = 0; i < m; i++) {
      keys[i] = y[order[i]] - high * x[order[i]];
    }
    Inversions.Between between = new Inversions.Between(x, y, lowPivot, highPivot, limit + m);
    Inversions.sort(keys, order, keyBuffer, orderBuffer, m, between);
    if (!between.consistent || between.n > limit) {
      return false;
    }
    long start = below + between.below;
    if (ranks[0] < start || ranks[rankCount - 1] >= start + between.n) {
      return false;
    }
    int[] local = new int[rankCount];
    for (int i = 0; i < rankCount; i++) {
      local[i] = (int) (ranks[i] - start);
    }
    OrderStatistics.place(between.kept, 0, between.n, local, rankCount);
    for (int i = 0; i < rankCount; i++) {
      out[i] = between.kept[local[i]];
    }
    return true;
  }
}
