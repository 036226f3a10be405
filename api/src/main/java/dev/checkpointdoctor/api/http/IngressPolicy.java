package dev.checkpointdoctor.api.http;

import dev.checkpointdoctor.api.ingest.SampleScreen;
import dev.checkpointdoctor.api.ingest.ShardFilter;
import java.time.Duration;

/**
 * Who may do what, and which samples get in: credentials for the write endpoint and for the
 * rest, the sample screen, the per-request sample limit, and which jobs' series this shard
 * keeps.
 */
public record IngressPolicy(Credentials write, Credentials api, SampleScreen screen,
    int maxSamplesPerRequest, ShardFilter shard) {

  /**
   * No credentials, the default screen (10m future skew, no age bound), 1,000,000 samples, every
   * job kept.
   */
  public static IngressPolicy open() {
    return new IngressPolicy(Credentials.NONE, Credentials.NONE,
        new SampleScreen(System::currentTimeMillis, Duration.ofMinutes(10), null), 1_000_000,
        ShardFilter.none());
  }
}
