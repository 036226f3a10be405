package dev.checkpointdoctor.api.bootstrap;

import java.util.Locale;

/**
 * Why history could not be read, or only in part. Each is counted in {@code
 * checkpoint_doctor_bootstrap_problems_total{reason}} and logged the first time it happens; the
 * job concerned keeps whatever history it already read and learns live from there.
 */
public enum Problem {
  /** Connection refused, unknown host, TLS handshake failed. The source counts as down. */
  UNREACHABLE(true, "cannot reach"),
  /** No complete answer within --bootstrap-timeout. The source counts as down. */
  TIMEOUT(true, "no answer within the timeout from"),
  /** 401 or 403: the credentials are missing or wrong. The source counts as down. */
  UNAUTHORIZED(true, "credentials refused by"),
  /** 404: no Prometheus query API under that URL (a missing path prefix). The source counts as down. */
  NOT_FOUND(true, "no Prometheus query API at"),
  /** Any other 4xx, or a JSON answer with status "error" (a query the server refuses). */
  REJECTED(false, "query refused by"),
  /** 5xx. */
  SERVER_ERROR(false, "server error from"),
  /** Not the JSON the Prometheus API answers. */
  BAD_RESPONSE(false, "unexpected answer from"),
  /** Data with warnings (Thanos partial response, a store that failed): not used from there on. */
  PARTIAL(false, "partial answer (warnings) from"),
  /** The window reaches back further than the server keeps data. */
  RETENTION(false, "history shorter than --bootstrap-window at"),
  /** Live samples arrived while the hold was full (--bootstrap-hold-samples). */
  HOLD_FULL(false, "hold of live samples full while bootstrapping from");

  private final boolean sourceDown;
  private final String phrase;

  Problem(boolean sourceDown, String phrase) {
    this.sourceDown = sourceDown;
    this.phrase = phrase;
  }

  /** Whether every further query would fail the same way, so none is tried for a while. */
  public boolean sourceDown() {
    return sourceDown;
  }

  /** How log lines start: "cannot reach http://prom:9090". */
  String phrase() {
    return phrase;
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** A failed or partial read: the problem and what the server or the client said. */
  public static final class Failure extends Exception {
    private final Problem problem;

    public Failure(Problem problem, String detail) {
      super(detail, null, false, false);
      this.problem = problem;
    }

    public Problem problem() {
      return problem;
    }
  }
}
