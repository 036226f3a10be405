package dev.checkpointdoctor.api.series;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.Signal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SeriesStoreTest {
  static final long MIN = 60_000L;
  static final long T0 = 1_796_000_000_000L;

  static Evaluation eval(String job, Signal s, String scope, long ts, double v) {
    return new Evaluation(job, s, scope, ts, v, 1, 0, 2, 0, true, v > 2);
  }

  @Test
  void aWeekOfHistoryOfOneSeriesIsAtMostFullBuckets() {
    SeriesStore store = new SeriesStore();
    for (int i = 0; i < 8 * 24 * 60; i++) {
      store.add(eval("j", Signal.CHECKPOINT_DURATION, "job", T0 + i * MIN, i));
    }
    assertThat(store.buckets()).isEqualTo(SeriesHistory.FULL_BUCKETS);
    assertThat((long) SeriesHistory.FULL_BUCKETS * BucketRing.BYTES_PER_BUCKET)
        .isLessThan(43_000);
  }

  @Test
  void overTheCapEverySeriesKeepsItsShareAndLosesItsOldestFirst() {
    long tenMin = 10 * MIN;
    SeriesStore store = new SeriesStore(1_000);
    for (int i = 0; i < 1_000; i++) {
      store.add(eval("a", Signal.CHECKPOINT_DURATION, "job", T0 + i * tenMin, i));
    }
    assertThat(store.buckets()).isBetween(700L, 1_000L);
    for (int s = 0; s < 4; s++) {
      for (int i = 0; i < 300; i++) {
        store.add(eval("b" + s, Signal.CHECKPOINT_SIZE, "job", T0 + i * tenMin, i));
      }
      store.enforceCap();
    }
    assertThat(store.series()).isEqualTo(5);
    assertThat(store.buckets()).isLessThanOrEqualTo(1_000);
    // Five series share 1,000 buckets: "a" keeps its newest 148 ten-minute buckets.
    Downsampled a = store.query("a", Signal.CHECKPOINT_DURATION, "job", T0,
        T0 + 1_000 * tenMin, 5_000).orElseThrow();
    assertThat(a.bucketMs()).isEqualTo(tenMin);
    assertThat(a.points()).hasSize(148);
    assertThat(a.points().get(a.points().size() - 1).last()).isEqualTo(999);
    assertThat(a.points().get(0).last()).isEqualTo(852);
  }

  @Test
  void seriesIdleForLongerThanTheCutoffAreForgotten() {
    SeriesStore store = new SeriesStore();
    store.add(eval("old", Signal.GC_TIME, "tm-1", T0, 1));
    store.add(eval("new", Signal.GC_TIME, "tm-1", T0 + Duration.ofDays(8).toMillis(), 1));
    store.forgetIdleBefore(T0 + Duration.ofDays(1).toMillis());
    assertThat(store.series()).isEqualTo(1);
    assertThat(store.buckets()).isEqualTo(2);
    assertThat(store.scopes("old", Signal.GC_TIME)).isEmpty();
    assertThat(store.scopes("new", Signal.GC_TIME)).containsExactly("tm-1");
  }

  @Test
  void aForgottenSeriesFedAgainWithTheSameStringsStartsAStoredHistoryOfItsOwn() {
    // the detector hands out the same job and scope instances for a series every time
    String job = "orders";
    String scope = "tm-1";
    SeriesStore store = new SeriesStore();
    store.add(eval(job, Signal.GC_TIME, scope, T0, 1));
    store.forgetIdleBefore(T0 + Duration.ofDays(1).toMillis());
    assertThat(store.series()).isZero();
    long later = T0 + Duration.ofDays(2).toMillis();
    store.add(eval(job, Signal.GC_TIME, scope, later, 5));
    store.add(eval(job, Signal.GC_TIME, scope, later + MIN, 6));
    assertThat(store.series()).isEqualTo(1);
    assertThat(store.buckets()).isEqualTo(3); // two fine buckets, one coarse
    assertThat(store.newestMs(job, Signal.GC_TIME, scope)).contains(later + MIN);
  }

  @Test
  void bucketsOfInterleavedSeriesAndOfALateObservationMergeWhereTheyBelong() {
    long start = T0 - T0 % MIN;
    SeriesStore store = new SeriesStore();
    for (int i = 0; i < 90; i++) {
      for (int s = 0; s < 3; s++) {
        store.add(eval("j", Signal.GC_TIME, "tm-" + s, start + i * 20_000L, s * 100 + i));
      }
    }
    // 90 observations 20 s apart: 30 one-minute buckets per series; a late one lands in bucket 3
    store.add(eval("j", Signal.GC_TIME, "tm-0", start + 3 * MIN + 1_000, -7));
    Downsampled d = store.query("j", Signal.GC_TIME, "tm-0", start, start + 30 * MIN, 1_000)
        .orElseThrow();
    assertThat(d.bucketMs()).isEqualTo(MIN);
    assertThat(d.points()).hasSize(30);
    assertThat(d.points().get(3).min()).isEqualTo(-7);
    assertThat(d.points().get(3).max()).isEqualTo(11);
    assertThat(d.points().get(29).last()).isEqualTo(89);
    assertThat(store.query("j", Signal.GC_TIME, "tm-2", start, start + 30 * MIN, 1_000).orElseThrow()
        .points().get(29).last()).isEqualTo(289);
  }

  @Test
  void aRingThatGrowsAfterRetentionMovedItsOldestKeepsItsBucketsInOrder() {
    BucketRing ring = new BucketRing(1_000);
    long keepAll = 1_000_000_000L;
    for (int i = 0; i < 7; i++) {
      ring.add(i * 1_000L, i, 0, 0, 1, false, 1_000, keepAll);
    }
    // bucket 10 fills the first 8 slots; its retention then drops buckets 0-2, so the ring wraps
    ring.add(10_000L, 10, 0, 0, 1, false, 1_000, 7_000);
    for (int i = 11; i <= 15; i++) { // 13 fills it again, 14 makes it grow, 15 lands after that
      ring.add(i * 1_000L, i, 0, 0, 1, false, 1_000, keepAll);
    }
    java.util.List<Float> last = new java.util.ArrayList<>();
    ring.forEach(0, Long.MAX_VALUE, (s, f, mn, mx, l, e, lo, hi, out) -> last.add(l));
    assertThat(last).containsExactly(3f, 4f, 5f, 6f, 10f, 11f, 12f, 13f, 14f, 15f);
  }

  @Test
  void feedHandsEvaluationsOverWithoutBlockingAndAppliesThemInOrder() throws Exception {
    SeriesStore store = new SeriesStore();
    try (SeriesFeed feed = new SeriesFeed(store)) {
      for (int i = 0; i < 1_000; i++) {
        feed.evaluated(eval("j", Signal.CHECKPOINT_AGE, "job", T0 + i * MIN, i));
      }
      Await.until("1,000 evaluations applied", Duration.ofSeconds(10),
          () -> feed.applied() == 1_000);
      assertThat(feed.dropped()).isZero();
    }
    assertThat(store.newestMs("j", Signal.CHECKPOINT_AGE, "job")).contains(T0 + 999 * MIN);
  }
}
