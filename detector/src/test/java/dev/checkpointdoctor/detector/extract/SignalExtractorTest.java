package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.Feed.J;
import static dev.checkpointdoctor.detector.extract.Feed.S;
import static dev.checkpointdoctor.detector.extract.Feed.T0;
import static dev.checkpointdoctor.detector.extract.Feed.job;
import static dev.checkpointdoctor.detector.extract.Feed.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.extract.Feed.In;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@link SignalExtractor} facade: series state, dispatch to sources, job identity. */
class SignalExtractorTest {
  @Test
  void aTrackedSeriesGivesWhatTheLabelSetGives() {
    // job frames (whose job_id the tracked state keeps), a restart under a new job_id, task
    // gauges and a series that ends and comes back
    List<In> ins = new ArrayList<>();
    for (int k = 0; k < 12; k++) {
      long ts = T0 + k * 15 * S;
      String jobId = k < 6 ? "a1" : "b2";
      ins.add(job(jobId, "lastCheckpointDuration", ts, 1000 + 10 * k));
      ins.add(job(jobId, "lastCompletedCheckpointId", ts, k));
      ins.add(job(jobId, "numberOfFailedCheckpoints", ts, k / 3));
      ins.add(task("busyTimeMsPerSecond", ts, 100 + k));
      ins.add(task("checkpointStartDelayNanos", ts, k % 4 * 1e6));
    }
    SignalExtractor byLabels = new Feed().x;
    SignalExtractor byState = new Feed().x;
    // as the detector keeps them: opened, held by the caller, ended by the state
    SignalExtractor byCaller = new Feed().x;
    List<Observation> expected = new ArrayList<>();
    List<Observation> actual = new ArrayList<>();
    List<Observation> opened = new ArrayList<>();
    Map<Labels, SignalExtractor.Series> states = new HashMap<>();
    Map<Labels, SignalExtractor.Series> held = new HashMap<>();
    for (int i = 0; i < ins.size(); i++) {
      In in = ins.get(i);
      MetricRule r = Feed.CATALOG.ruleFor(in.name());
      if (i == 23) { // the busy series of the fifth scrape ends instead
        byLabels.onSeriesEnd(r, in.labels(), in.ts(), expected::add);
        byState.onSeriesEnd(r, in.labels(), in.ts(), actual::add);
        SignalExtractor.Series ended = states.remove(in.labels());
        byCaller.onSeriesEnd(held.remove(in.labels()), in.ts(), opened::add);
        assertThatThrownBy(() -> byState.onSample(ended, in.ts() + 1, 1, actual::add))
            .isInstanceOf(IllegalStateException.class);
        continue;
      }
      byLabels.onSample(r, in.labels(), in.ts(), in.value(), expected::add);
      SignalExtractor.Series s = states.computeIfAbsent(in.labels(), l -> byState.track(r, l));
      byState.onSample(s, in.ts(), in.value(), actual::add);
      byCaller.onSample(held.computeIfAbsent(in.labels(), l -> byCaller.open(r, l)), in.ts(),
          in.value(), opened::add);
      if (i % 5 == 4) {
        byLabels.flush(expected::add);
        byState.flush(actual::add);
        byCaller.flush(opened::add);
      }
    }
    assertThat(expected).extracting(Observation::signal).contains(Signal.CHECKPOINT_DURATION,
        Signal.BUSY, Signal.CHECKPOINT_START_DELAY, Signal.CHECKPOINT_FAILURES);
    assertThat(actual).isEqualTo(expected);
    assertThat(opened).isEqualTo(expected);
    assertThat(byState.restarts(J)).isEqualTo(byLabels.restarts(J)).hasSize(2);
    assertThat(byCaller.restarts(J)).isEqualTo(byLabels.restarts(J));
    assertThat(byCaller.trackedEntities()).isEqualTo(byLabels.trackedEntities());
    // an opened series is the caller's: the extractor keeps no state of its own by label set
    In busy = ins.get(3);
    SignalExtractor.Series kept = held.get(busy.labels());
    assertThat(byCaller.track(Feed.CATALOG.ruleFor(busy.name()), busy.labels()))
        .isNotSameAs(kept);
  }

  static In in(String cluster, In base) {
    Map<String, String> m = new HashMap<>(base.labels().toMap());
    m.put("cluster", cluster);
    return new In(base.name(), base.ts(), base.value(), Labels.fromMap(m));
  }

  @Test
  void clustersWithTheSameJobAndHostNamesStayApart() {
    Feed f = new Feed(DetectorSettings.defaults(),
        DeliverySettings.defaults().withJobIdentityLabels(List.of("cluster")));
    String[] disk = {"instance", "worker-1:9100", "device", "sda"};
    for (int k = 0; k < 3; k++) {
      long t = T0 + k * 10 * S;
      for (String c : List.of("eu-1", "us-1")) {
        double speed = c.equals("eu-1") ? 1 : 5;
        f.batch(in(c, job("a1", "numberOfFailedCheckpoints", t, k)),
            in(c, task("busyTimeMsPerSecond", "map", 0, t, 100 * speed, "tm_1", "worker_1")),
            in(c, Feed.disk("io_time_seconds_total", t, 0.1 * speed * k, disk)));
      }
    }
    assertThat(f.x.jobs()).containsExactly("eu-1/" + J, "us-1/" + J);
    assertThat(f.take(Signal.BUSY)).extracting(Observation::job, Observation::value)
        .containsOnly(org.assertj.core.groups.Tuple.tuple("eu-1/" + J, 100.0),
            org.assertj.core.groups.Tuple.tuple("us-1/" + J, 500.0));
    // each cluster's worker-1 is joined to that cluster's job only: 0.1 s/10 s, 0.5 s/10 s
    assertThat(f.take(Signal.DISK_UTILIZATION)).extracting(Observation::job, Observation::value)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("eu-1/" + J, 0.01),
            org.assertj.core.groups.Tuple.tuple("us-1/" + J, 0.05),
            org.assertj.core.groups.Tuple.tuple("eu-1/" + J, 0.01),
            org.assertj.core.groups.Tuple.tuple("us-1/" + J, 0.05));
    assertThat(f.take(Signal.CHECKPOINT_FAILURES)).extracting(Observation::job)
        .containsOnly("eu-1/" + J, "us-1/" + J).hasSize(6);
  }
}
