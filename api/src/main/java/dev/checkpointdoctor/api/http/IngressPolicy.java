package dev.checkpointdoctor.api.http;

import dev.checkpointdoctor.api.ingest.SampleScreen;
import java.time.Duration;

/**
 * Who may do what, and which samples get in: credentials for the write endpoint and for the
 * rest, the sample screen, and the per-request sample limit.
 */
public record IngressPolicy(Credentials write, Credentials api, SampleScreen screen,
    int maxSamplesPerRequest) {

  /** No credentials, the default screen (10m future skew, no age bound), 1,000,000 samples. */
  public static IngressPolicy open() {
    return new IngressPolicy(Credentials.NONE, Credentials.NONE,
        new SampleScreen(System::currentTimeMillis, Duration.ofMinutes(10), null), 1_000_000);
  }
}
