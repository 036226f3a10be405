package dev.checkpointdoctor.api.bootstrap;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for the Prometheus query API over synthetic series, for tests and the size benchmark:
 * answers {@code query_range} (values at each step, with a five-minute lookback, as Prometheus
 * evaluates them), instant queries of a range selector (raw samples), label values and the
 * runtime info, for the selectors the bootstrap sends (matchers with = and =~, joined by "or").
 * Failures can be switched on: a status, warnings, a stall.
 */
public final class FakePromApi implements AutoCloseable {
  static final long LOOKBACK_MS = 5 * 60_000L;

  /** One series: labels, a scrape schedule, and its value at any scrape time. */
  public record Series(Map<String, String> labels, long intervalMs, long phaseMs, long firstMs,
      long lastMs, ValueFn value) {
    /** The newest scrape at or before {@code t}, or Long.MIN_VALUE when none. */
    long scrapeAtOrBefore(long t) {
      if (t < firstMs) {
        return Long.MIN_VALUE;
      }
      long s = phaseMs + Math.floorDiv(Math.min(t, lastMs) - phaseMs, intervalMs) * intervalMs;
      return s < firstMs ? Long.MIN_VALUE : s;
    }
  }

  /** A series' value at scrape time {@code t}. */
  @FunctionalInterface
  public interface ValueFn {
    double at(long t);
  }

  private final List<Series> series;
  /** Positions in {@link #series} by job_name: a job's query does not scan a whole fleet. */
  private final Map<String, List<Integer>> byJobName = new java.util.HashMap<>();
  private final HttpServer server;
  private volatile int failStatus;
  private volatile String failPathPrefix = "/api/v1/query_range";
  private volatile String warning;
  private volatile String retention = "30d";
  private volatile CountDownLatch gate;
  private volatile long stallMs;
  private final AtomicLong rangeQueries = new AtomicLong();
  private final AtomicLong pointsServed = new AtomicLong();
  /** Every request's path and query, in arrival order (BootstrapBench replays them). */
  private final java.util.Queue<String> requests =
      new java.util.concurrent.ConcurrentLinkedQueue<>();

  public FakePromApi(List<Series> series) throws IOException {
    this(series, 0);
  }

  public FakePromApi(List<Series> series, int port) throws IOException {
    this.series = series;
    for (int i = 0; i < series.size(); i++) {
      String job = series.get(i).labels.get("job_name");
      if (job != null) {
        byJobName.computeIfAbsent(job, k -> new ArrayList<>()).add(i);
      }
    }
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
    server.setExecutor(Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "fake-prom");
      t.setDaemon(true);
      return t;
    }));
    server.createContext("/", this::handle);
    server.start();
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Answers with {@code status} (0: normally) to requests whose path starts with {@code prefix}. */
  public void fail(int status, String pathPrefix) {
    this.failPathPrefix = pathPrefix;
    this.failStatus = status;
  }

  /** Adds this warning to every query_range answer (null: none). */
  public void warn(String warning) {
    this.warning = warning;
  }

  public void retention(String retention) {
    this.retention = retention;
  }

  /** Holds every query_range answer until the latch opens (null: none). */
  public void gate(CountDownLatch gate) {
    this.gate = gate;
  }

  /** Waits this long before answering query_range (a slow server). */
  public void stall(long ms) {
    this.stallMs = ms;
  }

  public long rangeQueries() {
    return rangeQueries.get();
  }

  public long pointsServed() {
    return pointsServed.get();
  }

  /** The requests served so far ({@code /api/v1/...?query}), in arrival order. */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      String raw = ex.getRequestURI().getRawQuery();
      requests.add(ex.getRequestURI().getRawPath() + (raw == null ? "" : "?" + raw));
      Map<String, String> q = params(ex.getRequestURI().getRawQuery());
      if (failStatus != 0 && path.startsWith(failPathPrefix)) {
        send(ex, failStatus, "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":"
            + "\"refused by the test\"}");
        return;
      }
      if (path.equals("/api/v1/status/runtimeinfo")) {
        send(ex, 200, "{\"status\":\"success\",\"data\":{\"storageRetention\":\"" + retention
            + "\"}}");
      } else if (path.startsWith("/api/v1/label/") && path.endsWith("/values")) {
        String label = path.substring("/api/v1/label/".length(), path.length() - 7);
        long start = seconds(q.get("start"));
        long end = seconds(q.get("end"));
        List<Map<String, String>> sel = selector(q.get("match[]"));
        TreeSet<String> values = new TreeSet<>();
        for (Series s : candidates(sel)) {
          if (matches(sel, s.labels) && s.labels.containsKey(label)
              && s.scrapeAtOrBefore(end) >= start) {
            values.add(s.labels.get(label));
          }
        }
        StringBuilder sb = new StringBuilder("{\"status\":\"success\",\"data\":[");
        int i = 0;
        for (String v : values) {
          sb.append(i++ == 0 ? "" : ",").append('"').append(v).append('"');
        }
        send(ex, 200, sb.append("]}").toString());
      } else if (path.equals("/api/v1/query")) {
        raw(ex, q);
      } else if (path.equals("/api/v1/query_range")) {
        range(ex, q);
      } else {
        send(ex, 404, "404 page not found");
      }
    } catch (RuntimeException e) {
      send(ex, 400, "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\""
          + e.getMessage().replace("\"", "'") + "\"}");
    }
  }

  private void raw(HttpExchange ex, Map<String, String> q) throws IOException {
    Matcher m = Pattern.compile("^(.*)\\[(\\d+)s\\]$").matcher(q.get("query"));
    if (!m.matches()) {
      throw new IllegalArgumentException("only range selectors: " + q.get("query"));
    }
    List<Map<String, String>> sel = selector(m.group(1));
    long time = seconds(q.get("time"));
    long from = time - Long.parseLong(m.group(2)) * 1000;
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(200, 0);
    try (OutputStream out = new BufferedOutputStream(ex.getResponseBody(), 1 << 16)) {
      write(out, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[");
      boolean firstSeries = true;
      for (Series s : candidates(sel)) {
        if (!matches(sel, s.labels)) {
          continue;
        }
        long last = s.scrapeAtOrBefore(time);
        if (last == Long.MIN_VALUE || last <= from) {
          continue;
        }
        write(out, firstSeries ? "" : ",");
        firstSeries = false;
        metric(out, s);
        write(out, ",\"values\":[");
        long t = last;
        while (t - s.intervalMs > from && t - s.intervalMs >= s.firstMs) {
          t -= s.intervalMs;
        }
        for (boolean first = true; t <= last; t += s.intervalMs, first = false) {
          write(out, (first ? "[" : ",[") + Grid.seconds(t) + ",\"" + number(s.value.at(t))
              + "\"]");
        }
        write(out, "]}");
      }
      write(out, "]}}");
    }
  }

  private void range(HttpExchange ex, Map<String, String> q) throws IOException {
    rangeQueries.incrementAndGet();
    CountDownLatch g = gate;
    try {
      if (g != null) {
        g.await(60, TimeUnit.SECONDS);
      }
      if (stallMs > 0) {
        Thread.sleep(stallMs);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    List<Map<String, String>> sel = selector(q.get("query"));
    long start = seconds(q.get("start"));
    long end = seconds(q.get("end"));
    long step = seconds(q.get("step"));
    Matcher changes = Pattern.compile("^sum\\(changes\\((.*)\\[(\\d+)s\\]\\)\\)$")
        .matcher(q.get("query"));
    if (changes.matches()) {
      long from = end - Long.parseLong(changes.group(2)) * 1000;
      long n = 0;
      boolean any = false;
      for (Series s : candidates(sel)) {
        if (!matches(sel, s.labels)) {
          continue;
        }
        long last = s.scrapeAtOrBefore(end);
        double prev = Double.NaN;
        for (long t = Math.max(s.firstMs, last - (last - from) / s.intervalMs * s.intervalMs);
            t <= last && last != Long.MIN_VALUE; t += s.intervalMs) {
          double v = s.value.at(t);
          if (!Double.isNaN(prev) && v != prev) {
            n++;
          }
          prev = v;
          any = true;
        }
      }
      send(ex, 200, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
          + "\"result\":[" + (any ? "{\"metric\":{},\"values\":[[" + Grid.seconds(end) + ",\""
          + n + "\"]]}" : "") + "]}}");
      return;
    }
    if ((end - start) / step + 1 > 11_000) {
      send(ex, 400, "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"exceeded "
          + "maximum resolution of 11,000 points per timeseries\"}");
      return;
    }
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(200, 0);
    long points = 0;
    try (OutputStream out = new BufferedOutputStream(ex.getResponseBody(), 1 << 16)) {
      write(out, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[");
      boolean firstSeries = true;
      StringBuilder sb = new StringBuilder(64);
      for (Series s : candidates(sel)) {
        if (!matches(sel, s.labels)) {
          continue;
        }
        boolean any = false;
        for (long t = start; t <= end; t += step) {
          long sample = s.scrapeAtOrBefore(t);
          if (sample == Long.MIN_VALUE || t - sample > LOOKBACK_MS) {
            continue;
          }
          if (!any) {
            write(out, firstSeries ? "" : ",");
            firstSeries = false;
            metric(out, s);
            sb.setLength(0);
            sb.append(",\"values\":[");
          }
          sb.append(any ? ",[" : "[").append(Grid.seconds(t)).append(",\"")
              .append(number(s.value.at(sample))).append("\"]");
          any = true;
          points++;
          if (sb.length() > 1 << 16) {
            write(out, sb);
            sb.setLength(0);
          }
        }
        if (any) {
          sb.append("]}");
          write(out, sb);
        }
      }
      write(out, "]}");
      if (warning != null) {
        write(out, ",\"warnings\":[\"" + warning + "\"]");
      }
      write(out, "}");
    } finally {
      pointsServed.addAndGet(points);
    }
  }

  private static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v);
  }

  private static void metric(OutputStream out, Series s) throws IOException {
    StringBuilder sb = new StringBuilder("{\"metric\":{");
    int i = 0;
    for (Map.Entry<String, String> e : new TreeMap<>(s.labels).entrySet()) {
      sb.append(i++ == 0 ? "" : ",").append('"').append(e.getKey()).append("\":\"")
          .append(e.getValue()).append('"');
    }
    write(out, sb.append('}'));
  }

  private static void write(OutputStream out, CharSequence s) throws IOException {
    out.write(s.toString().getBytes(StandardCharsets.ISO_8859_1));
  }

  /**
   * The series a selector may match, in the fleet's order: those of its job_names when every
   * alternative names one exactly, else all.
   */
  private List<Series> candidates(List<Map<String, String>> alternatives) {
    TreeSet<Integer> at = new TreeSet<>();
    for (Map<String, String> matchers : alternatives) {
      String job = matchers.get("job_name");
      if (job == null) {
        return series;
      }
      at.addAll(byJobName.getOrDefault(job, List.of()));
    }
    List<Series> out = new ArrayList<>(at.size());
    for (int i : at) {
      out.add(series.get(i));
    }
    return out;
  }

  /** {@code {a="x",b=~"y|z"} or {...}}: one map of matchers per alternative; "=~" kept in key. */
  static List<Map<String, String>> selector(String query) {
    List<Map<String, String>> out = new ArrayList<>();
    int i = 0;
    while ((i = query.indexOf('{', i)) >= 0) {
      Map<String, String> matchers = new LinkedHashMap<>();
      int nameStart = i;
      while (nameStart > 0 && (Character.isLetterOrDigit(query.charAt(nameStart - 1))
          || query.charAt(nameStart - 1) == '_' || query.charAt(nameStart - 1) == ':')) {
        nameStart--;
      }
      if (nameStart < i) {
        matchers.put("__name__", query.substring(nameStart, i));
      }
      i++;
      while (true) {
        while (query.charAt(i) == ',' || query.charAt(i) == ' ') {
          i++;
        }
        if (query.charAt(i) == '}') {
          i++;
          break;
        }
        int nameEnd = i;
        while (Character.isLetterOrDigit(query.charAt(nameEnd)) || query.charAt(nameEnd) == '_') {
          nameEnd++;
        }
        String name = query.substring(i, nameEnd);
        boolean regex = query.startsWith("=~", nameEnd);
        i = nameEnd + (regex ? 2 : 1);
        if (query.charAt(i) != '"') {
          throw new IllegalArgumentException("expected a quoted value in " + query);
        }
        StringBuilder v = new StringBuilder();
        for (i++; query.charAt(i) != '"'; i++) {
          char c = query.charAt(i);
          if (c == '\\') {
            c = query.charAt(++i);
          }
          v.append(c);
        }
        i++;
        matchers.put(name + (regex ? "~" : ""), v.toString());
      }
      out.add(matchers);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no selector in " + query);
    }
    return out;
  }

  private static final Map<String, Pattern> PATTERNS = new java.util.concurrent.ConcurrentHashMap<>();

  static boolean matches(List<Map<String, String>> alternatives, Map<String, String> labels) {
    for (Map<String, String> matchers : alternatives) {
      boolean all = true;
      for (Map.Entry<String, String> m : matchers.entrySet()) {
        String key = m.getKey();
        boolean regex = key.endsWith("~");
        String name = regex ? key.substring(0, key.length() - 1) : key;
        String v = labels.getOrDefault(name, "");
        if (regex ? !PATTERNS.computeIfAbsent(m.getValue(), Pattern::compile).matcher(v)
            .matches() : !v.equals(m.getValue())) {
          all = false;
          break;
        }
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  private static long seconds(String s) {
    return Math.round(Double.parseDouble(s) * 1000);
  }

  private static Map<String, String> params(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null) {
      return out;
    }
    for (String kv : raw.split("&")) {
      int eq = kv.indexOf('=');
      out.put(URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return out;
  }

  private static void send(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(status, b.length);
    ex.getResponseBody().write(b);
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
