package dev.checkpointdoctor.api.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ListenersTest {
  @Test
  void connectionsAreSpreadOverOneEventLoopPerServerOnOnePort() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      Listeners listeners = Listeners.listen(vertx,
          new HttpServerOptions().setHost("127.0.0.1").setPort(0),
          req -> req.response().end(Thread.currentThread().getName()), 2);
      assertThat(listeners.count()).isEqualTo(2);
      assertThat(listeners.port()).isPositive();
      Set<String> threads = new HashSet<>();
      for (int i = 0; i < 4; i++) {
        threads.add(body(get(listeners.port())));
      }
      // one server would answer every connection from the same event loop
      assertThat(threads).hasSize(2).allMatch(t -> t.startsWith("vert.x-eventloop-thread-"));
      listeners.close();
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  private static String get(int port) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      OutputStream out = s.getOutputStream();
      out.write(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
  }

  private static String body(String response) {
    return response.substring(response.indexOf("\r\n\r\n") + 4);
  }
}
