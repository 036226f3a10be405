package dev.checkpointdoctor.detector.trend;

import dev.checkpointdoctor.detector.model.Signal;

/**
 * What the trend test read from one signal of a job: over which data, how fast it grows (as a
 * share per hour, compounding), how sure that is, and whether that counts as growing.
 *
 * @param window which data the reading comes from
 * @param fromMs event time of the first point the fit used
 * @param toMs event time of the last one
 * @param points points (raw observations or hourly medians) the fit used
 * @param rate growth per hour as a share (0.03 = 3 % an hour, compounding)
 * @param lower lower bound of {@code rate} at {@link GrowthTest#CONFIDENCE}
 * @param upper upper bound
 * @param fromValue the signal at the window's start (median of its first points)
 * @param toValue the signal now (median of the last points)
 * @param linearPerHour the slope of a straight line through the same points, in signal units
 *     per hour
 * @param compounding whether compounding growth fits the points at least as well as a line
 * @param adjustment what was taken out of the points before the fit
 * @param step whether one level shift explains the points better than steady growth
 * @param growing whether the reading is a trend by the test's thresholds
 */
public record GrowthReading(
    Signal signal,
    Window window,
    long fromMs,
    long toMs,
    int points,
    double rate,
    double lower,
    double upper,
    double fromValue,
    double toValue,
    double linearPerHour,
    boolean compounding,
    Adjustment adjustment,
    boolean step,
    boolean growing) {

  /** The data a reading is taken from. */
  public enum Window {
    /** The raw observations of the last two hours. */
    RECENT,
    /** Hourly medians of the last day. */
    DAY,
    /** Hourly medians of the last three days. */
    THREE_DAYS,
    /** Raw observations of a window a caller chose, e.g. all a young job has. */
    CHOSEN
  }

  /** What the points were divided by before the fit. */
  public enum Adjustment {
    NONE,
    /** The job's daily cycle, learned from the hourly medians of earlier days. */
    DAILY_CYCLE,
    /** The job's input rate, while the job is too young to know its daily cycle. */
    INPUT_RATE
  }

  public double spanHours() {
    return (toMs - fromMs) / 3_600_000.0;
  }
}
