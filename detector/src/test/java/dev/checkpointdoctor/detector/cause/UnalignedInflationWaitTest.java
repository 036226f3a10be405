package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.Diagnoser;
import dev.checkpointdoctor.detector.pipeline.JobView;
import dev.checkpointdoctor.detector.trend.GrowthReading;
import dev.checkpointdoctor.detector.trend.HourlyHistory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Back-pressure under unaligned checkpoints whose inflation cannot be judged at the third
 * checkpoint: back-pressure is held back until it can, and the inflation is named, never the
 * back-pressure it refines first.
 */
class UnalignedInflationWaitTest {
  static final double NORMAL_MIN = 100;

  /** Causes named (not unknown) scrape by scrape from the fault on, in order. */
  static List<String> named(FlinkJobSim s, double faultMinutes, FlinkJobSim.Scenario fault) {
    long start = s.now;
    List<String> out = new ArrayList<>();
    while (s.now < start + (long) (faultMinutes * 60_000)) {
      long at = s.now;
      s.run(0, s.scrapeMs / 60_000.0, (x, f) -> fault.apply(x, at - start));
      s.detector.diagnosis(s.job).map(Diagnosis::cause).filter(c -> !c.equals("unknown"))
          .ifPresent(out::add);
    }
    return out;
  }

  /** The sink saturated from the fault on, everything upstream back-pressured from then on. */
  static void pressed(FlinkJobSim x) {
    for (int i = 0; i < x.parallelism; i++) {
      x.busy[2][i] = 980 + 20 * x.rnd.nextDouble();
      x.bp[0][i] = 850 + 150 * x.rnd.nextDouble();
      x.bp[1][i] = 800 + 150 * x.rnd.nextDouble();
    }
  }

  static void assertInflationFirst(FlinkJobSim s, List<String> named) {
    String last = s.detector.diagnosis(s.job).map(CauseRankerScenarioTest::describe).orElse("");
    assertThat(named).as("causes named in turn; last diagnosis:%n%s", last)
        .contains("unaligned_checkpoint_inflation");
    assertThat(named.get(0)).as("causes named in turn: %s", named)
        .isEqualTo("unaligned_checkpoint_inflation");
  }

  /** A job checkpointing unaligned every 2 min, ~5 MiB in flight, after its normal run. */
  private static FlinkJobSim unalignedAtTwoMinutes(long seed) {
    return atTwoMinutes(seed, 5L << 20, new CauseRanker(DetectorSettings.defaults()));
  }

  /**
   * A job checkpointing every 2 min after its normal run, each checkpoint persisting about
   * {@code usualInFlight} bytes (none when 0), diagnosed by {@code diagnoser}.
   */
  private static FlinkJobSim atTwoMinutes(long seed, long usualInFlight, Diagnoser diagnoser) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 30, seed % 2 == 0, DetectorSettings.defaults(),
        diagnoser);
    s.intervalMs = 120_000;
    s.run(0, NORMAL_MIN, (x, f) -> x.persisted = usualInFlight == 0 ? 0
        : usualInFlight * x.jitter());
    return s;
  }

  /**
   * The checkpoint triggered as the back-pressure began persists the old amount, the ones after
   * it the full buffers: tested together at the third checkpoint they fall short, and
   * back-pressure used to be named for a few minutes. The checkpoints carrying the buffers are
   * read from the in-flight data's own departure.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void theCheckpointBeforeTheBuffersFilledDoesNotHideTheInflation(long seed) {
    FlinkJobSim s = unalignedAtTwoMinutes(seed);
    List<String> named = named(s, 20, (x, f) -> {
      pressed(x);
      // full once the checkpoint in flight when the back-pressure began has completed
      x.persisted = (f >= x.intervalMs + 30_000 ? 120L << 20 : 5L << 20) * x.jitter();
    });
    assertInflationFirst(s, named);
  }

  /**
   * Few earlier checkpoints (a 5-minute interval) whose in-flight data follows the load: three
   * inflated checkpoints above all of them are not yet significant for that job, and the
   * back-pressure waits for as many as its own past needs.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void aJobWithFewCorrelatedEarlierCheckpointsWaitsForAsManyAsItNeeds(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 30, seed % 2 == 0);
    s.intervalMs = 300_000;
    // lag-1 autocorrelation about 0.3: the test's variance widened about 1.8 times
    s.run(0, 2.5 * 60, (x, f) -> x.persisted = (5L << 20)
        * (1 + 0.1 * Math.sin(2 * Math.PI * (x.now - FlinkJobSim.T0) / 3_600_000d)
        + 0.1 * x.rnd.nextGaussian()));
    List<String> named = named(s, 60, (x, f) -> {
      pressed(x);
      x.persisted = (120L << 20) * x.jitter();
    });
    assertInflationFirst(s, named);
  }

  /**
   * A milder fault whose back-pressure eases for a moment: one checkpoint among the first that
   * carry the buffers persists the usual amount. At the fewest checkpoints that could decide, the
   * test falls short because of it; that count is no decision, and back-pressure used to be named
   * there. The in-flight data is still out of its normal, so the back-pressure waits until the
   * next checkpoints decide.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void oneCheckpointBetweenTheFullOnesDoesNotEndTheWait(long seed) {
    FlinkJobSim s = unalignedAtTwoMinutes(seed);
    List<String> named = named(s, 40, (x, f) -> {
      pressed(x);
      boolean eased = f / x.intervalMs == DIP_AT;
      x.persisted = (eased ? 5L << 20 : 120L << 20) * x.jitter();
    });
    assertInflationFirst(s, named);
  }

  /** The interval (from the fault on) whose checkpoint persists the usual in-flight data. */
  static final long DIP_AT = 2;

  /**
   * Back-pressure for two hours whose buffers the checkpoints do not carry yet (the in-flight
   * data stays at its usual amount), then the buffers stay full: by then the checkpoints from
   * before the trouble have aged out of the raw history, and the inflation is judged against the
   * checkpoints before the buffers were carried. It used to wait until the inflated checkpoints
   * outnumbered the two hours of usual ones.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void inflationAfterLongBackPressureIsJudgedAgainstTheCheckpointsBeforeIt(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 30, seed % 2 == 0);
    s.intervalMs = 180_000;
    s.run(0, 3 * 60, (x, f) -> x.persisted = (5L << 20) * x.jitter());
    named(s, 120, (x, f) -> {
      pressed(x);
      x.persisted = (5L << 20) * x.jitter();
    });
    List<String> named = named(s, 30, (x, f) -> {
      pressed(x);
      x.persisted = (120L << 20) * x.jitter();
    });
    String last = s.detector.diagnosis(s.job).map(CauseRankerScenarioTest::describe).orElse("");
    assertThat(named).as("causes named in turn; last diagnosis:%n%s", last)
        .contains("unaligned_checkpoint_inflation");
    assertThat(named.get(named.size() - 1)).isEqualTo("unaligned_checkpoint_inflation");
  }

  /** A job checkpointing every 2 min that has never persisted in-flight data. */
  private static FlinkJobSim nothingPersistedAtTwoMinutes(long seed) {
    return atTwoMinutes(seed, 0, new CauseRanker(DetectorSettings.defaults()));
  }

  /**
   * Unaligned checkpoints with an aligned-checkpoint timeout persist nothing until back-pressure
   * holds their barriers past it: the in-flight data appears from zero with the second
   * checkpoint under the back-pressure. Back-pressure used to be named at once (the job looked
   * aligned) and the inflation only three checkpoints later.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void anAlignedTimeoutJobIsNamedForItsInflationNotItsBackPressure(long seed) {
    FlinkJobSim s = nothingPersistedAtTwoMinutes(seed);
    List<String> named = named(s, 20, (x, f) -> {
      pressed(x);
      x.persisted = f >= x.intervalMs + 30_000 ? (120L << 20) * x.jitter() : 0;
    });
    assertInflationFirst(s, named);
  }

  /**
   * An aligned job (nothing persisted, before or under the back-pressure) waits only until two
   * checkpoints triggered under the back-pressure have persisted nothing: then back-pressure is
   * named, and within the fault's first quarter of an hour.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void anAlignedJobIsNamedBackPressureOnceTwoCheckpointsPersistNothing(long seed) {
    FlinkJobSim s = nothingPersistedAtTwoMinutes(seed);
    List<String> named = named(s, 15, (x, f) -> {
      pressed(x);
      x.persisted = 0;
    });
    assertThat(named).as("causes named in turn").isNotEmpty();
    assertThat(named).as("causes named in turn").containsOnly("backpressure");
  }

  /**
   * The wait only delays back-pressure's first naming. A diagnosis already standing on
   * back-pressure (the trouble's onset moved later as anomalies closed and others opened, or the
   * service restarted from a snapshot) is not taken back to "unknown" for two more checkpoints:
   * each return of the cause would be a new alert. The same job and fault, one diagnoser told
   * back-pressure stands, names it while the other still waits.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void backPressureAlreadyStandingIsNotHeldAgain(long seed) {
    List<String> waiting = diagnoses(seed, new CauseRanker(DetectorSettings.defaults()));
    CauseRanker ranker = new CauseRanker(DetectorSettings.defaults());
    List<String> standing = diagnoses(seed, (view, since) -> ranker.diagnose(
        new StandingView(view, new Diagnosis(view.job(), "backpressure", 0.9, since,
            "backpressure", false, null, List.of(new CauseHypothesis("backpressure", 0.9,
                List.of(), "", "")))), since));
    int held = waiting.indexOf("unknown");
    assertThat(held).as("the wait holds back-pressure at first: %s", waiting)
        .isGreaterThanOrEqualTo(0).isLessThan(waiting.indexOf("backpressure"));
    assertThat(standing.get(held)).as("told back-pressure stands: %s", standing)
        .isEqualTo("backpressure");
  }

  /** The aligned job's diagnoses scrape by scrape over the first 15 min of back-pressure. */
  private static List<String> diagnoses(long seed, Diagnoser diagnoser) {
    FlinkJobSim s = atTwoMinutes(seed, 0, diagnoser);
    long start = s.now;
    List<String> out = new ArrayList<>();
    while (s.now < start + 15 * 60_000L) {
      s.run(0, s.scrapeMs / 60_000.0, (x, f) -> {
        pressed(x);
        x.persisted = 0;
      });
      out.add(s.detector.diagnosis(s.job).map(Diagnosis::cause).orElse("none"));
    }
    return out;
  }

  /** A job's view as the detector gives it, with another diagnosis in force. */
  private record StandingView(JobView view, Diagnosis standing) implements JobView {
    @Override
    public String job() {
      return view.job();
    }

    @Override
    public long eventTimeMs() {
      return view.eventTimeMs();
    }

    @Override
    public List<Anomaly> openAnomalies() {
      return view.openAnomalies();
    }

    @Override
    public List<BaselineSummary> baselines() {
      return view.baselines();
    }

    @Override
    public BaselineSummary baseline(Signal signal, String scope) {
      return view.baseline(signal, scope);
    }

    @Override
    public List<SeriesHistory> history(Signal signal) {
      return view.history(signal);
    }

    @Override
    public HourlyHistory hourly(Signal signal) {
      return view.hourly(signal);
    }

    @Override
    public GrowthReading growth(Signal signal) {
      return view.growth(signal);
    }

    @Override
    public long unjoinedNodeSamples() {
      return view.unjoinedNodeSamples();
    }

    @Override
    public long unjoinedContainerSamples() {
      return view.unjoinedContainerSamples();
    }
  }
}
