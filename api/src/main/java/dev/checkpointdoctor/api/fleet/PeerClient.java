package dev.checkpointdoctor.api.fleet;

import dev.checkpointdoctor.api.http.Credentials;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemTrustOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;

/**
 * Asks a peer for its own part of a list ({@code ?local=true}), without blocking: Vert.x'
 * client on the event loop, a deadline for the whole answer, and this instance's API credentials
 * (every instance of a fleet is given the same ones). With TLS, peers are reached over HTTPS and
 * trusted when they present this instance's own certificate (a fleet shares one); host names
 * are not checked, as peers found through DNS are addresses.
 */
public final class PeerClient implements AutoCloseable {
  /** Largest answer read from a peer. */
  static final int MAX_ANSWER_BYTES = 64 << 20;

  private final Vertx vertx;
  private final HttpClient client;
  private final Duration timeout;
  private final String authorization;

  public PeerClient(Vertx vertx, Duration timeout, Credentials api, Path tlsCert)
      throws IOException {
    this.vertx = vertx;
    this.timeout = timeout;
    this.authorization = authorization(api);
    HttpClientOptions options = new HttpClientOptions()
        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
        .setKeepAlive(true);
    if (tlsCert != null) {
      options.setSsl(true).setVerifyHost(false)
          .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(
              firstPemBlock(Files.readString(tlsCert)))));
    }
    this.client = vertx.createHttpClient(options);
  }

  static String authorization(Credentials api) {
    if (api == null || !api.required()) {
      return null;
    }
    if (api.bearerToken() != null) {
      return "Bearer " + api.bearerToken();
    }
    return "Basic " + Base64.getEncoder().encodeToString((api.basicUser() + ":"
        + api.basicPassword()).getBytes(StandardCharsets.UTF_8));
  }

  /** The leaf certificate: trusting a chain's CA would trust every certificate it signed. */
  static String firstPemBlock(String pem) {
    String end = "-----END CERTIFICATE-----";
    int start = pem.indexOf("-----BEGIN CERTIFICATE-----");
    int stop = pem.indexOf(end, Math.max(start, 0));
    if (start < 0 || stop < 0) {
      throw new IllegalArgumentException("no PEM certificate found");
    }
    return pem.substring(start, stop + end.length()) + "\n";
  }

  /**
   * GETs {@code pathAndQuery} from the peer; fails with a short reason on a connection error, a
   * status other than 200, an answer that is not a JSON object, or no answer within the timeout.
   */
  public Future<JsonObject> get(URI peer, String pathAndQuery) {
    Promise<JsonObject> result = Promise.promise();
    long timer = vertx.setTimer(timeout.toMillis(), id -> result.tryFail(
        "no answer within " + timeout.toMillis() + " ms (--peer-timeout)"));
    RequestOptions request = new RequestOptions().setMethod(HttpMethod.GET)
        .setAbsoluteURI(peer.toString() + pathAndQuery)
        .setConnectTimeout(timeout.toMillis())
        .setIdleTimeout(timeout.toMillis());
    if (authorization != null) {
      request.putHeader("Authorization", authorization);
    }
    client.request(request)
        .compose(req -> req.send())
        .compose(resp -> {
          if (resp.statusCode() != 200) {
            return resp.body().transform(body -> Future.failedFuture("answered "
                + resp.statusCode() + (body.succeeded() ? ": " + brief(body.result()) : "")));
          }
          String length = resp.getHeader("Content-Length");
          if (length != null && Long.parseLong(length.trim()) > MAX_ANSWER_BYTES) {
            return Future.failedFuture("answer larger than " + MAX_ANSWER_BYTES + " bytes");
          }
          return resp.body().map(Buffer::toJsonObject);
        })
        .onComplete(ar -> {
          vertx.cancelTimer(timer);
          if (ar.succeeded()) {
            result.tryComplete(ar.result());
          } else {
            result.tryFail(reason(ar.cause()));
          }
        });
    return result.future();
  }

  private static String brief(Buffer body) {
    String s = body.toString(StandardCharsets.UTF_8).strip();
    return s.length() > 200 ? s.substring(0, 200) + "…" : s;
  }

  private static String reason(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
  }

  @Override
  public void close() {
    client.close();
  }
}
