package dev.checkpointdoctor.api.flinkrest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.facts.CheckpointConfig;
import dev.checkpointdoctor.detector.facts.JobFacts;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlinkFactsStoreTest {
  private static JobFacts facts(String name, String jobId, String endpoint) {
    return new JobFacts(name, jobId, endpoint, 0, new CheckpointConfig(600_000, 60_000, 0, 1,
        false, "exactly_once", "rocksdb", "filesystem", "s3://b/cp", "s3", List.of()), null);
  }

  @Test
  void aJobKeyWithIdentityLabelsFindsTheJobByItsName() {
    FlinkFactsStore store = new FlinkFactsStore();
    store.put("http://jm-eu:8081", facts("orders_etl", "a1", "http://jm-eu:8081"));
    assertThat(store.facts("orders_etl").jobId()).isEqualTo("a1");
    assertThat(store.facts("eu-1/orders_etl").jobId()).isEqualTo("a1");
    assertThat(store.facts("eu-1/payments")).isNull();
  }

  @Test
  void theSameNameOnTwoJobManagersIsAmbiguous() {
    FlinkFactsStore store = new FlinkFactsStore();
    store.put("http://jm-eu:8081", facts("orders_etl", "a1", "http://jm-eu:8081"));
    store.put("http://jm-us:8081", facts("orders_etl", "b2", "http://jm-us:8081"));
    assertThat(store.facts("eu-1/orders_etl")).isNull();
  }
}
