package dev.checkpointdoctor.eval.family2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.eval.scenario.ScenarioManifest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** How a family-2 scenario plays: in time order, deterministically, slice for slice. */
class Family2PlayTest {
  static final long HOUR = 3_600_000L;
  static final long MINUTE = 60_000L;

  /** A small job (two subtasks, three hours) of the given layout. */
  static Family2Scenario small(long seed, Layout.Kind layout) {
    return small(seed, layout, d -> { });
  }

  /** A small job, adjusted by {@code change} before it is built. */
  static Family2Scenario small(long seed, Layout.Kind layout,
      java.util.function.Consumer<JobDraft> change) {
    JobDraft d = new JobDraft(seed, CorpusPlanner.EPOCH + 9 * HOUR);
    d.name = "small_" + layout.name().toLowerCase(java.util.Locale.ROOT);
    d.jobName = "small_job_" + seed;
    d.layout = layout;
    d.parallelism(2);
    d.endMs = d.startMs + 3 * HOUR;
    d.recordsPerSecond = 2000;
    d.stateBytes = 500e6;
    d.intervalMs = 30_000;
    d.flinkScrape = 15;
    d.nodeScrape = 15;
    d.kubeletScrape = 15;
    change.accept(d);
    return new Family2Scenario(d);
  }

  @Test
  void theSameSeedPlaysTheSameSamples() {
    List<String> a = digest(small(42, Layout.Kind.K8S_NATIVE));
    List<String> b = digest(small(42, Layout.Kind.K8S_NATIVE));
    assertThat(a).hasSizeGreaterThan(10_000).isEqualTo(b);
    assertThat(digest(small(43, Layout.Kind.K8S_NATIVE))).isNotEqualTo(a);
  }

  @Test
  void aSliceHasExactlyTheSamplesTheFullHistoryHasInItsWindow() {
    Family2Scenario s = small(7, Layout.Kind.BARE_METAL_IP);
    long from = s.truth().startMs() + 90 * MINUTE;
    long to = from + 30 * MINUTE;
    List<String> full = new ArrayList<>();
    s.play((l, ts, v) -> {
      if (ts >= from && ts <= to) {
        full.add(l + " " + ts + " " + Double.doubleToRawLongBits(v));
      }
    });
    List<String> slice = new ArrayList<>();
    s.play((l, ts, v) -> slice.add(l + " " + ts + " " + Double.doubleToRawLongBits(v)), from, to);
    assertThat(slice).isNotEmpty().isEqualTo(full);
  }

  @ParameterizedTest
  @ValueSource(strings = {"healthy_redeploy", "healthy_rescale",
      "healthy_submitted_declined_first", "healthy_taskmanager_lost"})
  void timeNeverGoesBackAndVanishedSeriesAreMarkedStale(String name) {
    Family2Scenario s = Family2SignatureTest.scenario(name);
    JobPlan plan = s.plan();
    long event = plan.lifecycle().get(0).atMs();
    Set<String> jobIdsBefore = new HashSet<>();
    Set<String> jobIdsAfter = new HashSet<>();
    Set<Labels> stale = new HashSet<>();
    RawSamples raw = new RawSamples(n -> n.startsWith("flink_jobmanager_job_")) {
      @Override
      public void sample(Labels labels, long ts, double value) {
        super.sample(labels, ts, value);
        if (Double.doubleToRawLongBits(value) == Double.doubleToRawLongBits(Scraper.STALE)) {
          stale.add(labels);
        } else if (labels.metricName().equals("flink_jobmanager_job_numRestarts")) {
          (ts < event ? jobIdsBefore : jobIdsAfter).add(labels.get("job_id"));
        }
      }
    };
    s.play(raw, event - 30 * MINUTE, event + 45 * MINUTE);
    assertThat(raw.wentBack).isFalse();
    assertThat(raw.samples).isPositive();
    assertThat(stale).as("series that ended got a stale marker").isNotEmpty();
    switch (plan.lifecycle().get(0).kind()) {
      case REDEPLOY -> assertThat(jobIdsAfter).doesNotContainAnyElementsOf(jobIdsBefore);
      case SUBMIT -> assertThat(jobIdsBefore).isEmpty();
      default -> assertThat(jobIdsAfter).isEqualTo(jobIdsBefore);
    }
    if (plan.lifecycle().get(0).kind() == JobPlan.Lifecycle.Kind.SUBMIT) {
      List<Double> failed = raw.values("flink_jobmanager_job_numberOfFailedCheckpoints",
          event, event + 45 * MINUTE);
      assertThat(failed).as("the first checkpoints are declined while tasks deploy")
          .isNotEmpty().anyMatch(v -> v >= 1);
      assertThat(raw.values("flink_jobmanager_job_lastCheckpointDuration", event,
          event + 45 * MINUTE)).contains(-1.0);
    }
  }

  @Test
  void everyEmittedMetricIsOneTheServiceKeeps() {
    SignalCatalog catalog = SignalCatalog.defaults();
    Set<String> names = new HashSet<>();
    for (Layout.Kind k : Layout.Kind.values()) {
      small(3, k).play((l, ts, v) -> names.add(l.metricName()), 0, Long.MAX_VALUE);
    }
    assertThat(names).hasSizeGreaterThan(25)
        .allSatisfy(n -> assertThat(catalog.ruleFor(n)).as(n).isNotNull());
  }

  static List<String> digest(Family2Scenario s) {
    ScenarioManifest.Entry e = s.truth();
    List<String> out = new ArrayList<>();
    long[] last = {Long.MIN_VALUE};
    s.play((l, ts, v) -> {
      assertThat(ts).isGreaterThanOrEqualTo(last[0]);
      last[0] = ts;
      out.add(l.hashCode() + ":" + ts + ":" + Double.doubleToRawLongBits(v));
    }, e.startMs(), e.startMs() + 40 * MINUTE);
    return out;
  }
}
