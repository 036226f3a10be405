package dev.checkpointdoctor.detector.trend;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import java.util.List;

/**
 * A job's records-in rates as the trend test reads them: every scope's raw recent points and
 * its last hours in hourly summaries ({@link LoadTrend#INPUT_HOURS} of them).
 */
public record InputHistories(List<SeriesHistory> recent, List<HourlyHistory> hourly) {
  public static final InputHistories NONE = new InputHistories(List.of(), List.of());

  public InputHistories {
    recent = List.copyOf(recent);
    hourly = List.copyOf(hourly);
  }

  /** Only the raw points, as a job without hourly input summaries has them. */
  public static InputHistories recentOnly(List<SeriesHistory> recent) {
    return new InputHistories(recent == null ? List.of() : recent, List.of());
  }
}
