package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import java.util.List;

/** A read-only look at one job's state, for the diagnoser. Valid only during the call. */
public interface JobView {
  String job();

  /** Event time of the newest sample the detector has seen. */
  long eventTimeMs();

  List<Anomaly> openAnomalies();

  List<BaselineSummary> baselines();
}
