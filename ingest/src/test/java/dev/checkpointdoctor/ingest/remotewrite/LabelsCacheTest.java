package dev.checkpointdoctor.ingest.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Labels;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LabelsCacheTest {
  private final LabelsCache cache = new LabelsCache();

  private static byte[] key(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void twoKeysWithTheSameHashAreBothKept() {
    Labels a = Labels.of("__name__", "a");
    Labels b = Labels.of("__name__", "b");
    cache.put(key("aaaa"), 0, 4, 42, a);
    cache.put(key("bbbb"), 0, 4, 42, b);
    assertThat(cache.get(key("aaaa"), 0, 4, 42)).isSameAs(a);
    assertThat(cache.get(key("bbbb"), 0, 4, 42)).isSameAs(b);
  }

  @Test
  void aThirdCollidingKeyEvictsTheNeighbourWayNeverAnswersWrongly() {
    Labels a = Labels.of("__name__", "a");
    Labels c = Labels.of("__name__", "c");
    cache.put(key("aaaa"), 0, 4, 42, a);
    cache.put(key("bbbb"), 0, 4, 42, Labels.of("__name__", "b"));
    cache.put(key("cccc"), 0, 4, 42, c);
    assertThat(cache.get(key("aaaa"), 0, 4, 42)).isSameAs(a);
    assertThat(cache.get(key("bbbb"), 0, 4, 42)).isNull();
    assertThat(cache.get(key("cccc"), 0, 4, 42)).isSameAs(c);
    assertThat(cache.get(key("dddd"), 0, 4, 42)).isNull();
  }
}
