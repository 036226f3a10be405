package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The manifest says when a burst-credit disk's extra demand began to drain it, and that is when
 * the simulated disk's I/O rises: the report names anomalies on that rise apart.
 */
class DiskDrainManifestTest {

  @Test
  void theDrainRiseInTheManifestIsWhenTheThrottledDisksIoRises() {
    int checked = 0;
    for (GeneratedScenario s : new Family1().scenarios(2)) {
      ScenarioManifest.Entry t = s.truth();
      Long rise = t.shape().getLong("demandRiseAtMs");
      if (!"disk_throttling".equals(t.expected())) {
        assertThat(rise).as(t.name()).isNull();
        continue;
      }
      assertThat(rise).as(t.name()).isBetween(t.faultStartMs() - 4 * 3_600_000L,
          t.faultStartMs() - 3_600_000L);
      // completed I/Os per node: the hour before the rise against the hour after it settled
      long[] window = {rise - 3_600_000L, rise, rise + 600_000L, rise + 3_600_000L};
      Map<String, double[]> at = new HashMap<>();
      s.play((Labels l, long ts, double v) -> {
        if (!l.get(Labels.METRIC_NAME).equals("node_disk_writes_completed_total")) {
          return;
        }
        double[] a = at.computeIfAbsent(l.get("instance"), k -> new double[] {
            Double.NaN, Double.NaN, Double.NaN, Double.NaN});
        for (int i = 0; i < window.length; i++) {
          if (ts <= window[i]) {
            a[i] = v; // the last value at or before each edge
          }
        }
      });
      double most = 0;
      for (double[] a : at.values()) {
        double before = (a[1] - a[0]) / 3600;
        double after = (a[3] - a[2]) / 3000;
        most = Math.max(most, after / before);
      }
      assertThat(most).as("%s: write IOPS after the rise over before", t.name())
          .isGreaterThan(1.5);
      checked++;
    }
    assertThat(checked).isEqualTo(2);
  }
}
