package dev.checkpointdoctor.detector.extract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link Stay}: when a job ran on a TaskManager or host. */
class StayTest {
  @Test
  void coversFromTheFirstSampleUntilTheLastSeriesEnded() {
    Stay s = new Stay("j");
    assertThat(s.covers(100)).isFalse();
    s.open(100);
    s.open(130); // a second series placing the job here
    assertThat(s.covers(99)).isFalse();
    assertThat(s.covers(100)).isTrue();
    assertThat(s.covers(10_000)).isTrue(); // live: open-ended
    s.close(200);
    assertThat(s.covers(250)).isTrue(); // the other series still runs
    s.close(180); // ends earlier but arrives later (another shard)
    assertThat(s.closed()).isTrue();
    assertThat(s.covers(199)).isTrue();
    assertThat(s.covers(200)).isFalse();
  }

  @Test
  void aReturnAfterAGapKeepsTheEarlierInterval() {
    Stay s = new Stay("j");
    s.open(100);
    s.close(200);
    s.open(500);
    assertThat(s.covers(150)).isTrue();
    assertThat(s.covers(300)).isFalse();
    assertThat(s.covers(600)).isTrue();
    assertThat(s.progress).isEqualTo(500);
  }

  @Test
  void aReorderedEarlierStartWidensTheInterval() {
    Stay s = new Stay("j");
    s.open(300);
    s.seen(310);
    s.open(250);
    assertThat(s.covers(250)).isTrue();
    assertThat(s.progress).isEqualTo(310);
  }
}
