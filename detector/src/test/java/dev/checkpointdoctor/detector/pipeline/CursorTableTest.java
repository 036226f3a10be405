package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The detector's cursors are found by an equal label set, through growth and hash collisions. */
class CursorTableTest {

  /** Label sets whose hashes collide: "Aa" and "BB" hash alike, and so do their concatenations. */
  private static Labels colliding(int i) {
    StringBuilder v = new StringBuilder();
    for (int bit = 0; bit < 10; bit++) {
      v.append((i >> bit & 1) == 0 ? "Aa" : "BB");
    }
    return Labels.of("__name__", "m", "v", v.toString());
  }

  private static Labels plain(int i) {
    return Labels.of("__name__", "m", "subtask_index", Integer.toString(i));
  }

  @Test
  void findsEveryCursorByAnEqualLabelSetAfterGrowing() {
    CursorTable table = new CursorTable();
    List<SeriesCursor> added = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      SeriesCursor c = new SeriesCursor(null, null, i % 2 == 0 ? colliding(i) : plain(i));
      table.add(c);
      added.add(c);
    }
    assertThat(colliding(0).hashCode()).isEqualTo(colliding(2).hashCode());
    assertThat(table.size()).isEqualTo(1000);
    for (int i = 0; i < 1000; i++) {
      // a new instance, as a decoder builds: equal, not the same
      Labels asked = i % 2 == 0 ? colliding(i) : plain(i);
      assertThat(table.get(asked)).isSameAs(added.get(i));
    }
    assertThat(table.get(plain(1000))).isNull();
    assertThat(table.get(colliding(1000))).isNull();
  }
}
