package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.JobView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rule skips the earlier median of a series whose recent level already fails its threshold;
 * a level exactly at the threshold must still be judged against it.
 */
class RocksDbWriteStallRuleTest {
  private static final long NOW = 1_796_000_000_000L;

  /** One point a minute for two hours: {@code earlier} up to 10 minutes ago, then {@code now}. */
  private record History(Signal signal, String scope, double earlier, double now)
      implements SeriesHistory {
    @Override
    public int size() {
      return 120;
    }

    @Override
    public long timeMs(int i) {
      return NOW - (119 - i) * 60_000L;
    }

    @Override
    public double value(int i) {
      return i < 110 ? earlier : now;
    }
  }

  private static Finding assess(History... histories) {
    return new RocksDbWriteStallRule().assess(evidence(List.of(histories)));
  }

  /**
   * A job with these histories, in this order, and one open anomaly dating the trouble where the
   * histories change (the rules judge the present against the values before the trouble).
   */
  private static JobEvidence evidence(List<History> histories) {
    JobView view = new JobView() {
      @Override
      public String job() {
        return "j";
      }

      @Override
      public long eventTimeMs() {
        return NOW;
      }

      @Override
      public List<Anomaly> openAnomalies() {
        return List.of(new Anomaly(1, "j", Signal.CHECKPOINT_DURATION, "job", true,
            NOW - 10 * 60_000L, -1, 0, 0, 0, 0, 0, List.of()));
      }

      @Override
      public List<BaselineSummary> baselines() {
        return List.of();
      }

      @Override
      public List<SeriesHistory> history(Signal signal) {
        return histories.stream().filter(h -> h.signal() == signal)
            .map(h -> (SeriesHistory) h).toList();
      }
    };
    return new JobEvidence(view, DetectorSettings.defaults());
  }

  @Test
  void levelsExactlyAtTheThresholdsCount() {
    double l0 = RocksDbWriteStallRule.L0_SLOWDOWN;
    double stall = RocksDbStall.STALL_US_PER_S;
    assertThat(assess(new History(Signal.ROCKSDB_L0_FILES, "operator:a/0", 0, l0))
        .confidence()).isPositive();
    assertThat(assess(new History(Signal.ROCKSDB_L0_FILES, "operator:a/0", 0, l0 - 1))
        .confidence()).isZero();
    assertThat(assess(new History(Signal.ROCKSDB_STALL, "operator:a/0", 0, stall))
        .confidence()).isPositive();
    assertThat(assess(new History(Signal.ROCKSDB_STALL, "operator:a/0", 0, stall - 1))
        .confidence()).isZero();
    // at the threshold but no rise over the earlier level: the earlier median decides
    assertThat(assess(new History(Signal.ROCKSDB_L0_FILES, "operator:a/0", l0, l0))
        .confidence()).isZero();
    assertThat(assess(new History(Signal.ROCKSDB_STALL, "operator:a/0", stall, stall))
        .confidence()).isZero();
  }

  @Test
  void theStrongestStallIsReportedWhateverTheOrder() {
    double stall = RocksDbStall.STALL_US_PER_S;
    Map<String, Double> levels = Map.of("operator:a/0", 2 * stall, "operator:a/1", 5 * stall);
    for (List<String> order : List.of(List.of("operator:a/0", "operator:a/1"),
        List.of("operator:a/1", "operator:a/0"))) {
      List<History> histories = order.stream()
          .map(scope -> new History(Signal.ROCKSDB_STALL, scope, 0, levels.get(scope))).toList();
      assertThat(RocksDbStall.find(evidence(histories)).scope()).isEqualTo("operator:a/1");
    }
  }
}
