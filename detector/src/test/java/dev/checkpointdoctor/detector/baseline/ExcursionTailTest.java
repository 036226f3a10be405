package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The tail holds only the bins its observations reached, and answers exactly as the histogram of
 * all 41 bins it was (a plain copy of that algorithm below), snapshots included.
 */
class ExcursionTailTest {

  /** The tail with every bin allocated up front: the model. */
  private static final class AllBins {
    final float[] weight = new float[41];
    final double decay;
    float total;
    float unit = 1;

    AllBins(int memory) {
      decay = 1 - 1.0 / memory;
      total = memory;
    }

    void add(double d) {
      unit /= (float) decay;
      total += unit;
      if (d > 1 && Double.isFinite(d)) {
        int bin = (int) Math.min(40, Math.floor(Math.log(d) / Math.log(2) * 4));
        weight[bin] += unit;
      }
      if (unit > 1e30f) {
        for (int i = 0; i < 41; i++) {
          weight[i] /= unit;
        }
        total /= unit;
        unit = 1;
      }
    }

    /** What a snapshot does: weights relative to a new observation. */
    void asWritten() {
      for (int i = 0; i < 41; i++) {
        weight[i] /= unit;
      }
      total /= unit;
      unit = 1;
    }

    double beyond(double p, double floor) {
      double allowed = p * total;
      double above = 0;
      int edge = 41;
      while (edge > 0 && above + weight[edge - 1] <= allowed) {
        above += weight[edge - 1];
        edge--;
      }
      return Math.max(Math.pow(2, edge / 4.0), floor);
    }
  }

  @Test
  void answersAsTheFullHistogramThroughRescalesAndSnapshots() throws IOException {
    Random r = new Random(3);
    for (int run = 0; run < 20; run++) {
      ExcursionTail tail = ExcursionTail.of(50);
      AllBins model = new AllBins(50);
      double reach = run % 4 == 0 ? 1.5 : Math.pow(2, r.nextInt(12)); // some runs stay near
      for (int i = 0; i < 30_000; i++) { // 1 / decay^n passes 1e30 every ~3,400 observations
        double d = r.nextInt(10) == 0 ? 1 + r.nextDouble() * reach : r.nextDouble();
        if (i % 1000 == 999) {
          d = Double.POSITIVE_INFINITY;
        }
        tail.addToTail(d);
        model.add(d);
        if (i % 500 == 0) {
          tail = roundTrip(tail, 50);
          model.asWritten();
        }
        for (double p : new double[] {0.001, 0.01, 0.1, 0.5}) {
          assertThat(tail.tailBeyond(p, 2.0)).as("run %d step %d share %s", run, i, p)
              .isEqualTo(model.beyond(p, 2.0));
          assertThat(tail.tailBeyond(p, 0.0)).isEqualTo(model.beyond(p, 0.0));
        }
      }
    }
  }

  @Test
  void growsEveryWeightBitForBitAsTheModelDividesWhateverTheMemory() throws IOException {
    // the tail multiplies by the reciprocal of the decay where the model divides by it
    Random r = new Random(17);
    for (int memory : new int[] {2, 3, 7, 50, 999, OpeningRule.RATE_MEMORY, 4_096, 1_000_003}) {
      ExcursionTail tail = ExcursionTail.of(memory);
      AllBins model = new AllBins(memory);
      for (int i = 0; i < 20_000; i++) {
        double d = r.nextInt(4) == 0 ? 1 + r.nextDouble() * 100 : r.nextDouble();
        tail.addToTail(d);
        model.add(d);
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      tail.writeTailTo(new DataOutputStream(bytes));
      model.asWritten();
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(expected);
      out.writeInt(Math.min(memory, 20_000));
      out.writeFloat(model.total);
      for (float w : model.weight) {
        out.writeFloat(w);
      }
      assertThat(bytes.toByteArray()).as("memory %d", memory).isEqualTo(expected.toByteArray());
    }
  }

  @Test
  void aScopeThatNeverLeftItsBandHoldsNoBinsAndTheFurthestBinBoundsTheRest() throws IOException {
    ExcursionTail tail = ExcursionTail.of(1000);
    for (int i = 0; i < 5_000; i++) {
      tail.addToTail(0.5);
    }
    assertThat(tail.tailBinsHeld()).isZero();
    assertThat(tail.tailBeyond(0.001, 2.0)).isEqualTo(2.0);
    assertThat(roundTrip(tail, 1000).tailBinsHeld()).isZero();
    tail.addToTail(3.0); // log2(3) * 4 = 6.3: bin 6
    assertThat(tail.tailBinsHeld()).isEqualTo(7);
    tail.addToTail(1.1);
    assertThat(tail.tailBinsHeld()).isEqualTo(7);
    assertThat(roundTrip(tail, 1000).tailBinsHeld()).isEqualTo(7);
  }

  private static ExcursionTail roundTrip(ExcursionTail t, int memory) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    t.writeTailTo(new DataOutputStream(bytes));
    ExcursionTail back = ExcursionTail.readFrom(
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), memory);
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    back.writeTailTo(new DataOutputStream(again));
    assertThat(again.toByteArray()).isEqualTo(bytes.toByteArray());
    return back;
  }
}
