package dev.checkpointdoctor.api.bench;

import dev.checkpointdoctor.api.bench.BodyFactory.Body;
import dev.checkpointdoctor.api.bench.FlinkFleet.Series;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drives pre-built remote-write traffic over several connections. Series are sharded over the
 * connections as Prometheus shards its remote-write queue, so each series' samples travel in
 * timestamp order on one connection. A fixed workload (warm-up rounds, then measured rounds) is
 * sent as fast as the target takes it; throughput is measured between a barrier after warm-up and
 * the last measured response. 5xx answers are retried after a short back-off as Prometheus does;
 * 4xx answers are dropped as Prometheus does.
 */
public final class LoadDriver {
  /**
   * Bodies per connection, in sending order; {@code warmupBodies[c]} of them are warm-up;
   * {@code rounds[c][i]} is the scrape round of body {@code i} of connection {@code c}.
   */
  public record Workload(List<List<Body>> perConnection, int[] warmupBodies, long totalSamples,
      int[][] rounds) {}

  /**
   * How many scrape rounds (of 15 s event time) one connection may run ahead of the slowest.
   * Prometheus' shards send what one scrape produced within moments of each other; connections
   * left to race apart send event times hours apart, which a store that bounds out-of-order
   * appends refuses: Prometheus 2.42 answers "too old sample" with 500 for samples more than its
   * out-of-order window (10 min here) behind the newest, the retries of a lagging connection let
   * the others run further ahead, and a whole run stalled in 30 s retries (2026-12-06, fc7ee08).
   */
  static final int MAX_ROUNDS_APART = 4;

  /** What one run measured. */
  public record Result(long acceptedSamples, long rejectedSamples, long requests, double seconds,
      long p50Micros, long p99Micros, long retries) {
    public double samplesPerSecond() {
      return acceptedSamples / seconds;
    }
  }

  private LoadDriver() {}

  /** Builds {@code warmupRounds + rounds} scrape rounds of the fleet for {@code connections}. */
  public static Workload build(Fleet fleet, int connections, int warmupRounds, int rounds,
      int samplesPerBody, long t0) {
    BodyFactory factory = new BodyFactory();
    List<List<Series>> shards = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      shards.add(new ArrayList<>());
    }
    List<Series> all = fleet.series();
    for (int i = 0; i < all.size(); i++) {
      shards.get(i % connections).add(all.get(i));
    }
    List<List<Body>> per = new ArrayList<>();
    int[][] roundOf = new int[connections][];
    int[] warm = new int[connections];
    long samples = 0;
    for (int c = 0; c < connections; c++) {
      List<Body> bodies = new ArrayList<>();
      List<Integer> bodyRounds = new ArrayList<>();
      for (int r = 0; r < warmupRounds + rounds; r++) {
        if (r == warmupRounds) {
          warm[c] = bodies.size();
        }
        for (Body b : factory.round(shards.get(c), r, t0, samplesPerBody)) {
          bodies.add(b);
          bodyRounds.add(r);
          if (r >= warmupRounds) {
            samples += b.samples();
          }
        }
      }
      per.add(bodies);
      roundOf[c] = bodyRounds.stream().mapToInt(Integer::intValue).toArray();
    }
    return new Workload(per, warm, samples, roundOf);
  }

  /** Sends the workload to {@code http://host:port/path}; gives up on a connection after maxSeconds. */
  public static Result run(Workload w, String host, int port, String path, double maxSeconds,
      Runnable atMeasureStart) throws InterruptedException {
    int n = w.perConnection().size();
    AtomicLong accepted = new AtomicLong();
    AtomicLong rejected = new AtomicLong();
    AtomicLong retries = new AtomicLong();
    AtomicLong start = new AtomicLong();
    AtomicLong end = new AtomicLong();
    long[][] latencies = new long[n][];
    int[] counts = new int[n];
    CyclicBarrier measured = new CyclicBarrier(n, () -> {
      atMeasureStart.run();
      start.set(System.nanoTime());
    });
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    RoundGate gate = new RoundGate(n);
    for (int c = 0; c < n; c++) {
      final int conn = c;
      Thread t = new Thread(() -> {
        List<Body> bodies = w.perConnection().get(conn);
        long[] lat = new long[bodies.size()];
        int k = 0;
        try (RawHttpConnection http = new RawHttpConnection(host, port, path)) {
          for (int i = 0; i < bodies.size(); i++) {
            if (i == w.warmupBodies()[conn]) {
              measured.await(300, java.util.concurrent.TimeUnit.SECONDS);
            }
            boolean inMeasure = i >= w.warmupBodies()[conn];
            if (inMeasure && System.nanoTime() - start.get() > maxSeconds * 1e9) {
              break;
            }
            Body b = bodies.get(i);
            gate.enter(conn, w.rounds()[conn][i]);
            long t0 = System.nanoTime();
            int code = http.post(b.bytes());
            while (code >= 500 && System.nanoTime() - t0 < 30e9) {
              retries.incrementAndGet();
              Thread.sleep(20); // back-off before a retry, as a remote-write sender does
              code = http.post(b.bytes());
            }
            long t1 = System.nanoTime();
            if (inMeasure) {
              lat[k++] = t1 - t0;
              (code / 100 == 2 ? accepted : rejected).addAndGet(b.samples());
              end.accumulateAndGet(t1, Math::max);
            }
          }
        } catch (Exception e) {
          failures.add(e);
        } finally {
          gate.leave(conn); // the others no longer wait for this one
        }
        latencies[conn] = lat;
        counts[conn] = k;
      }, "load-" + c);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("load connection failed: " + failures.get(0),
          failures.get(0));
    }
    long total = Arrays.stream(counts).sum();
    long[] all = new long[(int) total];
    int p = 0;
    for (int c = 0; c < n; c++) {
      System.arraycopy(latencies[c], 0, all, p, counts[c]);
      p += counts[c];
    }
    Arrays.sort(all);
    return new Result(accepted.get(), rejected.get(), total,
        (end.get() - start.get()) / 1e9, percentile(all, 0.50) / 1000,
        percentile(all, 0.99) / 1000, retries.get());
  }

  /** Keeps the connections within {@link #MAX_ROUNDS_APART} rounds of each other. */
  static final class RoundGate {
    private final int[] sending;

    RoundGate(int connections) {
      sending = new int[connections];
    }

    /** Waits until every other connection is at most MAX_ROUNDS_APART rounds behind round. */
    synchronized void enter(int conn, int round) throws InterruptedException {
      while (slowest() < round - MAX_ROUNDS_APART) {
        wait();
      }
      if (round != sending[conn]) {
        sending[conn] = round;
        notifyAll();
      }
    }

    synchronized void leave(int conn) {
      sending[conn] = Integer.MAX_VALUE;
      notifyAll();
    }

    private int slowest() {
      int min = Integer.MAX_VALUE;
      for (int r : sending) {
        min = Math.min(min, r);
      }
      return min;
    }
  }

  private static long percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
  }
}
