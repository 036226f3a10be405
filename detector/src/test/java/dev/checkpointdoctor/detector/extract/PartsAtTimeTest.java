package dev.checkpointdoctor.detector.extract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link PartsAtTime}: values of several series at one timestamp, in time order. */
class PartsAtTimeTest {
  final List<String> done = new ArrayList<>();

  void collect(PartsAtTime.Slot s) {
    done.add(s.ts + ":" + (s.values[0] + s.values[1]));
  }

  @Test
  void completeTimestampsAreHandedOnInTimeOrderWhateverTheArrival() {
    PartsAtTime p = new PartsAtTime(2, 3, 60_000);
    p.add(0, 10, 0, 1, true, this::collect);
    p.add(0, 20, 10, 2, true, this::collect);
    p.add(0, 30, 20, 3, true, this::collect);
    assertThat(done).isEmpty(); // member 1 lags
    p.add(1, 20, 10, 20, true, this::collect); // 10 can never complete now: given up
    assertThat(done).containsExactly("20:22.0");
    p.add(1, 30, 20, 30, true, this::collect);
    assertThat(done).containsExactly("20:22.0", "30:33.0");
  }

  @Test
  void misalignedOrUnusablePartsSpoilTheirTimestamp() {
    PartsAtTime p = new PartsAtTime(2, 3, 60_000);
    p.add(0, 20, 10, 1, true, this::collect);
    p.add(1, 20, 5, 1, true, this::collect); // a difference over another interval
    p.add(0, 30, 20, 1, false, this::collect); // a counter reset
    p.add(1, 30, 20, 1, true, this::collect);
    p.add(0, 40, 30, 1, true, this::collect);
    p.add(1, 40, 30, 1, true, this::collect);
    assertThat(done).containsExactly("40:2.0");
  }

  @Test
  void anEndedMemberOrTheDeliveryLagReleasesWaitingTimestamps() {
    PartsAtTime p = new PartsAtTime(2, 3, 60_000);
    p.add(1, 5, 0, 1, true, this::collect);
    p.add(0, 10, 0, 1, true, this::collect); // 5 is given up: member 0 moved past it
    assertThat(p.pending()).isEqualTo(1);
    p.end(1, this::collect); // 10 waited for member 1, which ended
    assertThat(p.pending()).isZero();
    assertThat(done).isEmpty();
    PartsAtTime q = new PartsAtTime(2, 0, 60_000); // whichever members are live
    q.add(0, 10, 0, 1, true, this::collect);
    q.add(1, 20, 10, 2, true, this::collect);
    q.add(0, 20, 10, 1, true, this::collect);
    q.add(0, 30, 20, 1, true, this::collect);
    q.add(0, 100_000, 30, 1, true, this::collect); // member 1 silent for over a minute
    assertThat(done).containsExactly("10:1.0", "20:3.0");
    assertThat(q.pending()).isEqualTo(1); // 100000 waits for member 1 still
  }
}
