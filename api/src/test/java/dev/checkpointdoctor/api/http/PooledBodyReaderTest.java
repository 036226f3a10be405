package dev.checkpointdoctor.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The write path's body reader, on a server with one event loop so that every connection shares
 * one thread's pool of arrays: each body must arrive whole and unmixed however requests
 * interleave, and the limit must hold with and without Content-Length.
 */
class PooledBodyReaderTest {
  private static final int LIMIT = 256 * 1024;

  private Vertx vertx;
  private HttpServer server;
  private int port;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    Router router = Router.router(vertx);
    // Answers the body's length and SHA-256, computed while the body handler holds the array.
    router.post("/echo").handler(new PooledBodyReader(LIMIT, (ctx, bytes, length) ->
        ctx.response().end(length + " " + sha256(bytes, length))));
    router.route().failureHandler(ctx -> ctx.response().setStatusCode(ctx.statusCode()).end());
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
        .await(10, TimeUnit.SECONDS);
    port = server.actualPort();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void interleavedBodiesOnOneEventLoopArriveWholeAndUnmixed() throws Exception {
    Random random = new Random(7);
    List<byte[]> bodies = new ArrayList<>();
    List<Socket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        byte[] body = new byte[20_000 + 9_000 * i];
        random.nextBytes(body);
        bodies.add(body);
        Socket s = new Socket("127.0.0.1", port);
        sockets.add(s);
        OutputStream out = s.getOutputStream();
        out.write(("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length
            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body, 0, body.length / 2);
        out.flush();
      }
      // Second halves in reverse order: all four bodies are in flight on the one loop at once.
      for (int i = 3; i >= 0; i--) {
        byte[] body = bodies.get(i);
        OutputStream out = sockets.get(i).getOutputStream();
        out.write(body, body.length / 2, body.length - body.length / 2);
        out.flush();
      }
      for (int i = 0; i < 4; i++) {
        Response r = readResponse(sockets.get(i).getInputStream());
        assertThat(r.status).isEqualTo(200);
        assertThat(r.body).isEqualTo(bodies.get(i).length + " " + sha256(bodies.get(i),
            bodies.get(i).length));
      }
      // The same connections again: pooled arrays come back with the previous bodies' bytes in
      // them, and shorter bodies must not see any of those.
      for (int i = 0; i < 4; i++) {
        byte[] body = ("short body " + i).getBytes(StandardCharsets.US_ASCII);
        Response r = post(sockets.get(i), body, false);
        assertThat(r.body).isEqualTo(body.length + " " + sha256(body, body.length));
      }
    } finally {
      for (Socket s : sockets) {
        s.close();
      }
    }
  }

  @Test
  void chunkedBodyWithoutContentLengthGrowsPastTheFirstArray() throws Exception {
    byte[] body = new byte[200_000]; // over the 64 KiB first guess, under the limit
    new Random(3).nextBytes(body);
    try (Socket s = new Socket("127.0.0.1", port)) {
      Response r = post(s, body, true);
      assertThat(r.status).isEqualTo(200);
      assertThat(r.body).isEqualTo(body.length + " " + sha256(body, body.length));
    }
  }

  @Test
  void declaredLengthOverTheLimitIs413() throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.getOutputStream().write(("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: "
          + (LIMIT + 1) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      assertThat(readResponse(s.getInputStream()).status).isEqualTo(413);
    }
  }

  @Test
  void chunkedBodyGrowingOverTheLimitIs413() throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      Response r = post(s, new byte[LIMIT + 1], true);
      assertThat(r.status).isEqualTo(413);
    }
  }

  @Test
  void emptyBodyIsHandedOverAsEmpty() throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      Response r = post(s, new byte[0], false);
      assertThat(r.body).isEqualTo("0 " + sha256(new byte[0], 0));
    }
  }

  private static Response post(Socket s, byte[] body, boolean chunked) throws IOException {
    OutputStream out = s.getOutputStream();
    if (chunked) {
      out.write("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      for (int off = 0; off < body.length; off += 4096) {
        int n = Math.min(4096, body.length - off);
        out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body, off, n);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    } else {
      out.write(("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length
          + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body);
    }
    out.flush();
    return readResponse(s.getInputStream());
  }

  private record Response(int status, String body) {}

  /** Reads one HTTP/1.1 response with a Content-Length (what Vert.x sends for these). */
  private static Response readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed in the response head: " + head);
      }
      head.write(b);
    }
    String[] lines = head.toString(StandardCharsets.US_ASCII).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    int length = 0;
    for (String line : lines) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring("content-length:".length()).trim());
      }
    }
    return new Response(status, new String(in.readNBytes(length), StandardCharsets.US_ASCII));
  }

  private static String sha256(byte[] bytes, int length) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(bytes, 0, length);
      return HexFormat.of().formatHex(d.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
