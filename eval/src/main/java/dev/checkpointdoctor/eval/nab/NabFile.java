package dev.checkpointdoctor.eval.nab;

import java.util.List;

/**
 * One data file as the scorer sees it: a detector's anomaly score per row and the label windows
 * as inclusive row ranges.
 *
 * @param name {@code <category>/<file>.csv}, as in NAB's labels
 */
public record NabFile(String name, double[] scores, List<Window> windows) {

  /** Inclusive row range of one anomaly window. */
  public record Window(int left, int right) {
    public Window {
      if (left < 0 || right < left) {
        throw new IllegalArgumentException("bad window [" + left + ", " + right + "]");
      }
    }

    int width() {
      return right - left + 1;
    }
  }

  public NabFile {
    windows = List.copyOf(windows);
    int previousRight = -1;
    for (Window w : windows) {
      if (w.left() <= previousRight || w.right() >= scores.length) {
        throw new IllegalArgumentException(name + ": windows overlap, are unsorted or past the end");
      }
      previousRight = w.right();
    }
  }

  /** {@code <category>} of {@link #name()}. */
  public String category() {
    int slash = name.indexOf('/');
    return slash < 0 ? "" : name.substring(0, slash);
  }

  /**
   * Rows NAB ignores at the start: {@code min(floor(0.15 n), 0.15 x 5000)}; the detector may
   * learn from them but they are neither rewarded nor penalised.
   */
  public int probation() {
    return (int) Math.min(Math.floor(0.15 * scores.length), 0.15 * 5000);
  }
}
