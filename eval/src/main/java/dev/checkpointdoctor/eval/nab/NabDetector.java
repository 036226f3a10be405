package dev.checkpointdoctor.eval.nab;

import dev.checkpointdoctor.detector.baseline.SignalTracker;
import dev.checkpointdoctor.detector.baseline.SignalTracker.Step;
import dev.checkpointdoctor.detector.baseline.SignalTracker.Transition;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Direction;

/**
 * The service's detector core on one NAB series: one {@link SignalTracker} fed row by row in
 * event time, with the same settings for every file.
 *
 * <p>Anomaly score: 0 on every row except the one where the tracker OPENS an anomaly. NAB charges
 * every detected row outside a window, while the service raises one alert per anomaly, so only
 * the opening row is a detection. The opening's score says how long the series had been quiet
 * before it: {@code 1 - 2^(-quiet / 1 day)}, where quiet is the event time since the tracker's
 * previous anomaly ended (or since the series' first row). NAB sweeps one threshold over all
 * files, so the threshold it picks acts as a hold-off: an opening soon after the previous anomaly
 * ended is the same trouble coming back (a series that flaps), not news. The mapping is monotone,
 * so the day only sets the scale, not the order.
 */
public final class NabDetector {
  /**
   * NAB's series have arbitrary units, so there is no unit floor to give: 0 leaves the band to
   * the spread and the settings' relative floor.
   */
  static final double FLOOR = 0;
  static final double QUIET_SCALE_MS = 86_400_000.0;

  private final DetectorSettings settings;

  public NabDetector(DetectorSettings settings) {
    this.settings = settings;
  }

  /** One anomaly score in [0, 1] per row of {@code series}. */
  public double[] scores(NabSeries series) {
    SignalTracker tracker = SignalTracker.forSeries(Direction.BOTH, FLOOR, settings);
    double[] out = new double[series.size()];
    long quietSince = series.size() > 0 ? series.timestampsMs()[0] : 0;
    for (int i = 0; i < out.length; i++) {
      Step step = tracker.observe(series.timestampsMs()[i], series.values()[i]);
      if (step.transition() == Transition.OPENED) {
        out[i] = strength(step.timestampMs() - quietSince);
      } else if (step.transition() != Transition.NONE) {
        quietSince = step.timestampMs();
      }
    }
    return out;
  }

  /** In (0, 1) for any quiet time > 0, growing with it. */
  static double strength(long quietMs) {
    return 1 - Math.pow(2, -Math.max(quietMs, 1) / QUIET_SCALE_MS);
  }
}
