package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code query_range} answer laid on its grid: per series its labels and one value per
 * evaluation time, {@link #ABSENT} where the series had none (no sample within the server's
 * lookback, or a stale marker). Values are kept in primitive arrays: a slice of a big job holds a
 * million points.
 */
final class Matrix {
  /** A NaN with a payload no answer produces: "no value here" (a real NaN is a value). */
  static final long ABSENT_BITS = 0x7ff8_0000_dead_0001L;
  static final double ABSENT = Double.longBitsToDouble(ABSENT_BITS);

  private final Grid grid;
  private final List<Labels> labels = new ArrayList<>();
  private final List<double[]> values = new ArrayList<>();
  private long present;

  Matrix(Grid grid) {
    this.grid = grid;
  }

  Grid grid() {
    return grid;
  }

  int size() {
    return labels.size();
  }

  Labels labels(int series) {
    return labels.get(series);
  }

  double[] values(int series) {
    return values.get(series);
  }

  /** Values that are not {@link #ABSENT}, over all series. */
  long presentPoints() {
    return present;
  }

  static boolean absent(double v) {
    return Double.doubleToRawLongBits(v) == ABSENT_BITS;
  }

  /** A fresh row, all absent, to fill and then {@link #add}. */
  double[] newRow() {
    double[] row = new double[grid.points()];
    java.util.Arrays.fill(row, ABSENT);
    return row;
  }

  void add(Labels l, double[] row, long presentPoints) {
    labels.add(l);
    values.add(row);
    present += presentPoints;
  }
}
