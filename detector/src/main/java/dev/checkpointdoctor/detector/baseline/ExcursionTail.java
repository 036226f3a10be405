package dev.checkpointdoctor.detector.baseline;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * How far a scope's observations stray beyond its band, as a decaying histogram of {@code d =
 * |value - expected| / halfWidth} for the observations outside the band ({@code d > 1}), in bins a
 * quarter-octave wide from 1 to 1024 band half-widths. It answers "how far out does this scope go
 * once in {@code 1/p} observations", which makes "far out" a property of the scope: twice the band
 * for a calm one, much further for a subtask whose in-flight data has a heavy tail.
 *
 * <p>Every observation (inside or out) weighs 1 when it arrives and decays by {@code 1 - 1 /
 * memory} per later observation; the total starts at {@code memory} observations inside the
 * band, so a young scope is taken to be calm. 41 floats per tracker. Not thread-safe.
 */
final class ExcursionTail {
  private static final int BINS_PER_OCTAVE = 4;
  private static final int BINS = 10 * BINS_PER_OCTAVE + 1; // d up to 2^10, the last one open
  /** Rescale the weights before they overflow a float (new weights grow as 1 / decay^n). */
  private static final float RESCALE_ABOVE = 1e30f;

  private final double decay;
  private final int memory;
  private final float[] weight = new float[BINS]; // of d in [2^(i/4), 2^((i+1)/4))
  private float total; // of every observation, inside included
  private float unit = 1; // what a new observation weighs, relative to the stored weights
  private int seen; // observations counted, saturating at the memory

  ExcursionTail(int memory) {
    this.memory = memory;
    this.decay = 1 - 1.0 / memory;
    this.total = memory;
  }

  /** Counts one observation; {@code d <= 1} (inside the band) only adds to the total. */
  void add(double d) {
    if (seen < memory) {
      seen++;
    }
    unit /= (float) decay;
    total += unit;
    if (d > 1 && Double.isFinite(d)) {
      int bin = (int) Math.min(BINS - 1,
          Math.floor(Math.log(d) / Math.log(2) * BINS_PER_OCTAVE));
      weight[bin] += unit;
    }
    if (unit > RESCALE_ABOVE) {
      for (int i = 0; i < BINS; i++) {
        weight[i] /= unit;
      }
      total /= unit;
      unit = 1;
    }
  }

  /**
   * The smallest bin edge {@code 2^(i/4) >= floor} beyond which at most a share {@code p} of the
   * observations went: how far out counts as rare here.
   */
  double beyond(double p, double floor) {
    double allowed = p * total;
    double above = 0;
    // walk down from the top while the weight above the edge stays within the allowed share
    int edge = BINS;
    while (edge > 0 && above + weight[edge - 1] <= allowed) {
      above += weight[edge - 1];
      edge--;
    }
    double d = Math.pow(2, (double) edge / BINS_PER_OCTAVE);
    return Math.max(d, floor);
  }

  /** Observations counted so far, at most the memory. */
  int seen() {
    return seen;
  }

  // ---------------------------------------------------------------- snapshot

  void writeTo(DataOutput out) throws IOException {
    // weights relative to a new observation, so a reader starts with unit 1
    out.writeInt(seen);
    out.writeFloat(total / unit);
    for (float w : weight) {
      out.writeFloat(w / unit);
    }
  }

  static ExcursionTail readFrom(DataInput in, int memory) throws IOException {
    ExcursionTail t = new ExcursionTail(memory);
    t.seen = in.readInt();
    if (t.seen < 0 || t.seen > memory) {
      throw new IOException("excursion tail snapshot has seen " + t.seen + " observations");
    }
    t.total = in.readFloat();
    float sum = 0;
    for (int i = 0; i < BINS; i++) {
      t.weight[i] = in.readFloat();
      if (!(t.weight[i] >= 0) || !Float.isFinite(t.weight[i])) {
        throw new IOException("excursion tail snapshot has an invalid weight");
      }
      sum += t.weight[i];
    }
    if (!(t.total >= sum * 0.999f) || !Float.isFinite(t.total)) {
      throw new IOException("excursion tail snapshot weighs less in total than its tail");
    }
    return t;
  }

  @Override
  public String toString() {
    return "ExcursionTail" + Arrays.toString(weight) + " of " + total;
  }
}
