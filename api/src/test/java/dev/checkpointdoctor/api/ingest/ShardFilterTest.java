package dev.checkpointdoctor.api.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.shard.Hashmod;
import dev.checkpointdoctor.api.shard.ShardSpec;
import dev.checkpointdoctor.detector.model.MetricNameFilter;
import dev.checkpointdoctor.ingest.remotewrite.DecodeLimits;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteDecoder;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class ShardFilterTest {
  static String jobOn(int shard, String prefix) {
    for (int i = 0; ; i++) {
      if (Hashmod.of(prefix + i, 2) == shard) {
        return prefix + i;
      }
    }
  }

  static DecodedWrite write(String... jobNames) {
    List<RemoteWriteTestEncoder.Proto> series = new ArrayList<>();
    for (String job : jobNames) {
      String[] labels = job == null
          ? new String[] {"__name__", "node_disk_writes_completed_total", "instance", "h:9100"}
          : new String[] {"__name__", "flink_jobmanager_job_lastCheckpointDuration",
              "job_name", job};
      series.add(RemoteWriteTestEncoder.series(labels, new long[] {1, 2}, new double[] {1, 2}));
    }
    byte[] body = RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(
        series.toArray(RemoteWriteTestEncoder.Proto[]::new)));
    return new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL)
        .decode(body, 0, body.length);
  }

  @Test
  void keepsItsOwnJobsAndSeriesOfNoJobAndLogsEachForeignJobOnce() {
    String mine = jobOn(0, "mine-");
    String theirs = jobOn(1, "theirs-");
    ShardFilter filter = new ShardFilter(ShardSpec.parse("0/2", List.of("job_name")));
    List<String> logged = new ArrayList<>();
    Logger logger = Logger.getLogger(ShardFilter.class.getName());
    Handler h = new Handler() {
      @Override
      public void publish(LogRecord r) {
        logged.add(r.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(h);
    try {
      DecodedWrite w = write(mine, theirs, null, theirs);
      assertThat(filter.apply(w)).isEqualTo(4);
      assertThat(w.series()).extracting(s -> s.labels().get("job_name"))
          .containsExactly(mine, null);
      assertThat(filter.apply(write(theirs, mine))).isEqualTo(2);
    } finally {
      logger.removeHandler(h);
    }
    assertThat(logged).singleElement().asString().contains("\"" + theirs + "\"",
        "belongs to shard 1/2", "this instance is shard 0/2", "not_this_shard",
        "deploy remote-write --shards 2");
  }

  @Test
  void unshardedKeepsEverything() {
    DecodedWrite w = write("a", "b", null);
    assertThat(ShardFilter.none().apply(w)).isZero();
    assertThat(w.acceptedSeriesCount()).isEqualTo(3);
  }
}
