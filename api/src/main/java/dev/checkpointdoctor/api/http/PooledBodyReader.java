package dev.checkpointdoctor.api.http;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayDeque;

/**
 * Reads a request body into a byte array borrowed from a pool of the event loop's thread, hands
 * it to a {@link Body} handler, and takes the array back once that handler returns.
 *
 * <p>Vert.x's {@code BodyHandler} allocates a fresh, zeroed buffer for every body; at the ingest
 * rates of a remote-write receiver (thousands of ~24 KiB bodies a second) that allocation was a
 * sixth of the event loops' time. A write body is decoded synchronously and nothing keeps its
 * bytes, so one array per body in flight is enough. Arrays are per thread because request
 * handlers of a connection always run on its event loop; several connections of one loop can
 * have bodies in flight at once, hence a small pool rather than one array.
 *
 * <p>Same limits as {@code BodyHandler}: a {@code Content-Length} over the limit, or a body that
 * grows past it, fails the request with 413 and the rest of the body is discarded.
 */
final class PooledBodyReader implements Handler<RoutingContext> {
  /** Receives a whole body; {@code bytes} is only valid until it returns. */
  interface Body {
    void handle(RoutingContext ctx, byte[] bytes, int length);
  }

  /** Arrays kept per thread; more bodies in flight than this allocate and are not kept. */
  private static final int KEPT_PER_THREAD = 8;
  /** Larger arrays (rare, huge bodies) are not kept, so the pool stays small. */
  private static final int LARGEST_KEPT = 1 << 20;
  private static final int FIRST_SIZE = 64 * 1024;

  private static final ThreadLocal<ArrayDeque<byte[]>> POOL =
      ThreadLocal.withInitial(ArrayDeque::new);

  private final long limit;
  private final Body body;

  PooledBodyReader(long limit, Body body) {
    if (limit < 1 || limit > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("body limit " + limit + " not in [1, 2^31 - 9]");
    }
    this.limit = limit;
    this.body = body;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    long declared = contentLength(request);
    if (declared > limit) {
      ctx.fail(413);
      return;
    }
    String expect = request.getHeader(HttpHeaders.EXPECT);
    if (expect != null) {
      if (!expect.equalsIgnoreCase("100-continue")) {
        ctx.fail(417);
        return;
      }
      if (request.version() != HttpVersion.HTTP_1_0) {
        ctx.response().writeContinue();
      }
    }
    if (request.isEnded()) {
      // Nothing left to read (the router paused the request before any handler ran, so this
      // only happens for a request without a body).
      read(ctx, declared > 0 ? declared : 0).end();
      return;
    }
    Reading reading = read(ctx, declared > 0 ? declared : FIRST_SIZE);
    request.handler(reading::chunk).endHandler(v -> reading.end())
        .exceptionHandler(reading::broken).resume();
  }

  private Reading read(RoutingContext ctx, long sizeHint) {
    return new Reading(ctx, borrow((int) Math.min(sizeHint, limit)));
  }

  private static long contentLength(HttpServerRequest request) {
    String value = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (value == null) {
      return -1;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return -1; // Vert.x's HTTP decoder refuses such a request before it gets here
    }
  }

  /** An array of at least {@code size} bytes: a kept one if it fits, else a new one. */
  private static byte[] borrow(int size) {
    ArrayDeque<byte[]> pool = POOL.get();
    for (int i = pool.size(); i > 0; i--) {
      byte[] a = pool.pollFirst();
      if (a.length >= size) {
        return a;
      }
      pool.addLast(a);
    }
    // Rounded up so that bodies of similar size fit each other's arrays: with exact sizes a
    // body a little larger than every kept array allocated again, every time.
    return new byte[(int) Math.min(Integer.MAX_VALUE - 8,
        Math.max(FIRST_SIZE, Long.highestOneBit(Math.max(1, size) - 1L) << 1))];
  }

  private static void giveBack(byte[] array) {
    ArrayDeque<byte[]> pool = POOL.get();
    if (array.length <= LARGEST_KEPT && pool.size() < KEPT_PER_THREAD) {
      pool.addFirst(array);
    }
  }

  private final class Reading {
    private final RoutingContext ctx;
    private byte[] bytes;
    private int length;
    private boolean failed;

    Reading(RoutingContext ctx, byte[] bytes) {
      this.ctx = ctx;
      this.bytes = bytes;
    }

    void chunk(Buffer chunk) {
      if (failed) {
        return;
      }
      int n = chunk.length();
      if (length + (long) n > limit) {
        failed = true;
        giveBack(bytes);
        bytes = null;
        ctx.fail(413);
        return;
      }
      if (length + n > bytes.length) {
        // Only without (or with a wrong) Content-Length: grow like a list, up to the limit.
        byte[] grown = new byte[(int) Math.min(limit, Math.max(length + n, 2L * bytes.length))];
        System.arraycopy(bytes, 0, grown, 0, length);
        giveBack(bytes);
        bytes = grown;
      }
      chunk.getBytes(0, n, bytes, length);
      length += n;
    }

    /** The connection broke mid-body (as BodyHandler does: the route fails, nothing is kept). */
    void broken(Throwable cause) {
      if (!failed) {
        failed = true;
        bytes = null;
        ctx.fail(cause);
      }
    }

    void end() {
      if (failed) {
        return;
      }
      byte[] b = bytes;
      bytes = null;
      try {
        body.handle(ctx, b, length);
      } finally {
        giveBack(b);
      }
    }
  }
}
