package dev.checkpointdoctor.ingest.remotewrite;

/**
 * A remote-write request that must be rejected as a whole. Stackless: it is thrown for bad client
 * input on the hot path, and the message (what and where) is all a caller needs.
 */
public final class RemoteWriteException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the request is rejected, with the HTTP status a server should answer. */
  public enum Kind {
    /** The body is not a valid remote-write 1.0 request: 400, never retried by Prometheus. */
    MALFORMED(400),
    /** The body exceeds a configured size limit: 413. */
    TOO_LARGE(413);

    private final int httpStatus;

    Kind(int httpStatus) {
      this.httpStatus = httpStatus;
    }

    public int httpStatus() {
      return httpStatus;
    }
  }

  private final Kind kind;

  public RemoteWriteException(Kind kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  static RemoteWriteException malformed(String message) {
    return new RemoteWriteException(Kind.MALFORMED, message);
  }

  static RemoteWriteException tooLarge(String message) {
    return new RemoteWriteException(Kind.TOO_LARGE, message);
  }

  public Kind kind() {
    return kind;
  }

  public int httpStatus() {
    return kind.httpStatus();
  }
}
