package dev.checkpointdoctor.api.series;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeriesHistoryTest {
  static final long MIN = 60_000L;
  static final long T0 = 1_796_000_000_000L - 1_796_000_000_000L % (10 * MIN);

  @Test
  void aBucketKeepsMinMaxLastAndTheLatestBand() {
    SeriesHistory h = new SeriesHistory();
    h.add(T0 + 1_000, 5, 4, 3, 6, false, SeriesHistory.FULL_BUCKETS);
    h.add(T0 + 20_000, 2, 4.5, 3.5, 6.5, false, SeriesHistory.FULL_BUCKETS);
    h.add(T0 + 40_000, 9, 5, 4, 7, true, SeriesHistory.FULL_BUCKETS);
    Downsampled d = h.query(T0, T0 + MIN, 300);
    assertThat(d.bucketMs()).isEqualTo(MIN);
    // The bucket also knows when its first observation came, to the second, for step charts.
    assertThat(d.points()).containsExactly(
        new SeriesPoint(T0, T0 + MIN, T0 + 1_000, 2, 9, 9, 5, 4, 7, true));
    h.add(T0 + MIN + 37_400, 3, 5, 4, 7, false, SeriesHistory.FULL_BUCKETS);
    assertThat(h.query(T0, T0 + 2 * MIN, 300).points().get(1).firstMs())
        .isEqualTo(T0 + MIN + 37_000);
    // Ten-minute buckets and merged points keep the first observation's time of their span.
    assertThat(h.query(T0, T0 + 2 * MIN, 1).points().get(0).firstMs()).isEqualTo(T0 + 1_000);
  }

  @Test
  void recentRangesComeFromMinuteBucketsOlderOnesFromTenMinuteBuckets() {
    SeriesHistory h = new SeriesHistory();
    for (int i = 0; i < 600; i++) {
      h.add(T0 + i * MIN, i, i, i - 1, i + 1, false, SeriesHistory.FULL_BUCKETS);
    }
    long end = T0 + 600 * MIN;
    Downsampled recent = h.query(end - 120 * MIN, end, 300);
    assertThat(recent.bucketMs()).isEqualTo(MIN);
    assertThat(recent.points()).hasSize(120);
    assertThat(recent.points().get(0).last()).isEqualTo(480);

    // Ten hours: the minute tier keeps only six, so the whole range comes from 10-minute buckets.
    Downsampled all = h.query(T0 - 60 * MIN, end, 300);
    assertThat(all.bucketMs()).isEqualTo(10 * MIN);
    assertThat(all.points()).hasSize(60);
    SeriesPoint first = all.points().get(0);
    assertThat(List.of(first.min(), first.max(), first.last())).containsExactly(0.0, 9.0, 9.0);
  }

  @Test
  void aYoungSeriesIsServedAtMinuteResolutionWhateverTheRange() {
    SeriesHistory h = new SeriesHistory();
    for (int i = 0; i < 45; i++) {
      h.add(T0 + 3 * MIN + i * MIN, i, i, i, i, false, SeriesHistory.FULL_BUCKETS);
    }
    Downsampled d = h.query(T0 - 24 * 60 * MIN, T0 + 60 * MIN, 300);
    assertThat(d.bucketMs()).isEqualTo(MIN);
    assertThat(d.points()).hasSize(45);
  }

  @Test
  void tooManyBucketsAreMergedIntoAtMostTheAskedNumberOfPoints() {
    SeriesHistory h = new SeriesHistory();
    for (int i = 0; i < 100; i++) {
      h.add(T0 + i * MIN, i % 7, 1, 0, 2, i == 55, SeriesHistory.FULL_BUCKETS);
    }
    Downsampled d = h.query(T0, T0 + 100 * MIN, 30);
    assertThat(d.bucketsPerPoint()).isEqualTo(4);
    assertThat(d.points()).hasSize(25);
    SeriesPoint p = d.points().get(13);
    assertThat(p.startMs()).isEqualTo(T0 + 52 * MIN);
    assertThat(p.endMs()).isEqualTo(T0 + 56 * MIN);
    assertThat(List.of(p.min(), p.max(), p.last())).containsExactly(3.0, 6.0, 6.0);
    assertThat(p.outside()).isTrue();
    assertThat(d.points().get(12).outside()).isFalse();
    assertThat(h.query(T0, T0 + 100 * MIN, 2).points()).hasSize(2);
  }

  @Test
  void historyOlderThanAWeekIsDroppedAndLateSamplesOnlyJoinExistingBuckets() {
    SeriesHistory h = new SeriesHistory();
    h.add(T0, 1, 1, 0, 2, false, SeriesHistory.FULL_BUCKETS);
    h.add(T0 + 5 * MIN, 2, 1, 0, 2, false, SeriesHistory.FULL_BUCKETS);
    h.add(T0 + 30_000, 7, 1, 0, 2, false, SeriesHistory.FULL_BUCKETS);
    h.add(T0 + 2 * MIN, 7, 1, 0, 2, false, SeriesHistory.FULL_BUCKETS);
    Downsampled d = h.query(T0, T0 + 10 * MIN, 300);
    assertThat(d.points()).extracting(SeriesPoint::max).containsExactly(7.0, 2.0);

    long eightDays = 8 * 24 * 60 * MIN;
    h.add(T0 + eightDays, 3, 1, 0, 2, false, SeriesHistory.FULL_BUCKETS);
    assertThat(h.buckets()).isEqualTo(2);
    assertThat(h.query(T0 - MIN, T0 + eightDays + MIN, 300).points())
        .extracting(SeriesPoint::last).containsExactly(3.0);
  }
}
