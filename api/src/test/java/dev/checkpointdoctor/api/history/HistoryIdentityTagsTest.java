package dev.checkpointdoctor.api.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** With --job-identity-labels, history points are tagged with the identity labels. */
class HistoryIdentityTagsTest {
  static final long T = 1_796_000_000_000L;

  @Test
  void pointsCarryTheKeyAsJobAndEachIdentityLabelAsATag() {
    JobIdentity identity = new JobIdentity(List.of("cluster", "scope"));
    String line = HistoryPoints.of(new Evaluation("eu-1/x/orders", Signal.CHECKPOINT_DURATION,
        "job", T, 5000, 1000, 750, 1250, 12.5, true, true), identity)
        .lineProtocol(TimeUnit.MILLISECONDS);
    // "scope" is the schema's own tag: the identity value does not replace it
    assertThat(line).startsWith("signal,cluster=eu-1,job=eu-1/x/orders,scope=job,"
        + "signal=checkpoint_duration ");
  }
}
