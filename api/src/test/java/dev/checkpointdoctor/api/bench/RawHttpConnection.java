package dev.checkpointdoctor.api.bench;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection that POSTs remote-write bodies and reads the status. Written
 * by hand so the load generator costs little CPU next to the server under test (both share the
 * machine) and adds no per-request garbage beyond the header line.
 */
final class RawHttpConnection implements AutoCloseable {
  private final String host;
  private final int port;
  private final byte[] headPrefix;
  private Socket socket;
  private OutputStream out;
  private InputStream in;

  RawHttpConnection(String host, int port, String path) {
    this.host = host;
    this.port = port;
    this.headPrefix = ("POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
        + "\r\nUser-Agent: checkpoint-doctor-loadgen\r\nContent-Type: application/x-protobuf"
        + "\r\nContent-Encoding: snappy\r\nX-Prometheus-Remote-Write-Version: 0.1.0"
        + "\r\nContent-Length: ").getBytes(StandardCharsets.US_ASCII);
  }

  /** Sends one body and returns the HTTP status; reconnects when the server closed the socket. */
  int post(byte[] body) throws IOException {
    if (socket == null) {
      connect();
    }
    try {
      return exchange(body);
    } catch (IOException e) {
      // A server may close an idle keep-alive connection between two requests: retry once.
      close();
      connect();
      return exchange(body);
    }
  }

  private void connect() throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress(host, port), 5_000);
    socket.setSoTimeout(60_000);
    out = socket.getOutputStream();
    in = new BufferedInputStream(socket.getInputStream(), 8192);
  }

  private int exchange(byte[] body) throws IOException {
    out.write(headPrefix);
    out.write((body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(body);
    out.flush();
    String status = line();
    if (!status.startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP response: " + status);
    }
    int code = Integer.parseInt(status.substring(9, 12));
    long contentLength = 0;
    boolean chunked = false;
    boolean closeAfter = false;
    for (String h = line(); !h.isEmpty(); h = line()) {
      int colon = h.indexOf(':');
      String name = h.substring(0, colon).trim();
      String value = h.substring(colon + 1).trim();
      if (name.equalsIgnoreCase("Content-Length")) {
        contentLength = Long.parseLong(value);
      } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
        chunked = value.equalsIgnoreCase("chunked");
      } else if (name.equalsIgnoreCase("Connection")) {
        closeAfter = value.equalsIgnoreCase("close");
      }
    }
    if (chunked) {
      for (long n = Long.parseLong(line().split(";")[0].trim(), 16); n > 0;
          n = Long.parseLong(line().split(";")[0].trim(), 16)) {
        skip(n);
        line();
      }
      line();
    } else {
      skip(contentLength);
    }
    if (closeAfter) {
      close();
    }
    return code;
  }

  private void skip(long n) throws IOException {
    while (n > 0) {
      long k = in.skip(n);
      if (k <= 0) {
        if (in.read() < 0) {
          throw new EOFException("connection closed in a response body");
        }
        k = 1;
      }
      n -= k;
    }
  }

  private String line() throws IOException {
    StringBuilder sb = new StringBuilder(64);
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new EOFException("connection closed in a response head");
      }
      if (c != '\r') {
        sb.append((char) c);
      }
    }
    return sb.toString();
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing a socket we no longer use; nothing to recover
      }
      socket = null;
    }
  }
}
