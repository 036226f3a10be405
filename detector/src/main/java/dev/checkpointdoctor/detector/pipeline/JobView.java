package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.trend.GrowthReading;
import dev.checkpointdoctor.detector.trend.HourlyHistory;
import java.util.List;

/** A read-only look at one job's state, for the diagnoser. Valid only during the call. */
public interface JobView {
  String job();

  /** Event time of the newest sample the detector has seen. */
  long eventTimeMs();

  List<Anomaly> openAnomalies();

  List<BaselineSummary> baselines();

  /**
   * The baseline of one of the job's series as {@link #baselines()} lists it, or null: for a
   * reader that wants a few of them, not a summary of every series of the job.
   */
  default BaselineSummary baseline(Signal signal, String scope) {
    for (BaselineSummary b : baselines()) {
      if (b.signal() == signal && b.scope().equals(scope)) {
        return b;
      }
    }
    return null;
  }

  /**
   * Recent raw observations of {@code signal} in every scope of the job that has some, by scope.
   * Bounded to the last two hours of event time; restored from snapshots.
   */
  default List<SeriesHistory> history(Signal signal) {
    return List.of();
  }

  /**
   * Hourly summaries of up to 14 days of a job-level checkpoint signal (duration, size, full
   * size), or null for other signals and jobs without it.
   */
  default HourlyHistory hourly(Signal signal) {
    return null;
  }

  /** The trend test's latest reading of a job-level checkpoint signal, or null. */
  default GrowthReading growth(Signal signal) {
    return null;
  }

  /**
   * node_exporter samples no job's TaskManagers could be joined to, over all jobs since start,
   * or -1 when not known: a job without disk series and a positive count has its node_exporter
   * series arriving but unjoined.
   */
  default long unjoinedNodeSamples() {
    return -1;
  }

  /** The same for cAdvisor container samples. */
  default long unjoinedContainerSamples() {
    return -1;
  }

  /**
   * The diagnosis in force before this one (what listeners were last told), or null: kept in
   * snapshots, so a restart does not forget a cause already named.
   */
  default Diagnosis standing() {
    return null;
  }
}
