package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.model.Labels;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The route a label set remembers is its router's own and equals the route by contents. */
class ShardRouterTest {
  private static Labels series(String job) {
    return Labels.of("__name__", "flink_jobmanager_job_lastCheckpointDuration", "job_name", job,
        "cluster", "eu-1");
  }

  @Test
  void aRememberedRouteIsTheRouteOfAnEqualFreshLabelSet() {
    ShardRouter router = new ShardRouter(7);
    for (int j = 0; j < 200; j++) {
      Labels once = series("orders_" + j);
      int first = router.route(once);
      assertThat(once.routeMemo()).isNotZero(); // remembered
      assertThat(router.route(once)).isEqualTo(first)
          .isEqualTo(router.route(series("orders_" + j)));
      assertThat(first).isEqualTo(router.shardOf("orders_" + j));
    }
    Labels node = Labels.of("__name__", "node_disk_io_time_seconds_total", "instance", "h:9100");
    assertThat(router.route(node)).isEqualTo(ShardRouter.BROADCAST);
    assertThat(router.route(node)).isEqualTo(ShardRouter.BROADCAST);
  }

  @Test
  void routersOfOtherShardCountsOrIdentitiesDoNotReadEachOthersMemo() {
    ShardRouter three = new ShardRouter(3);
    ShardRouter five = new ShardRouter(5);
    ShardRouter byCluster = new ShardRouter(5, new JobIdentity(List.of("cluster")));
    for (int j = 0; j < 200; j++) {
      Labels shared = series("job_" + j);
      int a = three.route(shared);
      int b = five.route(shared);
      int c = byCluster.route(shared);
      assertThat(three.route(shared)).isEqualTo(a).isEqualTo(three.shardOf("job_" + j));
      assertThat(five.route(shared)).isEqualTo(b).isEqualTo(five.shardOf("job_" + j));
      assertThat(byCluster.route(shared)).isEqualTo(c)
          .isEqualTo(byCluster.shardOf(byCluster.jobKey(shared)));
    }
  }
}
