package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.api.app.PromDuration;
import dev.checkpointdoctor.api.ingest.DetectorWorker;
import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.pipeline.Detector;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reads each job's history from a Prometheus-compatible API and feeds it to the detector before
 * the job's live samples: at start for every job Prometheus has (and, at a first start, the
 * TaskManager, disk and container series they run on), later for every job that first appears in
 * live data. One thread reads (queries and parses); the detector thread feeds, slice by slice,
 * between live batches. Jobs are read one after the other; each job's live samples are held
 * meanwhile ({@link LiveHold}).
 *
 * <p>Failures degrade, never block: a problem is counted, logged the first time it happens, and
 * the job keeps what it read and learns live from there. An unreachable, slow or refusing server
 * is left alone for {@link #DOWN_FOR}: jobs that appear meanwhile learn live without waiting.
 */
public final class Bootstrap implements AutoCloseable, LiveHold.NewJobs,
    ServiceMetrics.BootstrapGauges {
  private static final Logger logger = Logger.getLogger(Bootstrap.class.getName());
  static final Duration DOWN_FOR = Duration.ofMinutes(5);
  private static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
  /** Slices read ahead of the detector: one being fed, one waiting. */
  private static final int IN_FLIGHT = 2;

  private final BootstrapSettings settings;
  private final DetectorSettings detectorSettings;
  private final Clock clock;
  private final DetectorWorker worker;
  private final ServiceMetrics metrics;
  private final PromClient client;
  private final Selectors selectors;
  private final TargetReader reader;
  private final LiveHold hold;
  private final boolean readShared;
  private final BooleanSupplier downstreamBusy;
  private final Thread thread;

  private final LinkedBlockingQueue<String> queue = new LinkedBlockingQueue<>();
  private final Set<String> known = ConcurrentHashMap.newKeySet();
  private final Set<String> tmIds = new TreeSet<>();
  private final Set<String> hosts = new TreeSet<>();
  private final Map<String, Long> sharedCovered = new HashMap<>();
  private final Map<Problem, AtomicLong> problems = new EnumMap<>(Problem.class);
  private final Map<String, AtomicLong> jobStates = new ConcurrentHashMap<>();
  /** Jobs whose hold was given up (the hold was full): they learn live, no history is read. */
  private final Set<String> givenUp = ConcurrentHashMap.newKeySet();
  private final AtomicLong seriesRead = new AtomicLong();
  private final AtomicLong samplesRead = new AtomicLong();
  private final AtomicLong samplesFed = new AtomicLong();
  private final AtomicLong busyNanos = new AtomicLong();
  private volatile long downUntilNanos = System.nanoTime();
  private volatile boolean down;
  private volatile boolean startupDone;
  private volatile String running;
  private volatile long startupMs = -1;
  private volatile Duration window;
  private volatile boolean closed;

  /**
   * @param restoredJobs jobs whose baselines came from a snapshot: they are not bootstrapped
   * @param downstreamBusy true while the consumers of the detector's events lag (charts): the
   *     next slice waits, rather than history overflowing their queues
   */
  public Bootstrap(BootstrapSettings settings, DetectorSettings detectorSettings,
      SignalCatalog catalog, Clock clock, Detector detector, DetectorWorker worker,
      ServiceMetrics metrics, Collection<String> restoredJobs, BooleanSupplier downstreamBusy)
      throws Exception {
    this.settings = settings;
    this.detectorSettings = detectorSettings;
    this.clock = clock;
    this.worker = worker;
    this.metrics = metrics;
    this.window = settings.window();
    this.downstreamBusy = downstreamBusy;
    this.client = new PromClient(settings.url(), settings.credentials(), settings.caFile(),
        settings.timeout());
    this.selectors = new Selectors(catalog);
    this.reader = new TargetReader(client, detectorSettings.windowSize());
    // Shared series (JVMs, disks, containers) are read only on a first start: later they feed
    // jobs whose baselines exist already, which must not see older samples after newer ones.
    this.readShared = restoredJobs.isEmpty();
    this.hold = new LiveHold(settings.holdSamples(), restoredJobs, readShared, this, detector);
    known.addAll(restoredJobs);
    for (Problem p : Problem.values()) {
      problems.put(p, new AtomicLong());
    }
    for (String s : ServiceMetrics.BOOTSTRAP_JOB_STATES) {
      jobStates.put(s, new AtomicLong());
    }
    this.thread = new Thread(this::run, "bootstrap");
    thread.setDaemon(true);
  }

  /** Installs the hold on the worker and starts reading (call before the server listens). */
  public void start() {
    worker.gate(hold);
    thread.start();
  }

  // ---------------------------------------------------------------- seen from other threads

  /** True until the start-up bootstrap is done, and while a later job reads its history. */
  public boolean bootstrapping() {
    return !startupDone || running != null || !queue.isEmpty();
  }

  /** What /readyz says while bootstrapping ({@link #status()}), or null when done. */
  public String progress() {
    return bootstrapping() ? status() : null;
  }

  /** Whether /readyz answers 503: --bootstrap-blocks-readiness, until the start-up is done. */
  public boolean blocksReadiness() {
    return settings.blocksReadiness() && !startupDone;
  }

  /** One line for /readyz and logs: what is being read, and how far it got. */
  public String status() {
    String from = "reading history from " + client.base();
    String r = running;
    return from + ": " + jobs("done") + " job(s) done, " + jobs("failed") + " failed, "
        + queue.size() + " waiting" + (r == null ? "" : ", now " + r);
  }

  /** Seconds the start-up bootstrap took, or -1 while it runs. */
  public double startupSeconds() {
    return startupMs < 0 ? -1 : startupMs / 1000.0;
  }

  @Override
  public long jobs(String state) {
    if (state.equals("pending")) {
      return queue.size();
    }
    if (state.equals("running")) {
      return running == null ? 0 : 1;
    }
    AtomicLong n = jobStates.get(state);
    return n == null ? 0 : n.get();
  }

  @Override
  public long seriesRead() {
    return seriesRead.get();
  }

  @Override
  public long samplesRead() {
    return samplesRead.get();
  }

  @Override
  public long samplesFed() {
    return samplesFed.get();
  }

  @Override
  public long queries() {
    return client.queries();
  }

  @Override
  public long bytesRead() {
    return client.bytes();
  }

  @Override
  public double seconds() {
    return busyNanos.get() / 1e9;
  }

  @Override
  public long problems(String reason) {
    for (Problem p : Problem.values()) {
      if (p.label().equals(reason)) {
        return problems.get(p).get();
      }
    }
    return 0;
  }

  @Override
  public long heldSamples() {
    return hold.held();
  }

  public static List<String> problemReasons() {
    List<String> out = new ArrayList<>();
    for (Problem p : Problem.values()) {
      out.add(p.label());
    }
    return out;
  }

  // ---------------------------------------------------------------- called on the detector thread

  @Override
  public boolean noticed(String job) {
    if (known.contains(job)) {
      return true;
    }
    if (closed || !accepting()) {
      jobStates.get("live").incrementAndGet();
      return false;
    }
    if (known.add(job)) {
      queue.add(job);
    }
    return true;
  }

  @Override
  public void holdFull(long capacity, long dropped) {
    metrics.dropped(ServiceMetrics.DropReason.BOOTSTRAP_HOLD_FULL, dropped);
    report(Problem.HOLD_FULL, "more than " + capacity + " live samples waiting (raise "
        + "--bootstrap-hold-samples); further ones are dropped and counted in "
        + "checkpoint_doctor_samples_dropped_total{reason=\"bootstrap_hold_full\"}", null);
  }

  @Override
  public boolean tryGiveUp(String job, long capacity) {
    synchronized (givenUp) {
      if (job.equals(running)) {
        return false;
      }
      givenUp.add(job);
    }
    report(Problem.HOLD_FULL, "more than " + capacity + " live samples waiting (raise "
        + "--bootstrap-hold-samples); jobs still waiting for their turn learn live without "
        + "history, one at a time as the hold fills", null);
    return true;
  }

  /** Marks {@code job} as read now, unless its hold was given up already. */
  private boolean claim(String job) {
    synchronized (givenUp) {
      if (givenUp.contains(job)) {
        return false;
      }
      running = job;
      return true;
    }
  }

  @Override
  public void coveredByHistory(long samples) {
    metrics.dropped(ServiceMetrics.DropReason.IN_HISTORY, samples);
  }

  // ---------------------------------------------------------------- the bootstrap thread

  private boolean accepting() {
    return !down || System.nanoTime() - downUntilNanos >= 0;
  }

  private void run() {
    long t0 = System.nanoTime();
    try {
      startup();
    } catch (InterruptedException e) {
      return;
    } catch (RuntimeException e) {
      logger.log(Level.SEVERE, "bootstrap failed; jobs learn live", e);
    } finally {
      startupMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      startupDone = true;
    }
    logger.info(String.format(Locale.ROOT, "bootstrap: start-up done in %.1f s: %d job(s) "
            + "from history, %d failed (learn live from where they got), %,d series, %,d "
            + "samples fed%s", startupMs / 1000.0, jobs("done"), jobs("failed"), seriesRead(),
        samplesFed(), problemSummary()));
    while (!closed) {
      try {
        String job = queue.take();
        bootstrapJob(job, true);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        logger.log(Level.SEVERE, "bootstrap of a new job failed; it learns live", e);
      }
    }
  }

  private void startup() throws InterruptedException {
    long end = clock.millis();
    checkRetention();
    List<String> jobs = List.of();
    try {
      jobs = client.labelValues("job_name", selectors.allCheckpoints(),
          end - TargetReader.PROBE_MS, end);
    } catch (Problem.Failure f) {
      report(f.problem(), f.getMessage(), null);
    }
    int listed = 0;
    for (String job : new TreeSet<>(jobs)) {
      if (known.add(job)) {
        queue.add(job);
        listed++;
      }
    }
    logger.info("bootstrap: reading up to " + PromDuration.format(window) + " of history from "
        + client.base() + " for " + listed + " job(s)" + (readShared
            ? ", then their TaskManager, disk and container series" : "")
        + "; their live samples wait meanwhile");
    long nextProgress = System.nanoTime() + PROGRESS_EVERY_NANOS;
    String job;
    while (!closed && (job = queue.poll()) != null) {
      bootstrapJob(job, false);
      if (System.nanoTime() - nextProgress >= 0) {
        nextProgress = System.nanoTime() + PROGRESS_EVERY_NANOS;
        logger.info(String.format(Locale.ROOT, "bootstrap: %s; %,d series, %,d samples, %.0f s",
            status(), seriesRead(), samplesFed(), seconds()));
      }
    }
    if (readShared) {
      readShared();
    }
  }

  private void checkRetention() {
    client.retention().ifPresent(retention -> {
      if (retention.compareTo(window) < 0) {
        report(Problem.RETENTION, "it keeps " + PromDuration.format(retention)
            + ", --bootstrap-window is " + PromDuration.format(window) + ": reading "
            + PromDuration.format(retention), null);
        window = retention;
      }
    });
  }

  /** One job: plan, slices in time order, then its held live samples. */
  private void bootstrapJob(String job, boolean announce) throws InterruptedException {
    long started = System.nanoTime();
    HistoryFeed feed = new HistoryFeed();
    String outcome = "live";
    boolean claimed = claim(job);
    try {
      if (!claimed || !accepting() || closed) {
        return;
      }
      outcome = read(Target.job(selectors, job), feed) ? "done" : "failed";
    } finally {
      release(job, feed);
      synchronized (this) {
        tmIds.addAll(feed.tmIds());
        hosts.addAll(feed.hosts());
      }
      jobStates.get(outcome).incrementAndGet();
      busyNanos.addAndGet(System.nanoTime() - started);
      running = null;
      if (announce && outcome.equals("done")) {
        logger.info(String.format(Locale.ROOT, "bootstrap: job %s learned from %s of history "
                + "(%,d series, %,d samples) in %.1f s", job, PromDuration.format(window),
            feed.seriesCount(), feed.fed(), (System.nanoTime() - started) / 1e9));
      }
    }
  }

  /**
   * Reads a target into the detector; false when a problem stopped it (reported; what was fed
   * before stays).
   */
  private boolean read(Target target, HistoryFeed feed) throws InterruptedException {
    long end = clock.millis();
    Deque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();
    try {
      var plan = reader.plan(target, window.toMillis(), end);
      if (plan.isEmpty()) {
        return true; // nothing in the last minutes: nothing alive to learn for
      }
      Plan p = plan.get();
      for (int k = 0; k < p.slices() && !closed; k++) {
        TargetReader.Slice slice = reader.read(target, p, k);
        samplesRead.addAndGet(slice.points());
        while (inFlight.size() >= IN_FLIGHT) {
          inFlight.removeFirst().join();
        }
        waitForDownstream();
        inFlight.add(worker.submit(d -> feed.feed(d, slice)));
      }
      return true;
    } catch (Problem.Failure f) {
      report(f.problem(), f.getMessage(), target.name());
      return false;
    } finally {
      for (CompletableFuture<Void> f : inFlight) {
        try {
          f.join();
        } catch (RuntimeException e) {
          logger.log(Level.WARNING, "history slice of " + target.name() + " failed", e);
        }
      }
    }
  }

  private void waitForDownstream() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (downstreamBusy.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
  }

  /** Ends the hold of a job (or the shared series) after its history, on the detector thread. */
  private void release(String key, HistoryFeed feed) {
    CompletableFuture<Void> done = worker.submit(d -> {
      hold.release(key, feed.covered(), d);
      seriesRead.addAndGet(feed.seriesCount());
      samplesFed.addAndGet(feed.fed());
    });
    try {
      done.get(settings.timeout().toMillis() + 60_000, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      logger.log(Level.WARNING, "releasing the held samples of " + (key.isEmpty()
          ? "the shared series" : key) + " did not finish", e);
    }
  }

  /** At a first start: the TaskManager JVM, disk and container series the jobs run on. */
  private void readShared() throws InterruptedException {
    try {
      if (!accepting() || (tmIds.isEmpty() && hosts.isEmpty())) {
        return;
      }
      long started = System.nanoTime();
      List<Target> targets = new ArrayList<>();
      Map<String, String> aliases = detectorSettings.hostAliases();
      for (List<String> batch : batches(tmIds)) {
        targets.add(Target.shared("TaskManagers " + batch.get(0) + "…",
            selectors.taskManagers(batch)));
      }
      for (List<String> batch : batches(hosts)) {
        List<String> exact = new ArrayList<>();
        aliases.forEach((flinkHost, node) -> {
          if (batch.contains(sanitize(flinkHost))) {
            exact.add(node);
          }
        });
        targets.add(Target.shared("disks of " + batch.get(0) + "…",
            selectors.nodes(batch, exact)));
      }
      for (List<String> batch : batches(tmIds)) {
        List<String> exact = new ArrayList<>();
        // --host-alias names pods on either side (the extractor looks both up)
        aliases.forEach((left, right) -> {
          exact.add(left);
          exact.add(right);
        });
        targets.add(Target.shared("containers of " + batch.get(0) + "…",
            selectors.containers(batch, exact)));
      }
      for (Target t : targets) {
        if (closed || !accepting()) {
          break;
        }
        running = t.name();
        HistoryFeed feed = new HistoryFeed();
        read(t, feed);
        // the shared hold is released once, after all of them
        worker.submit(d -> {
          sharedCovered.putAll(feed.covered());
          seriesRead.addAndGet(feed.seriesCount());
          samplesFed.addAndGet(feed.fed());
        });
      }
      busyNanos.addAndGet(System.nanoTime() - started);
    } finally {
      running = null;
      CompletableFuture<Void> done = worker.submit(
          d -> hold.release(LiveHold.SHARED, sharedCovered, d));
      try {
        done.get(settings.timeout().toMillis() + 60_000, TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        logger.log(Level.WARNING, "releasing the held shared series did not finish", e);
      }
    }
  }

  /** Values in groups whose regex stays well under URL length limits. */
  private static List<List<String>> batches(Collection<String> values) {
    List<List<String>> out = new ArrayList<>();
    List<String> cur = new ArrayList<>();
    int chars = 0;
    for (String v : values) {
      if (!cur.isEmpty() && chars + v.length() > 1500) {
        out.add(cur);
        cur = new ArrayList<>();
        chars = 0;
      }
      cur.add(v);
      chars += v.length() + 1;
    }
    if (!cur.isEmpty()) {
      out.add(cur);
    }
    return out;
  }

  private static String sanitize(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == ':' || c == '_';
      b.append(ok ? c : '_');
    }
    return b.toString();
  }

  /**
   * Counts a problem and logs it the first time its kind happens; a problem that says the source
   * is down (unreachable, too slow, credentials refused, wrong URL) stops all reading for {@link
   * #DOWN_FOR}.
   */
  private void report(Problem p, String detail, String target) {
    long n = problems.get(p).incrementAndGet();
    if (p.sourceDown()) {
      downUntilNanos = System.nanoTime() + DOWN_FOR.toNanos();
      down = true;
    }
    if (n == 1) {
      String what = p == Problem.HOLD_FULL || p == Problem.RETENTION ? ""
          : p.sourceDown() ? "; jobs learn from live samples, a new job tries again after "
              + PromDuration.format(DOWN_FOR)
          : "; " + (target == null ? "the jobs" : target) + " learn(s) live from where the "
              + "history got";
      logger.warning("bootstrap: " + p.phrase() + " " + client.base() + " (" + detail + ")"
          + what + "; counted in checkpoint_doctor_bootstrap_problems_total{reason=\""
          + p.label() + "\"}, logged once");
    }
  }

  private String problemSummary() {
    StringBuilder sb = new StringBuilder();
    for (Problem p : Problem.values()) {
      long n = problems.get(p).get();
      if (n > 0) {
        sb.append(sb.length() == 0 ? "; problems: " : ", ").append(p.label()).append(" x")
            .append(n);
      }
    }
    return sb.toString();
  }

  /**
   * Stops reading; every hold is released (live samples accepted are processed, history or
   * not). Call before the worker is closed.
   */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      worker.submit(hold::releaseAll).get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      logger.log(Level.WARNING, "releasing held live samples at shutdown did not finish", e);
    }
    client.close();
  }
}
