package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.trend.GrowthReading;
import dev.checkpointdoctor.detector.trend.GrowthTest;
import dev.checkpointdoctor.detector.trend.HourlyHistory;
import dev.checkpointdoctor.detector.trend.InputHistories;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The trend test of one job-level checkpoint signal, run every few minutes of event time, and the
 * trend anomaly it keeps: opened when the signal has grown steadily for {@link #OPEN_AFTER}
 * readings in a row (whether or not a band broke: slow growth stays inside a band that learns),
 * resolved when {@link #RESOLVE_AFTER} readings in a row no longer see growth. A trend anomaly is
 * an ordinary anomaly with scope {@value #SCOPE}, so diagnoses, alerts, the API, the UI and the
 * history see it as they see the others.
 */
final class TrendWatch {
  /** Scope of trend anomalies, beside the job scope of the signal's band anomalies. */
  static final String SCOPE = GrowthTest.ANOMALY_SCOPE;
  /** The signals whose trend is watched (at job scope). */
  static final Set<Signal> SIGNALS = EnumSet.of(Signal.CHECKPOINT_DURATION,
      Signal.CHECKPOINT_FULL_SIZE, Signal.CHECKPOINT_SIZE);
  static final long EVERY_MS = 5 * 60_000L;
  static final int OPEN_AFTER = 3;
  static final int RESOLVE_AFTER = 6;
  /**
   * How long after a deployment the state is still warming up: a job started without restored
   * state fills it as keys arrive, and a young job's first hours (a weekend's dip fading out on
   * Monday morning) rise with a load it has never seen. Growth is read only over windows that
   * begin after it.
   */
  static final long WARM_UP_MS = 3 * 3_600_000L;

  enum Transition { NONE, OPENED, RESOLVED, UPDATED }

  /**
   * Whether the signal's own seasons already reached a value at a time of day, the days before
   * the last deployment raised by {@code formerScale}.
   */
  interface SeasonCheck {
    boolean reached(long tsMs, double value, double formerScale);
  }

  private final Signal signal;
  private long lastEvaluatedMs = Long.MIN_VALUE;
  private int growingRun;
  private int steadyRun;
  private long growingSinceMs = Long.MIN_VALUE; // the first reading of the current growing run
  private GrowthReading reading;
  /** The open trend anomaly, managed by the book (ids and listeners are its). */
  Anomaly open;

  TrendWatch(Signal signal) {
    this.signal = signal;
  }

  static boolean watched(Signal s, String scope) {
    return SIGNALS.contains(s) && "job".equals(scope);
  }

  GrowthReading reading() {
    return reading;
  }

  /**
   * When the current run of growing readings began: the time growth was first seen, which a
   * trend anomaly is dated by (its window reaches back over data from before the growth).
   */
  long growingSinceMs() {
    return growingSinceMs;
  }

  /**
   * Reads the trend again when {@link #EVERY_MS} passed since the last reading.
   *
   * @param mayOpen whether a growing reading may open an anomaly (the checkpointed size defers
   *     to the full size when the job reports both)
   * @param deployedAtMs the job's last deployment: growth is read within one deployment, never
   *     across the level change a redeploy may bring
   * @param seasonReached whether the last days already reached a value at this time of day
   */
  Transition observe(SeriesHistory raw, HourlyHistory hourly, long nowMs, boolean mayOpen,
      Supplier<InputHistories> input, long deployedAtMs,
      SeasonCheck seasonReached) {
    if (lastEvaluatedMs != Long.MIN_VALUE && nowMs - lastEvaluatedMs < EVERY_MS) {
      return Transition.NONE;
    }
    lastEvaluatedMs = nowMs;
    reading = GrowthTest.evaluate(signal, raw, hourly, nowMs, input.get(), deployedAtMs);
    // growth leaves what the job did before: a reading across a redeploy measures the
    // redeploy, and a level the last days reached at this hour is the daily cycle
    boolean growing = reading != null && reading.growing()
        && reading.fromMs() >= warmedUpAt(deployedAtMs)
        && !seasonReached.reached(nowMs, reading.toValue(),
            newLevel(hourly, nowMs, deployedAtMs));
    // what may open is the caller's choice; an open anomaly resolves only when growth stops
    growingRun = growing && (mayOpen || open != null) ? growingRun + 1 : 0;
    if (growingRun == 1) {
      growingSinceMs = nowMs;
    }
    steadyRun = growing ? 0 : steadyRun + 1;
    if (open == null) {
      return growingRun >= OPEN_AFTER ? Transition.OPENED : Transition.NONE;
    }
    if (steadyRun >= RESOLVE_AFTER) {
      return Transition.RESOLVED;
    }
    return growing ? Transition.UPDATED : Transition.NONE;
  }

  /**
   * How much higher the level since the deployment is than before it (at least 1). The seasons
   * of the last days were learned at the old level: a redeploy that settled the state 40 %
   * higher on a Sunday meets Monday's load for the first time, and the rise the old Mondays had
   * looks like growth unless it is compared with them at the new level. Read only for a growing
   * reading (a fit of the last week's hours).
   */
  private static double newLevel(HourlyHistory hourly, long nowMs, long deployedAtMs) {
    return Math.max(1, GrowthTest.levelStep(hourly, nowMs, deployedAtMs));
  }

  /** When growth may first be read from: the end of the warm-up after the deployment. */
  static long warmedUpAt(long deployedAtMs) {
    return deployedAtMs == Long.MIN_VALUE ? Long.MIN_VALUE : deployedAtMs + WARM_UP_MS;
  }

  void writeTo(DataOutput out) throws IOException {
    out.writeLong(lastEvaluatedMs);
    out.writeInt(growingRun);
    out.writeInt(steadyRun);
    out.writeLong(growingSinceMs);
    out.writeBoolean(reading != null);
    if (reading != null) {
      // the reading itself, not its inputs: raw points it read may have expired since
      GrowthReading r = reading;
      out.writeUTF(r.window().name());
      out.writeLong(r.fromMs());
      out.writeLong(r.toMs());
      out.writeInt(r.points());
      for (double d : new double[] {r.rate(), r.lower(), r.upper(), r.fromValue(), r.toValue(),
          r.linearPerHour()}) {
        out.writeDouble(d);
      }
      out.writeBoolean(r.compounding());
      out.writeUTF(r.adjustment().name());
      out.writeBoolean(r.step());
      out.writeBoolean(r.growing());
    }
  }

  static TrendWatch readFrom(DataInput in, Signal signal) throws IOException {
    TrendWatch w = new TrendWatch(signal);
    w.lastEvaluatedMs = in.readLong();
    w.growingRun = in.readInt();
    w.steadyRun = in.readInt();
    w.growingSinceMs = in.readLong();
    if (w.growingRun < 0 || w.steadyRun < 0) {
      throw new IOException("trend watch with negative runs");
    }
    if (in.readBoolean()) {
      GrowthReading.Window window = named(GrowthReading.Window.class, in.readUTF());
      long from = in.readLong();
      long to = in.readLong();
      int points = in.readInt();
      double[] d = new double[6];
      for (int i = 0; i < d.length; i++) {
        d[i] = in.readDouble();
      }
      boolean compounding = in.readBoolean();
      GrowthReading.Adjustment adjustment = named(GrowthReading.Adjustment.class, in.readUTF());
      w.reading = new GrowthReading(signal, window, from, to, points, d[0], d[1], d[2], d[3],
          d[4], d[5], compounding, adjustment, in.readBoolean(), in.readBoolean());
    }
    return w;
  }

  private static <E extends Enum<E>> E named(Class<E> type, String name) throws IOException {
    try {
      return Enum.valueOf(type, name);
    } catch (IllegalArgumentException e) {
      throw new IOException("unknown " + type.getSimpleName() + " " + name, e);
    }
  }
}
