package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignalBookTest {
  private final SignalBook book = new SignalBook(DetectorSettings.defaults(),
      new UnknownCauseDiagnoser(), List.of());

  private int observations(String job, Signal signal, String scope) {
    return book.baselines(job).stream()
        .filter(b -> b.signal() == signal && b.scope().equals(scope))
        .mapToInt(BaselineSummary::observations).findFirst().orElse(0);
  }

  @Test
  void aHintForAnotherJobSignalOrScopeIsNotUsed() {
    String scope = "task:map/0";
    SignalBook.Entry a = book.observe(new Observation("a", Signal.BUSY, scope, 1000, 1), null);
    SignalBook.Entry b = book.observe(new Observation("b", Signal.BUSY, scope, 1000, 1), a);
    SignalBook.Entry c = book.observe(new Observation("b", Signal.BACKPRESSURE, scope, 1000, 1),
        b);
    SignalBook.Entry d = book.observe(new Observation("b", Signal.BACKPRESSURE, "task:map/1",
        1000, 1), c);
    assertThat(List.of(a, b, c, d)).doesNotHaveDuplicates();
    assertThat(book.observe(new Observation("a", Signal.BUSY, scope, 2000, 1), d)).isSameAs(a);
    assertThat(book.observe(new Observation("b", Signal.BUSY, scope, 2000, 1), b)).isSameAs(b);
    assertThat(observations("a", Signal.BUSY, scope)).isEqualTo(2);
    assertThat(observations("b", Signal.BUSY, scope)).isEqualTo(2);
    assertThat(observations("b", Signal.BACKPRESSURE, scope)).isEqualTo(1);
    assertThat(observations("b", Signal.BACKPRESSURE, "task:map/1")).isEqualTo(1);
    assertThat(book.size()).isEqualTo(4);
  }

  @Test
  void equalStringsThatAreOtherInstancesFindTheSameEntry() {
    String scope = "task:map/0";
    SignalBook.Entry a = book.observe(new Observation("a", Signal.BUSY, scope, 1000, 1), null);
    // equal content, other instances: the hint's reference check fails, the lookup finds it
    String job = new String("a");
    String sameScope = new String(scope);
    assertThat(book.observe(new Observation(job, Signal.BUSY, sameScope, 2000, 1), a))
        .isSameAs(a);
    assertThat(book.observe(new Observation(job, Signal.BUSY, sameScope, 3000, 1), null))
        .isSameAs(a);
    assertThat(observations("a", Signal.BUSY, scope)).isEqualTo(3);
    assertThat(book.size()).isEqualTo(1);
  }
}
