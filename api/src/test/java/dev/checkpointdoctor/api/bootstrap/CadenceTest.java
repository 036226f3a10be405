package dev.checkpointdoctor.api.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CadenceTest {
  @Test
  void theIntervalAndScheduleOfEachTargetComeFromItsRawSamples() {
    Labels jm = Labels.of("__name__", "x", "job", "flink", "instance", "jm:9249");
    Labels node = Labels.of("__name__", "y", "job", "node", "instance", "h:9100");
    Map<String, Cadence> c = Cadence.of(List.of(
        new AnswerParser.RawSeries(jm, new long[] {1_000, 16_001, 31_000, 45_999}),
        new AnswerParser.RawSeries(node, new long[] {7_000, 37_000}),
        new AnswerParser.RawSeries(Labels.of("__name__", "z", "job", "once", "instance", "o"),
            new long[] {5_000})), false);
    Cadence flink = c.get(HistoryFeed.instanceKey(jm));
    assertThat(flink.intervalMs()).as("milliseconds of wobble round away").isEqualTo(15_000);
    assertThat(flink.lastMs()).isEqualTo(45_999);
    assertThat(c.get(HistoryFeed.instanceKey(node)).intervalMs()).isEqualTo(30_000);
    assertThat(c).as("scraped once: unknown").hasSize(2);

    // the scrape behind a step, and none after the last one (the lookback repeats it)
    assertThat(flink.scrapeAtOrBefore(40_000)).isEqualTo(30_999);
    assertThat(flink.scrapeAtOrBefore(45_999)).isEqualTo(45_999);
    assertThat(flink.scrapeAtOrBefore(70_000)).isEqualTo(Long.MIN_VALUE);
    Cadence ongoing = Cadence.of(List.of(new AnswerParser.RawSeries(jm,
        new long[] {1_000, 16_000})), true).values().iterator().next();
    assertThat(ongoing.scrapeAtOrBefore(70_000)).isEqualTo(61_000);
  }
}
