package dev.checkpointdoctor.eval.nab;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * NAB v1.1 scoring, written from the rules in NAB's README (see {@code docs/ACCURACY.md}): per-row
 * sigmoid weights relative to the label windows, one threshold per profile for the whole corpus
 * found by an exhaustive sweep, and normalisation between the null detector (0) and a perfect one
 * (100). Pure: no I/O.
 */
public final class NabScorer {
  /** Above every anomaly score: the "detect nothing" threshold the sweep starts from. */
  public static final double NO_DETECTIONS = 1.1;

  private static final double TIE = 1e-9;

  private NabScorer() {}

  /** One file at one threshold; counts are windows and rows, as NAB reports them. */
  public record FileScore(
      String name, double raw, int windows, int detectedWindows, int falsePositiveRows) {

    public String category() {
      int slash = name.indexOf('/');
      return slash < 0 ? "" : name.substring(0, slash);
    }
  }

  /** Several files summed: the corpus or one category. */
  public record Total(double raw, int windows, int detectedWindows, int falsePositiveRows) {
    /** 100 x (raw - null) / (perfect - null); NaN without windows (no perfect detector). */
    public double normalised(NabProfile p) {
      return normalise(raw, windows, p);
    }

    static Total of(List<FileScore> files) {
      double raw = 0;
      int w = 0;
      int d = 0;
      int fp = 0;
      for (FileScore f : files) {
        raw += f.raw();
        w += f.windows();
        d += f.detectedWindows();
        fp += f.falsePositiveRows();
      }
      return new Total(raw, w, d, fp);
    }
  }

  /** The corpus at the profile's best threshold. */
  public record Result(NabProfile profile, double threshold, List<FileScore> files) {
    public Total total() {
      return Total.of(files);
    }

    public double normalised() {
      return total().normalised(profile);
    }

    /** Per category, in the order the files came. */
    public Map<String, Total> byCategory() {
      Map<String, List<FileScore>> groups = new LinkedHashMap<>();
      for (FileScore f : files) {
        groups.computeIfAbsent(f.category(), c -> new ArrayList<>()).add(f);
      }
      Map<String, Total> out = new LinkedHashMap<>();
      groups.forEach((c, fs) -> out.put(c, Total.of(fs)));
      return out;
    }
  }

  /**
   * The null detector never detects (its best threshold), so it loses A_FN per window; a perfect
   * one detects every window on its first row and nothing else.
   */
  public static double normalise(double raw, int windows, NabProfile p) {
    double perfect = p.tp() * windows;
    double none = -p.fn() * windows;
    return windows == 0 ? Double.NaN : 100 * (raw - none) / (perfect - none);
  }

  /** Scores the corpus at the threshold that maximises its raw score under {@code profile}. */
  public static Result score(List<NabFile> files, NabProfile profile) {
    double threshold = bestThreshold(files, profile);
    List<FileScore> scores = new ArrayList<>(files.size());
    for (NabFile f : files) {
      scores.add(scoreFile(f, profile, threshold));
    }
    return new Result(profile, threshold, List.copyOf(scores));
  }

  /** One file at a given threshold: a row with {@code score >= threshold} is a detection. */
  public static FileScore scoreFile(NabFile file, NabProfile profile, double threshold) {
    RowWeights rw = RowWeights.of(file, profile);
    double[] best = new double[file.windows().size()];
    boolean[] hit = new boolean[best.length];
    double raw = 0;
    int fpRows = 0;
    for (int k = 0; k < rw.weight.length; k++) {
      if (!(file.scores()[rw.first + k] >= threshold)) {
        continue;
      }
      int w = rw.window[k];
      if (w == RowWeights.OUTSIDE) {
        raw += rw.weight[k];
        fpRows++;
      } else if (!hit[w] || rw.weight[k] > best[w]) {
        hit[w] = true;
        best[w] = rw.weight[k];
      }
    }
    int windows = 0;
    int detected = 0;
    for (int w = 0; w < best.length; w++) {
      if (!RowWeights.scored(file.windows().get(w), rw.first)) {
        continue;
      }
      windows++;
      detected += hit[w] ? 1 : 0;
      raw += hit[w] ? best[w] : -profile.fn();
    }
    return new FileScore(file.name(), raw, windows, detected, fpRows);
  }

  /**
   * Exhaustive sweep: lowers the threshold through every distinct score of the pooled scored rows
   * (highest first), updating the corpus raw score incrementally; the first maximum wins, so ties
   * go to the highest threshold, starting with {@link #NO_DETECTIONS}.
   */
  static double bestThreshold(List<NabFile> files, NabProfile profile) {
    List<RowWeights> weights = new ArrayList<>(files.size());
    int rows = 0;
    int[] windowBase = new int[files.size()];
    int windows = 0;
    double raw = 0;
    for (int f = 0; f < files.size(); f++) {
      RowWeights rw = RowWeights.of(files.get(f), profile);
      weights.add(rw);
      for (int k = 0; k < rw.weight.length; k++) {
        rows += Double.isNaN(files.get(f).scores()[rw.first + k]) ? 0 : 1; // never a detection
      }
      windowBase[f] = windows;
      windows += files.get(f).windows().size();
      for (NabFile.Window w : files.get(f).windows()) {
        raw -= RowWeights.scored(w, rw.first) ? profile.fn() : 0;
      }
    }
    // pooled rows, sorted by score descending: (score, file, row) packed into parallel arrays
    double[] score = new double[rows];
    double[] weight = new double[rows];
    int[] window = new int[rows];
    int r = 0;
    for (int f = 0; f < files.size(); f++) {
      RowWeights rw = weights.get(f);
      double[] s = files.get(f).scores();
      for (int k = 0; k < rw.weight.length; k++) {
        if (Double.isNaN(s[rw.first + k])) {
          continue;
        }
        score[r] = s[rw.first + k];
        weight[r] = rw.weight[k];
        window[r] = rw.window[k] == RowWeights.OUTSIDE ? -1 : windowBase[f] + rw.window[k];
        r++;
      }
    }
    Integer[] order = new Integer[rows];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> Double.compare(score[b], score[a]));

    double[] best = new double[windows];
    boolean[] hit = new boolean[windows];
    double bestRaw = raw;
    double bestThreshold = NO_DETECTIONS;
    int i = 0;
    while (i < rows) {
      double theta = score[order[i]];
      for (; i < rows && score[order[i]] == theta; i++) {
        int row = order[i];
        int w = window[row];
        if (w < 0) {
          raw += weight[row];
        } else if (!hit[w]) {
          hit[w] = true;
          best[w] = weight[row];
          raw += weight[row] + profile.fn();
        } else if (weight[row] > best[w]) {
          raw += weight[row] - best[w];
          best[w] = weight[row];
        }
      }
      // the margin keeps summation noise from breaking a tie in favour of the lower threshold
      if (theta < NO_DETECTIONS && raw > bestRaw + TIE) {
        bestRaw = raw;
        bestThreshold = theta;
      }
    }
    return bestThreshold;
  }
}
