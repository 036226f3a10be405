package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * Unaligned checkpoints persisting more in-flight data than before (judged against the job's
 * own earlier checkpoints, whose persisted data varies with the load anyway) under
 * back-pressure: the buffers the back-pressure fills are written into every checkpoint.
 */
final class UnalignedInflationRule implements CauseRule {
  @Override
  public Cause cause() {
    return Cause.UNALIGNED_CHECKPOINT_INFLATION;
  }

  /**
   * Persisted in-flight data higher than before by at least the signal's floor, or null: the
   * checkpoints since the trouble began, else those since the back-pressure began (see {@link
   * #sincePressed}).
   */
  static Change inflation(JobEvidence job) {
    SeriesHistory h = job.jobSeries(Signal.CHECKPOINT_PERSISTED_DATA);
    double floor = Signal.CHECKPOINT_PERSISTED_DATA.absoluteFloor();
    Change c = job.change(h);
    if (c.known() && c.higherBy(floor)) {
      return c;
    }
    Change pressed = sincePressed(job, h);
    if (pressed != null && pressed.higherBy(floor)) {
      return pressed;
    }
    Change far = farAbove(job, h);
    return far != null && far.higherBy(floor) ? far : null;
  }

  /**
   * The checkpoints that carry the buffers (see {@link #carriedFrom}) by how far above the normal
   * they sit ({@link SpreadTest}), or null while the job is not back-pressured or fewer than
   * {@link #MIN_CHECKPOINTS} have completed: against the uncarried checkpoints' own spread and against the learned band's, the
   * smaller p-value doubled for the two looks (Bonferroni). In-flight data that follows the slowly
   * changing fill of the buffers is so correlated from one checkpoint to the next that the rank
   * test needs more checkpoints than {@link #MAX_CHECKPOINTS} to decide even a twentyfold rise,
   * and the back-pressure it explains would be named first; the sign test against the baseline's
   * median, once the uncarried checkpoints have aged out of the raw history, cannot tell a value
   * far outside the band from one just above the median and hovered around significance, so the
   * diagnosis went back and forth between the in-flight data and the back-pressure.
   */
  static Change farAbove(JobEvidence job, SeriesHistory h) {
    Change bp = GcPressureRule.strongest(job, Signal.BACKPRESSURE);
    if (h == null || bp == null || !bp.higher()) {
      // without back-pressure the buffers are not full: in-flight data that wanders this far on
      // its own is the wander, and was named as inflation hours before a fault
      return null;
    }
    double[] recent = JobEvidence.slice(h, carriedFrom(job, h), Long.MAX_VALUE);
    if (recent.length < MIN_CHECKPOINTS) {
      return null;
    }
    Change earlier = aboveEarlierSpread(h, recent, uncarried(job, h));
    Change band = aboveBand(job, h, recent);
    if (earlier == null || band == null) {
      return earlier == null ? band : earlier; // one look: nothing to correct for
    }
    Change best = earlier.pHigher() <= band.pHigher() ? earlier : band;
    return withP(best, Math.min(1, 2 * best.pHigher()));
  }

  private static Change withP(Change c, double p) {
    return new Change(c.signal(), c.scope(), c.now(), c.before(), c.superiority(), p, 1,
        c.recentCount(), c.earlierCount(), c.basis());
  }

  private static Change aboveEarlierSpread(SeriesHistory h, double[] recent, double[] before) {
    if (before.length < JobEvidence.MIN_EARLIER) {
      return null;
    }
    double dependence = RankTests.dependence(before, before);
    double p = SpreadTest.pHigher(before, recent, dependence);
    double superiority = RankTests.mannWhitney(before, recent, dependence).superiority();
    return new Change(h.signal(), h.scope(), Stats.median(recent), Stats.median(before),
        superiority, p, 1, recent.length, before.length, Change.SPREAD);
  }

  /**
   * Against the learned baseline, whose band is at least {@code bandWidth} spreads wide on each
   * side, so its half-width over the band width bounds the spread from above. The superiority is
   * the share of the checkpoints above the band.
   */
  private static Change aboveBand(JobEvidence job, SeriesHistory h, double[] recent) {
    BaselineSummary b = job.baseline(h.signal(), h.scope());
    if (b == null) {
      return null;
    }
    double spread = (b.upper() - b.expected()) / job.settings().bandWidth();
    double p = SpreadTest.pHigherThanBand(b.expected(), spread, recent);
    double above = 0;
    for (double v : recent) {
      above += v > b.upper() ? 1 : 0;
    }
    return new Change(h.signal(), h.scope(), Stats.median(recent), b.expected(),
        above / recent.length, p, 1, recent.length, 0, Change.BAND);
  }

  /**
   * The in-flight data of the checkpoints that carry the buffers (see {@link #carriedFrom})
   * against before the trouble (one-sided Mann–Whitney), or null while fewer than {@link
   * #needed} of them have completed. The buffers fill only once the job is back-pressured, which
   * may be minutes after the first sign of trouble (a sink slowing down is busy first): read from
   * the trouble's onset, the checkpoints of those minutes hide the inflation for as long again.
   * Against the checkpoints before them when those before the trouble have aged out of the
   * raw history ({@link #uncarried}).
   */
  static Change sincePressed(JobEvidence job, SeriesHistory h) {
    if (h == null) {
      return null;
    }
    long from = carriedFrom(job, h);
    if (from <= job.onset()) {
      return null; // the same slice the job-wide judgment read
    }
    double[] recent = JobEvidence.slice(h, from, Long.MAX_VALUE);
    double[] before = uncarried(job, h);
    int needed = needed(before);
    if (needed < 0 || recent.length < needed || before.length < JobEvidence.MIN_EARLIER) {
      return null;
    }
    return JobEvidence.againstEarlier(h, recent, before);
  }

  /**
   * The checkpoints the inflation is judged against: those from before the trouble, else, when
   * the trouble is older than the raw history and they have aged out of it (a back-pressure
   * that came and went for an hour or two before the buffers stayed full), those before the
   * in-flight data left its normal. Not those before the back-pressure's latest onset, which
   * moves with the subtask that is most back-pressured at the moment and may include inflated
   * checkpoints.
   */
  static double[] uncarried(JobEvidence job, SeriesHistory h) {
    double[] before = job.earlier(h);
    long departed = job.onset(h, true);
    return before.length >= JobEvidence.MIN_EARLIER || departed < 0 ? before
        : JobEvidence.slice(h, Long.MIN_VALUE, departed);
  }

  /**
   * When the checkpoints began to carry the buffers: the trouble's onset, else the later
   * back-pressure that fills them, else the later departure of the in-flight data itself from
   * its normal. A checkpoint triggered before the buffers filled persists the old amount, so
   * the first one or two after the back-pressure began still look normal and, tested with the
   * full ones, keep the test short of significance while back-pressure is already plain.
   */
  static long carriedFrom(JobEvidence job, SeriesHistory h) {
    long from = job.onset();
    Change bp = GcPressureRule.strongest(job, Signal.BACKPRESSURE);
    if (bp == null || !bp.higher()) {
      return from;
    }
    long pressed = job.onset(GcPressureRule.series(job, Signal.BACKPRESSURE, bp.scope()), true);
    from = Math.max(from, pressed);
    if (pressed >= 0) {
      // only after the back-pressure: a departure before it is not the buffers it fills
      from = Math.max(from, job.onset(h, true));
    }
    return from;
  }

  /**
   * At least {@link #MIN_CHECKPOINTS}, and as many as the test against the job's own earlier
   * checkpoints needs to be able to reach significance (fewer earlier checkpoints, or more
   * strongly correlated ones, need more): -1 when no number within {@link #MAX_CHECKPOINTS}
   * could, and the question cannot be decided.
   */
  static int needed(double[] before) {
    if (before.length < JobEvidence.MIN_EARLIER) {
      return -1;
    }
    int fewest = RankTests.fewestToDecide(before.length, RankTests.dependence(before, before),
        Change.ALPHA, MAX_CHECKPOINTS);
    return fewest < 0 ? -1 : Math.max(MIN_CHECKPOINTS, fewest);
  }

  /**
   * Completed checkpoints since they began to carry the buffers below which one checkpoint's
   * heavy-tailed in-flight data (a burst tens of times the usual) would decide alone.
   */
  static final int MIN_CHECKPOINTS = 3;
  /**
   * How many checkpoints triggered under back-pressure must persist nothing before a job that
   * never persisted in-flight data counts as aligned: the first may still have aligned within
   * the timeout while the back-pressure was building.
   */
  static final int ALIGNED_AFTER = 2;
  /** Checkpoints the back-pressure is held back for at most, waiting for the judgment. */
  static final int MAX_CHECKPOINTS = 20;

  /**
   * A job that runs unaligned checkpoints (it persists in-flight data at all) whose inflation
   * cannot be judged yet, so back-pressure waits for the next checkpoints: fewer than {@link
   * #MIN_CHECKPOINTS} have completed since they began to carry the buffers, or fewer than
   * {@link #needed}, the fewest that could show an inflation, while the in-flight data stays
   * within its normal, or it has left its normal and the test has not decided within {@link
   * #MAX_CHECKPOINTS}. A job whose in-flight data stays within its normal for as many
   * checkpoints as could have shown an inflation is not waited for further: its back-pressure
   * is plain back-pressure.
   */
  private static Finding pending(JobEvidence job, Finding f) {
    SeriesHistory h = job.jobSeries(Signal.CHECKPOINT_PERSISTED_DATA);
    if (h == null || h.size() == 0) {
      return f;
    }
    double[] before = job.earlier(h);
    boolean unaligned = Stats.max(before) > 0 || h.value(h.size() - 1) > 0;
    long from = carriedFrom(job, h);
    if (from > job.now()) {
      return f;
    }
    if (!unaligned) {
      long pressed = mayTurnUnalignedSince(job, h);
      if (pressed < 0) {
        return f;
      }
      f.onset(pressed, JobEvidence.spacing(h), "back-pressure");
      return f.pending(String.format("the job has persisted no in-flight data so far, as "
          + "unaligned checkpoints that start aligned (an aligned-checkpoint timeout) do until "
          + "back-pressure holds their barriers up; the checkpoints triggered since %s "
          + "show whether they carry the buffers.", JobEvidence.clock(pressed)));
    }
    int since = JobEvidence.count(h, from, Long.MAX_VALUE);
    // The wait ends with a decision, not at a count. Out of its normal, the in-flight data is
    // waited for until the test decides (this rule then names it): at the fewest checkpoints
    // that could decide, one taken as the back-pressure eased or before the buffers filled
    // (the old amount) keeps it short. Within its normal, it is plain back-pressure only once
    // as many checkpoints as could have shown an inflation have not.
    int decidable = needed(uncarried(job, h));
    boolean out = decidable >= 0 && job.onset(h, true) >= 0;
    int needed = decidable < 0 ? MIN_CHECKPOINTS : out ? MAX_CHECKPOINTS : decidable;
    if (since >= needed) {
      return f;
    }
    f.onset(from, JobEvidence.spacing(h), "in-flight data");
    if (out) {
      return f.pending(String.format("its in-flight data has left its normal, and the %d "
          + "checkpoints since %s have not decided yet whether it is inflated (waited for up to "
          + "%d).", since, JobEvidence.clock(from), needed));
    }
    return f.pending(String.format("the job runs unaligned checkpoints, and %d of the %d "
        + "checkpoints that could show their in-flight data inflated have completed since %s.",
        since, needed, JobEvidence.clock(from)));
  }

  /**
   * The onset of the back-pressure while it is not yet known whether a job that has never
   * persisted in-flight data runs aligned checkpoints, or -1. Unaligned checkpoints with Flink's
   * aligned-checkpoint timeout start aligned and persist nothing until back-pressure makes the
   * alignment exceed the timeout: their in-flight data appears from zero with the first
   * checkpoint triggered under the back-pressure that does not align in time. Until {@link
   * #ALIGNED_AFTER} such checkpoints have completed, for at most as many of the job's usual
   * intervals and durations after the onset, the back-pressure could be either. Not
   * when Flink's REST API said the checkpoints are aligned.
   */
  static long mayTurnUnalignedSince(JobEvidence job, SeriesHistory h) {
    if (Boolean.FALSE.equals(RestEvidence.unalignedCheckpoints(job))) {
      return -1;
    }
    Change bp = GcPressureRule.strongest(job, Signal.BACKPRESSURE);
    if (bp == null || !bp.higher()) {
      return -1;
    }
    long pressed = job.onset(GcPressureRule.series(job, Signal.BACKPRESSURE, bp.scope()), true);
    if (pressed < 0) {
      return -1;
    }
    // Counted from the trouble's onset when it is earlier: the strongest back-pressure's onset
    // moves with the subtask that is most back-pressured at the moment, and a wait that began
    // afresh with it made plain back-pressure come and go for hours. A checkpoint that completes
    // within its own duration of that moment was triggered before it.
    long since = job.onset() >= 0 ? Math.min(pressed, job.onset()) : pressed;
    SeriesHistory duration = job.jobSeries(Signal.CHECKPOINT_DURATION);
    double took = duration == null || duration.size() == 0 ? 0
        : Math.max(0, duration.value(duration.size() - 1));
    if (JobEvidence.count(h, since + (long) took, Long.MAX_VALUE) >= ALIGNED_AFTER) {
      return -1;
    }
    // bounded by the usual cadence: an aligned checkpoint stuck behind the buffers can take
    // up to the checkpoint timeout, and naming plain back-pressure must not wait that long
    double median = duration == null || duration.size() == 0 ? 0 : job.earlierMedian(duration);
    double usual = Double.isNaN(median) ? 0 : Math.max(0, median);
    double latest = pressed + ALIGNED_AFTER * (JobEvidence.spacing(h) + usual);
    return job.now() <= latest ? pressed : -1;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    Change persisted = inflation(job);
    if (persisted == null) {
      return pending(job, f);
    }
    f.support(0.45, persisted, true, String.format("Checkpoints persist %s of in-flight data, "
            + "was %s (%s): unaligned checkpoints are storing the buffers.",
        Fmt.bytes(persisted.now()), Fmt.bytes(persisted.before()), persisted.test(true)));
    SeriesHistory h = job.jobSeries(Signal.CHECKPOINT_PERSISTED_DATA);
    long[] t = JobEvidence.times(h, job.earlierTo());
    double[] v = JobEvidence.slice(h, job.earlierTo(), Long.MAX_VALUE);
    SenSlope trend = SenSlope.of(t, v, 0.95);
    if (v.length >= 4 && trend.rising()) {
      double fitted = trend.at(t, v, t[t.length - 1]);
      double start = trend.at(t, v, t[0]);
      f.support(0.1, Signal.CHECKPOINT_PERSISTED_DATA, "job", fitted, start, Evidence.RISING,
          0.95, String.format("In-flight data keeps growing: +%s per hour (95 %% bound +%s), "
              + "%s now from %s.", Fmt.bytes(trend.perHour()),
              Fmt.bytes(trend.lowerPerMs() * 3_600_000d), Fmt.bytes(fitted), Fmt.bytes(start)));
    }
    Change bp = GcPressureRule.strongest(job, Signal.BACKPRESSURE);
    if (bp != null && bp.higher()) {
      f.support(0.2, bp, true, String.format(
          "%s is back-pressured %s ms/s (was %s), which fills the buffers the checkpoint "
              + "persists.", bp.scope(), Fmt.num(bp.now()), Fmt.num(bp.before())));
    }
    Change size = job.change(job.jobSeries(Signal.CHECKPOINT_SIZE));
    if (size.known() && size.higher()) {
      f.support(0.15, size, true, String.format("Checkpoint size rose to %s from %s.",
          Fmt.bytes(size.now()), Fmt.bytes(size.before())));
    }
    if (job.checkpointTrouble()) {
      CheckpointTrouble.support(f, job, "as checkpoints carry the in-flight data");
    }
    return f;
  }
}
