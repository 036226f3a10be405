package dev.checkpointdoctor.eval.nab;

/**
 * What a detection on each scored row of one file is worth under one profile: positive inside a
 * window (earlier is worth more), negative outside (less so just after a window).
 */
final class RowWeights {
  static final int OUTSIDE = -1;

  final int first; // first scored row (end of the probationary period)
  final double[] weight; // per row from first on
  final int[] window; // index into the file's windows, or OUTSIDE

  private RowWeights(int first, int rows) {
    this.first = first;
    this.weight = new double[rows - first];
    this.window = new int[rows - first];
  }

  /** NAB's scaled sigmoid: {@code 2 / (1 + e^(5y)) - 1}, pinned to -1 beyond 3. */
  static double sigmoid(double y) {
    if (y > 3) {
      return -1;
    }
    return 2 / (1 + Math.exp(5 * y)) - 1;
  }

  static RowWeights of(NabFile file, NabProfile profile) {
    int n = file.scores().length;
    RowWeights rw = new RowWeights(Math.min(file.probation(), n), n);
    double topOfWindow = sigmoid(-1);
    int next = 0; // first window whose right edge is not yet behind row i
    for (int i = rw.first; i < n; i++) {
      while (next < file.windows().size() && file.windows().get(next).right() < i) {
        next++;
      }
      int k = i - rw.first;
      NabFile.Window w = next < file.windows().size() ? file.windows().get(next) : null;
      if (w != null && i >= w.left()) {
        double y = -(w.right() - i + 1) / (double) w.width();
        rw.weight[k] = profile.tp() * sigmoid(y) / topOfWindow;
        rw.window[k] = next;
      } else if (next == 0) {
        rw.weight[k] = -profile.fp(); // before any window
        rw.window[k] = OUTSIDE;
      } else {
        NabFile.Window before = file.windows().get(next - 1);
        // a one-row window divides by zero: +inf, the full cost, as in NAB
        double y = Math.abs(i - before.right()) / (double) (before.width() - 1);
        rw.weight[k] = profile.fp() * sigmoid(y);
        rw.window[k] = OUTSIDE;
      }
    }
    return rw;
  }

  /** Windows that have at least one scored row; the others count for nothing. */
  static boolean scored(NabFile.Window w, int first) {
    return w.right() >= first;
  }
}
