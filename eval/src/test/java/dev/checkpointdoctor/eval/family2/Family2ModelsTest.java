package dev.checkpointdoctor.eval.family2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The physical models behave as the documents they were written from say. */
class Family2ModelsTest {

  @Test
  void aGp2VolumeBurstsToThreeThousandUntilItsCreditsRunOutThenServesItsBaseline() {
    DiskVolume gp2 = new DiskVolume(DiskVolume.Kind.GP2, "nvme1n1", 100, 0, 0);
    assertThat(gp2.baselineIops).isEqualTo(300);
    double seconds = 0;
    while (gp2.credits() > 0) {
      double served = gp2.serve(0, 5000, 0, 5000 * 16384.0, 1, 0);
      assertThat(gp2.servedIops).isCloseTo(3000, within(1.0));
      assertThat(served).isLessThan(1);
      seconds++;
    }
    // AWS: 5.4 M credits at 3,000 - 300 IOPS net last 2,000 s
    assertThat(seconds).isCloseTo(2000, within(2.0));
    for (int i = 0; i < 60; i++) {
      gp2.serve(0, 5000, 0, 5000 * 16384.0, 1, 0);
      assertThat(gp2.servedIops).isCloseTo(300, within(1.0));
    }
    double busyBefore = gp2.ioTimeS;
    gp2.serve(0, 5000, 0, 5000 * 16384.0, 1, 0);
    assertThat(gp2.ioTimeS - busyBefore).as("busy the whole second").isCloseTo(1, within(1e-9));
    DiskVolume gp3 = new DiskVolume(DiskVolume.Kind.GP3, "nvme1n1", 100, 3000, 0);
    assertThat(gp3.bursts()).isFalse();
    gp3.serve(0, 5000, 0, 0, 1, 0);
    assertThat(gp3.servedIops).isCloseTo(3000, within(1.0));
  }

  @Test
  void cfsThrottlingRisesSmoothlyAsTheWantedCpuApproachesAndPassesTheQuota() {
    double last = -1;
    for (double wanted : new double[] {0.5, 1.0, 1.5, 2.0, 2.5, 4.0}) {
      CfsQuota q = new CfsQuota(2, 0.4, 0);
      q.step(wanted, 5);
      assertThat(q.throttledShare).isGreaterThan(last);
      assertThat(q.periods).isCloseTo(50, within(1e-9));
      last = q.throttledShare;
      assertThat(q.cpuFactor).isCloseTo(Math.min(1, 2 / wanted), within(1e-9));
    }
    CfsQuota idle = new CfsQuota(2, 0.4, 0);
    idle.step(0.5, 5);
    assertThat(idle.throttledShare).isLessThan(0.01);
    CfsQuota over = new CfsQuota(2, 0.4, 0);
    over.step(3, 5);
    assertThat(over.throttledShare).isGreaterThan(0.75);
  }

  @Test
  void gcTimeGrowsSteeplyAsTheLiveSetFillsTheHeap() {
    SplittableRandom rng = new SplittableRandom(1);
    double heap = 4e9;
    double previous = -1;
    for (double occupancy : new double[] {0.3, 0.6, 0.8, 0.9, 0.95}) {
      Jvm jvm = new Jvm(heap, Jvm.G1, 0);
      double sum = 0;
      for (int i = 0; i < 200; i++) {
        jvm.step(heap * occupancy, 100e6, 1, 5, rng);
        sum += jvm.gcMsPerSecond;
      }
      double mean = sum / 200;
      assertThat(mean).as("occupancy %s", occupancy).isGreaterThan(previous);
      previous = mean;
    }
    assertThat(previous).as("GC share with a full heap").isBetween(150.0, 700.0);
  }

  @Test
  void rocksDbDelaysThenStopsWritesWhenCompactionFallsBehind() {
    RocksInstance r = new RocksInstance(2e9, 64 * 1048576.0, 4 * 1048576.0, 2, 2, 0);
    double w = 8 * 1048576.0; // needs ~ 8 MB/s x (WA - 1) of compaction: far more than 8 MB/s
    boolean delayed = false;
    boolean stopped = false;
    for (int i = 0; i < 720 && !stopped; i++) {
      r.step(Math.min(w, r.writeCapacity), w, 1, 1, 1, 5);
      delayed |= r.delayedRate > 0;
      stopped |= r.stopped;
    }
    assertThat(delayed).as("delayed from %d L0 files", RocksInstance.SLOWDOWN_L0).isTrue();
    assertThat(r.stallMicros).isPositive();
    assertThat(r.pendingCompactionBytes()).isGreaterThan(1e9);
    RocksInstance easy = new RocksInstance(2e9, 64 * 1048576.0, 200 * 1048576.0, 2, 2, 0);
    for (int i = 0; i < 720; i++) {
      easy.step(1048576.0, 1048576.0, 1, 1, 1, 5);
      assertThat(easy.l0Files()).isLessThan(RocksInstance.SLOWDOWN_L0);
    }
    assertThat(easy.stallMicros).isZero();
  }

  @Test
  void rampsGoFromZeroToFullStrength() {
    long start = 1_000_000;
    long ramp = 60 * 60_000;
    for (Ramp r : Ramp.values()) {
      assertThat(r.at(start - 1, start, ramp)).isZero();
      assertThat(r.at(start + 2 * ramp, start, ramp)).isCloseTo(1, within(0.001));
    }
    assertThat(Ramp.LINEAR.at(start + ramp / 2, start, ramp)).isCloseTo(0.5, within(1e-9));
    assertThat(Ramp.SIGMOID.at(start, start, ramp)).isCloseTo(0.05, within(0.001));
    assertThat(Ramp.SIGMOID.at(start + ramp, start, ramp)).isCloseTo(0.95, within(0.001));
    assertThat(Ramp.STEP_THEN_DRIFT.at(start, start, ramp)).isCloseTo(0.6, within(1e-9));
    assertThat(Ramp.STEP.at(start, start, ramp)).isEqualTo(1);
  }
}
