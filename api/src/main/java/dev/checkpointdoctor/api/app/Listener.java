package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.http.IngressPolicy;
import dev.checkpointdoctor.api.ingest.SampleScreen;
import dev.checkpointdoctor.api.ingest.ShardFilter;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.time.Clock;

/** How the HTTP server listens (plain or TLS) and whom and what it lets in. */
final class Listener {
  private Listener() {}

  static HttpServerOptions options(ServiceSettings s) {
    HttpServerOptions o = new HttpServerOptions().setHost(s.host()).setPort(s.port())
        .setDecompressionSupported(false);
    if (s.access().tls()) {
      o.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
          .setCertPath(s.access().tlsCert().toString())
          .setKeyPath(s.access().tlsKey().toString()));
    }
    return o;
  }

  static String scheme(ServiceSettings s) {
    return s.access().tls() ? "https" : "http";
  }

  static IngressPolicy policy(ServiceSettings s, Clock clock) {
    return new IngressPolicy(s.access().write(), s.access().api(),
        new SampleScreen(clock::millis, s.limits().maxFutureSkew(), s.limits().maxSampleAge()),
        s.limits().maxSamplesPerRequest(), new ShardFilter(s.fleet().shard()));
  }
}
