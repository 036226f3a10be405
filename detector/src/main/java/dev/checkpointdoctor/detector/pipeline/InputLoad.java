package dev.checkpointdoctor.detector.pipeline;

import java.util.Arrays;

/**
 * How much more input a subtask has than its baseline expects: the factor its busy time may rise
 * by and still be load rather than a bottleneck. A subtask's busy time follows its records in; on
 * the morning ramp of a daily cycle both climb above bands learned at the night's level.
 *
 * <p>The factor is the lesser of the subtask's own ratio (records in now over the records-in
 * baseline's expected value) and its task's lower-median ratio: a rise of the whole task's input
 * is load, while a subtask that alone receives more (a hot key) is judged as before. It is 1
 * unless it exceeds {@code 1 + relativeFloor}: input within its band's noise explains nothing.
 */
final class InputLoad {
  /** No load to allow for. */
  static final double NONE = 1;

  private InputLoad() {}

  /**
   * The records-in ratio of a subtask: {@code recent / expected}, NaN when either is unknown or
   * the expected rate is not positive (a stopped source has no level to compare with).
   */
  static double ratio(double recent, double expected) {
    if (!(expected > 0) || !(recent >= 0) || Double.isInfinite(recent)
        || Double.isInfinite(expected)) {
      return Double.NaN;
    }
    return recent / expected;
  }

  /**
   * The lower median of the finite ratios among {@code ratios[0..n)}: of two middle values the
   * lesser, so half of the task at least has risen by it. NaN when none is finite. Reorders
   * {@code ratios[0..n)} (the caller's scratch): it runs after every records-in observation of
   * the task, on the detector thread, and allocates nothing.
   */
  static double lowerMedian(double[] ratios, int n) {
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (Double.isFinite(ratios[i])) {
        ratios[k++] = ratios[i];
      }
    }
    if (k == 0) {
      return Double.NaN;
    }
    Arrays.sort(ratios, 0, k);
    return ratios[(k - 1) / 2];
  }

  /**
   * The load factor: {@code min(own, task)} when that exceeds {@code 1 + relativeFloor}, else
   * {@link #NONE}; never below 1, and {@link #NONE} when either ratio is unknown.
   */
  static double factor(double own, double task, double relativeFloor) {
    double f = Math.min(own, task);
    return f > 1 + relativeFloor ? f : NONE; // NaN compares false
  }
}
