package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.Feed.J;
import static dev.checkpointdoctor.detector.extract.Feed.S;
import static dev.checkpointdoctor.detector.extract.Feed.T0;
import static dev.checkpointdoctor.detector.extract.Feed.disk;
import static dev.checkpointdoctor.detector.extract.Feed.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.extract.Feed.In;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link NodeSignals}: node_exporter disks, joined to the jobs on the node at their time. */
class NodeSignalsTest {
  static final String[] L = {"instance", "10.0.0.5:9100", "job", "node", "device", "nvme0n1"};

  Feed f = new Feed();

  static In busy(long t, String tmId, String host) {
    return task("busyTimeMsPerSecond", "map", 0, t, 1, tmId, host);
  }

  @Test
  void diskRatesAndLatencyJoinedViaInstanceHost() {
    String[] loop = {"instance", "10.0.0.5:9100", "job", "node", "device", "loop3"};
    long t1 = T0 + 10 * S;
    long t2 = t1 + 10 * S;
    f.batch(busy(T0, "tm_1", "10_0_0_5"), // Flink sanitizes the host label
        disk("reads_completed_total", T0, 1000, L), disk("writes_completed_total", T0, 2000, L),
        disk("written_bytes_total", T0, 1e9, L), disk("io_time_seconds_total", T0, 100, L),
        disk("read_time_seconds_total", T0, 10, L), disk("write_time_seconds_total", T0, 30, L),
        disk("writes_completed_total", T0, 1, loop));
    f.take(Signal.BUSY);
    assertThat(f.out).isEmpty();
    f.batch(busy(t1, "tm_1", "10_0_0_5"), disk("write_time_seconds_total", t1, 32.5, L),
        disk("io_time_seconds_total", t1, 105.5, L), disk("writes_completed_total", t1, 4500, L),
        disk("written_bytes_total", t1, 1.524288e9, L), disk("read_time_seconds_total", t1, 10.5, L),
        disk("reads_completed_total", t1, 1500, L), disk("writes_completed_total", t1, 999, loop));
    f.take(Signal.BUSY);
    String scope = "node:10.0.0.5/nvme0n1";
    assertThat(f.out).containsExactly(
        // (105.5 - 100) s / 10 s = 0.55
        new Observation(J, Signal.DISK_UTILIZATION, scope, t1, 0.55, "instance_host"),
        // (4500 - 2000) / 10 s = 250
        new Observation(J, Signal.DISK_WRITE_IOPS, scope, t1, 250, "instance_host"),
        // 524288000 B / 10 s = 52428800 B/s
        new Observation(J, Signal.DISK_WRITE_BYTES, scope, t1, 52428800, "instance_host"),
        // (1500 - 1000) / 10 s = 50
        new Observation(J, Signal.DISK_READ_IOPS, scope, t1, 50, "instance_host"),
        // (0.5 + 2.5) s * 1000 / (500 + 2500) ops = 1 ms
        new Observation(J, Signal.DISK_LATENCY, scope, t1, 1.0, "instance_host"));
    f.out.clear();
    f.batch(busy(t2, "tm_1", "10_0_0_5"),
        disk("reads_completed_total", t2, 10, L), // counter reset (reboot): no rate, no latency
        disk("writes_completed_total", t2, 4500, L), disk("read_time_seconds_total", t2, 11, L),
        disk("write_time_seconds_total", t2, 33, L));
    f.take(Signal.BUSY);
    assertThat(f.out).containsExactly(
        new Observation(J, Signal.DISK_WRITE_IOPS, scope, t2, 0, "instance_host"));
    assertThat(f.x.unjoinedSamples()).isZero();
    assertThat(f.x.ignoredSamples()).isEqualTo(2); // the loop device
  }

  @Test
  void joinViaNodeLabelIpv6InstanceAndAlias() {
    f = new Feed(DetectorSettings.defaults().withHostAliases(Map.of("flink_host_a",
        "ip-10-1-2-3")));
    String[] byNode = {"instance", "192.168.1.1:9100", "node", "worker-1", "device", "sda"};
    String[] byV6 = {"instance", "[fd00::1]:9100", "device", "sdb"};
    String[] byAlias = {"instance", "ip-10-1-2-3:9100", "device", "xvda"};
    String[] none = {"instance", "elsewhere:9100", "device", "sdc"};
    long t1 = T0 + 10 * S;
    for (int i = 0; i < 2; i++) {
      long t = T0 + i * 10 * S;
      f.batch(task("busyTimeMsPerSecond", "map", 0, t, 1, "tm_1", "worker_1"),
          task("busyTimeMsPerSecond", "map", 1, t, 1, "tm_2", "fd00::1"),
          task("busyTimeMsPerSecond", "map", 2, t, 1, "tm_3", "flink_host_a"),
          disk("io_time_seconds_total", t, 4 * i, byNode),
          disk("io_time_seconds_total", t, 2 * i, byV6),
          disk("io_time_seconds_total", t, i, byAlias), disk("io_time_seconds_total", t, i, none));
    }
    f.take(Signal.BUSY);
    assertThat(f.out).containsExactly(
        new Observation(J, Signal.DISK_UTILIZATION, "node:worker-1/sda", t1, 0.4, "host_label"),
        new Observation(J, Signal.DISK_UTILIZATION, "node:fd00::1/sdb", t1, 0.2,
            "instance_host"),
        new Observation(J, Signal.DISK_UTILIZATION, "node:ip-10-1-2-3/xvda", t1, 0.1, "config"));
    assertThat(f.x.unjoinedSamples()).isEqualTo(2); // the two samples of elsewhere/sdc
    f.out.clear();
    // the unjoined disk kept its rate state: once a job runs there, the next sample joins
    long t2 = t1 + 10 * S;
    f.batch(task("busyTimeMsPerSecond", "map", 3, t2, 1, "tm_4", "elsewhere"),
        disk("io_time_seconds_total", t2, 4, none));
    f.take(Signal.BUSY);
    // (4 - 1) s / 10 s = 0.3
    assertThat(f.out).containsExactly(new Observation(J, Signal.DISK_UTILIZATION,
        "node:elsewhere/sdc", t2, 0.3, "instance_host"));
    assertThat(NodeSignals.instanceHost("[fd00::1]:9100")).isEqualTo("fd00::1");
    assertThat(NodeSignals.instanceHost("fd00::1")).isEqualTo("fd00::1");
    assertThat(NodeSignals.instanceHost("host-a")).isEqualTo("host-a");
  }

  @Test
  void aJobIsJoinedForTheTimeItRanOnTheNode() {
    String[] l = {"instance", "worker-1:9100", "device", "sda"};
    In t = busy(T0, "tm_1", "worker_1");
    In other = task("busyTimeMsPerSecond", "map", 0, T0, 1, "tm_9", "worker_9");
    f.batch(t, other);
    f.end(t.at(T0 + 25 * S, 0)); // the job leaves worker_1 (its scrape at 25 s found no task)
    // the node's samples arrive after the job's end, stamped before and after it
    for (int k = 0; k <= 4; k++) {
      f.put(disk("io_time_seconds_total", T0 + k * 10 * S, k, l));
    }
    f.batch(other.at(T0 + 40 * S, 1)); // the cluster's Flink series have reached 40 s
    f.take(Signal.BUSY);
    assertThat(f.take(Signal.DISK_UTILIZATION)).extracting(Observation::timestampMs)
        .containsExactly(T0 + 10 * S, T0 + 20 * S); // 30 s and 40 s are after it left
    assertThat(f.x.unjoinedSamples()).isEqualTo(2);
  }

  @Test
  void nodeSamplesAheadOfTheirFlinkSeriesWaitForThem() {
    List<In> flink = new ArrayList<>();
    List<In> node = new ArrayList<>();
    for (int k = 0; k < 6; k++) {
      long t = T0 + k * 15 * S;
      flink.add(busy(t, "tm_1", "10_0_0_5"));
      node.add(disk("io_time_seconds_total", t + 3 * S, 2.5 * k, L)); // its own scrape phase
      node.add(disk("writes_completed_total", t + 3 * S, 300 * k, L));
    }
    Feed ref = new Feed();
    for (int k = 0; k < 6; k++) {
      ref.batch(flink.get(k));
      ref.batch(node.get(2 * k), node.get(2 * k + 1));
    }
    // node_exporter's Prometheus is a minute and a half ahead: all node samples arrive first
    f.batch(node.toArray(new In[0]));
    assertThat(f.out).isEmpty();
    assertThat(f.x.pendingSamples()).isEqualTo(12);
    for (In in : flink) {
      f.batch(in);
    }
    assertThat(f.x.pendingSamples()).isEqualTo(2); // 78 s: the Flink series reached 75 s only
    assertThat(f.out).isEqualTo(ref.out); // the same observations as in-order delivery
    assertThat(f.take(Signal.DISK_UTILIZATION)).hasSize(4);
    assertThat(f.x.unjoinedSamples()).isZero();
  }

  @Test
  void withoutFlinkSeriesNodeSamplesAreCountedOnceTheDeliveryLagHasPassed() {
    f = new Feed(DetectorSettings.defaults(),
        DeliverySettings.defaults().withMaxDeliveryLag(Duration.ofMinutes(1)));
    for (int k = 0; k < 5; k++) {
      f.batch(disk("io_time_seconds_total", T0 + k * 20 * S, k, L));
    }
    // 80 s: the samples up to 19 s are more than a minute old and no Flink series came
    assertThat(f.x.unjoinedSamples()).isEqualTo(1);
    assertThat(f.x.pendingSamples()).isEqualTo(4);
    assertThat(f.out).isEmpty();
  }
}
