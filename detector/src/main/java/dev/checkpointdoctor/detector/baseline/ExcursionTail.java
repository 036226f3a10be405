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
 * band, so a young scope is taken to be calm. At most 41 floats per tracker: the bins up to the
 * furthest one an observation reached (none for a scope that never left its band, as most do
 * not for long stretches; bins it did not reach weigh 0). Not thread-safe.
 *
 * <p>{@link OpeningRule} extends it rather than holding one: every tracked series has a rule, and
 * the tail as an object of its own cost a header and a reference (16 bytes a series). The
 * methods are named for the tail so that they read as such on the rule.
 */
abstract class ExcursionTail {
  private static final int BINS_PER_OCTAVE = 4;
  private static final int BINS = 10 * BINS_PER_OCTAVE + 1; // d up to 2^10, the last one open
  /** Rescale the weights before they overflow a float (new weights grow as 1 / decay^n). */
  private static final float RESCALE_ABOVE = 1e30f;

  private static final float[] NONE = new float[0];

  // of d in [2^(i/4), 2^((i+1)/4)); bins from weight.length on weigh 0
  private float[] weight = NONE;
  private float total; // of every observation, inside included
  private float unit = 1; // what a new observation weighs, relative to the stored weights
  private int seen; // observations counted, saturating at the memory

  /** A tail of this memory, {@link #decay()}'s. */
  ExcursionTail(int memory) {
    this.total = memory;
  }

  /** A tail of its own (an opening rule is one of a fixed memory). */
  static ExcursionTail of(int memory) {
    return new OfMemory(memory);
  }

  /**
   * The decay of this tail's memory: a method rather than a field, so that every opening rule,
   * whose memory is fixed, holds no reference to it (4 bytes per tracked series).
   */
  abstract Decay decay();

  private static final class OfMemory extends ExcursionTail {
    private final Decay decay;

    OfMemory(int memory) {
      super(memory);
      this.decay = Decay.of(memory);
    }

    @Override
    Decay decay() {
      return decay;
    }
  }

  /** Counts one observation; {@code d <= 1} (inside the band) only adds to the total. */
  void addToTail(double d) {
    Decay decay = decay();
    if (seen < decay.memory) {
      seen++;
    }
    unit = (float) (unit * decay.growth); // unit / (float) (1 - 1.0 / memory), bit for bit
    total += unit;
    if (d > 1 && Double.isFinite(d)) {
      int bin = (int) Math.min(BINS - 1,
          Math.floor(Math.log(d) / Math.log(2) * BINS_PER_OCTAVE));
      if (bin >= weight.length) {
        weight = Arrays.copyOf(weight, bin + 1);
      }
      weight[bin] += unit;
    }
    if (unit > RESCALE_ABOVE) {
      for (int i = 0; i < weight.length; i++) {
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
  double tailBeyond(double p, double floor) {
    double allowed = p * total;
    double above = 0;
    // walk down from the top while the weight above the edge stays within the allowed share
    int edge = BINS;
    while (edge > 0 && above + weightOf(edge - 1) <= allowed) {
      above += weightOf(edge - 1);
      edge--;
    }
    double d = Math.pow(2, (double) edge / BINS_PER_OCTAVE);
    return Math.max(d, floor);
  }

  private float weightOf(int bin) {
    return bin < weight.length ? weight[bin] : 0f;
  }

  /** Bins held: for tests. */
  int tailBinsHeld() {
    return weight.length;
  }

  /** Observations counted so far, at most the memory. */
  int tailSeen() {
    return seen;
  }

  // ---------------------------------------------------------------- snapshot

  void writeTailTo(DataOutput out) throws IOException {
    // weights relative to a new observation, so a reader starts with unit 1
    out.writeInt(seen);
    out.writeFloat(total / unit);
    for (int i = 0; i < BINS; i++) {
      out.writeFloat(weightOf(i) / unit);
    }
  }

  static ExcursionTail readFrom(DataInput in, int memory) throws IOException {
    ExcursionTail t = of(memory);
    t.readTailFrom(in);
    return t;
  }

  /** Takes over {@code other}'s tail, of the same memory: other is not used after. */
  void copyTailFrom(ExcursionTail other) {
    seen = other.seen;
    total = other.total;
    unit = other.unit;
    weight = other.weight;
  }

  /** Replaces this tail by what {@link #writeTailTo} wrote, of a tail of the same memory. */
  void readTailFrom(DataInput in) throws IOException {
    int seenRead = in.readInt();
    if (seenRead < 0 || seenRead > decay().memory) {
      throw new IOException("excursion tail snapshot has seen " + seenRead + " observations");
    }
    float totalRead = in.readFloat();
    float sum = 0;
    float[] w = new float[BINS];
    int held = 0;
    for (int i = 0; i < BINS; i++) {
      w[i] = in.readFloat();
      if (!(w[i] >= 0) || !Float.isFinite(w[i])) {
        throw new IOException("excursion tail snapshot has an invalid weight");
      }
      sum += w[i];
      if (Float.floatToRawIntBits(w[i]) != 0) { // -0.0 too: read back as written
        held = i + 1;
      }
    }
    if (!(totalRead >= sum * 0.999f) || !Float.isFinite(totalRead)) {
      throw new IOException("excursion tail snapshot weighs less in total than its tail");
    }
    seen = seenRead;
    total = totalRead;
    unit = 1;
    weight = held == 0 ? NONE : Arrays.copyOf(w, held);
  }

  /**
   * The decay of one memory, {@code 1 - 1 / memory} as a float, and its reciprocal as a double,
   * so an observation multiplies where it divided twice. For floats {@code x} and {@code c},
   * {@code (float) (x * (1.0 / c))} is exactly the float quotient {@code x / c}: the double
   * product is within 2^-52 (relative) of the true quotient, and the true quotient is never
   * within 2^-49 of a point halfway between two floats (it would take {@code x = c * m} for such
   * an {@code m}, of 25 significant bits, to 48-bit precision), so both round to the same float;
   * for a power of two both are exact.
   */
  static final class Decay {
    /** The last one made: every tracker of a detector has the same memory. */
    private static volatile Decay last;

    final int memory;
    final double growth;

    private Decay(int memory) {
      this.memory = memory;
      this.growth = 1.0 / (float) (1 - 1.0 / memory);
    }

    static Decay of(int memory) {
      Decay d = last;
      if (d == null || d.memory != memory) {
        d = new Decay(memory);
        last = d;
      }
      return d;
    }
  }

  /** The tail's bins and total, for test messages. */
  String tailText() {
    float[] all = Arrays.copyOf(weight, BINS);
    return "ExcursionTail" + Arrays.toString(all) + " of " + total;
  }
}
