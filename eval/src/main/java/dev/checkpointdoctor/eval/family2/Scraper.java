package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.eval.scenario.GeneratedScenario.SampleSink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Prometheus scraping the job's targets: every target on its own interval at its own offset
 * within it, timestamps at the scrape's scheduled time (Prometheus aligns them when the scrape
 * starts within 2 ms, as it usually does), now and then a scrape that fails, and staleness as
 * Prometheus writes it: a failed scrape, a vanished target or a series missing from a scrape
 * gets a stale marker. Samples leave in non-decreasing timestamp order.
 */
final class Scraper {
  static final double STALE = Double.longBitsToDouble(0x7ff0000000000002L);

  private enum TargetKind {
    JOB_MANAGER, TASK_MANAGER, NODE, KUBELET
  }

  private static final class Target {
    final TargetKind kind;
    final String key;
    final long intervalMs;
    final int index;
    /** The scheduled time; {@link #next} is when the scrape actually starts. */
    long base;
    long next;
    Set<Labels> last = new HashSet<>();
    List<Series> lastList;
    List<Series> series = List.of();
    Object builtFor;
    boolean gone;

    Target(TargetKind kind, String key, long intervalMs, int index, long first) {
      this.kind = kind;
      this.key = key;
      this.intervalMs = intervalMs;
      this.index = index;
      this.base = first;
      this.next = first;
    }
  }

  private final JobPhysics job;
  private final SeriesBuilder builder;
  private final Readings readings;
  private final SplittableRandom rng;
  private final PriorityQueue<Target> queue = new PriorityQueue<>((a, b) -> a.next != b.next
      ? Long.compare(a.next, b.next) : a.key.compareTo(b.key));
  private final Map<String, Target> tms = new HashMap<>();
  private final List<long[]> outages = new ArrayList<>();
  private final List<Layout.Tm> neighbours = new ArrayList<>();
  private Deployment seen;
  private Target jobManager;
  private Map<String, String> jmTarget;

  Scraper(JobPhysics job, SplittableRandom rng) {
    this.job = job;
    this.rng = rng;
    this.builder = new SeriesBuilder(job);
    this.readings = new Readings(job, rng.nextLong());
    JobPlan plan = job.plan;
    long hours = (plan.endMs() - plan.startMs()) / 3_600_000L;
    for (long h = 0; h < hours; h++) {
      if (rng.nextDouble() < 0.03) { // a network blip or a Prometheus restart: ~1 a day
        long at = plan.startMs() + h * 3_600_000L + (long) (rng.nextDouble() * 3_600_000L);
        outages.add(new long[] {at, at + 60_000L + (long) (rng.nextDouble() * 180_000L)});
      }
    }
    for (int n = 0; n < job.layout.nodes.size(); n++) {
      Layout.Node node = job.layout.nodes.get(n);
      long first = plan.startMs() + (long) (rng.nextDouble() * plan.scrape().nodeSeconds() * 1000);
      queue.add(new Target(TargetKind.NODE, "node/" + n, plan.scrape().nodeSeconds() * 1000L, n,
          first));
      if (job.layout.kind.kubernetes()) {
        neighbours.add(new Layout.Tm(null, null, "fluent-bit-" + Names.podSuffix(rng, 5),
            Names.uuid(rng), Names.hex(rng, 64), node, Map.of()));
        long f = plan.startMs() + (long) (rng.nextDouble() * plan.scrape().kubeletSeconds() * 1000);
        queue.add(new Target(TargetKind.KUBELET, "kubelet/" + n,
            plan.scrape().kubeletSeconds() * 1000L, n, f));
      }
    }
  }

  /** Scrapes from the plan's start to its end, handing samples in time order to the sink. */
  void play(SampleSink sink, long fromMs, long toMs) {
    long end = job.plan.endMs();
    while (!queue.isEmpty()) {
      Target t = queue.poll();
      long ts = t.next;
      if (ts > end) {
        break;
      }
      job.advanceTo(ts);
      reconcile(ts);
      if (!t.gone || !t.last.isEmpty()) {
        scrape(t, ts, sink, ts >= fromMs && ts <= toMs);
      }
      if (!t.gone) {
        t.base += t.intervalMs;
        // a scrape that starts within 2 ms of its slot is stamped with the slot (Prometheus
        // 2.30+); a loaded server now and then starts later
        t.next = rng.nextDouble() < 0.9 ? t.base : t.base + 3 + rng.nextInt(38);
        queue.add(t);
      }
    }
  }

  /** Targets appear and disappear with the deployments (pods, TaskManager processes). */
  private void reconcile(long ts) {
    Deployment d = job.deployment;
    if (d == seen) {
      return;
    }
    seen = d;
    long flinkMs = job.plan.scrape().flinkSeconds() * 1000L;
    if (d != null && (jobManager == null || d.start == Deployment.Start.REDEPLOYED
        || d.start == Deployment.Start.SUBMITTED)) {
      if (jobManager == null || job.layout.kind.kubernetes()) {
        if (jobManager != null) {
          jobManager.gone = true;
          queue.remove(jobManager);
          queue.add(jobManager);
        }
        jmTarget = job.layout.jobManagerTarget();
        jobManager = new Target(TargetKind.JOB_MANAGER, "jm/" + jmTarget.get("instance"),
            flinkMs, 0, ts + 1 + (long) (rng.nextDouble() * flinkMs));
        queue.add(jobManager);
      }
    }
    Set<String> live = new HashSet<>();
    if (d != null) {
      for (int k = 0; k < d.tms.size(); k++) {
        Layout.Tm tm = d.tms.get(k);
        String key = "tm/" + tm.target().get("instance") + "/" + tm.pod();
        live.add(key);
        Target known = tms.get(key);
        if (known != null && known.gone) {
          known.gone = false;
          if (!queue.contains(known)) {
            known.base = ts + 1 + (long) (rng.nextDouble() * flinkMs);
            known.next = known.base;
            queue.add(known);
          }
        } else if (known == null) {
          Target t = new Target(TargetKind.TASK_MANAGER, key, flinkMs, k,
              ts + 1 + (long) (rng.nextDouble() * flinkMs));
          tms.put(key, t);
          queue.add(t);
        }
      }
    }
    for (Target t : tms.values()) {
      if (!live.contains(t.key)) {
        t.gone = true;
      }
    }
    tms.values().removeIf(t -> t.gone && t.last.isEmpty() && !queue.contains(t));
  }

  private void scrape(Target t, long ts, SampleSink sink, boolean emit) {
    boolean failed = t.gone || !up(t, ts) || rng.nextDouble() < job.plan.scrape().failedScrapeRate()
        || inOutage(ts);
    long stamp = ts;
    if (failed) {
      if (emit) {
        for (Labels l : t.last) {
          sink.sample(l, stamp, STALE);
        }
      }
      t.last = new HashSet<>();
      t.lastList = null;
      return;
    }
    List<Series> series = seriesOf(t, ts);
    if (!emit) {
      // outside the played slice: the scrape happened, nobody reads it
      if (series != t.lastList) {
        t.last = new HashSet<>();
        for (Series s : series) {
          t.last.add(s.labels());
        }
        t.lastList = series;
      }
      return;
    }
    boolean same = series == t.lastList;
    Set<Labels> now = same ? t.last : new HashSet<>();
    if (!same) {
      for (Series s : series) {
        now.add(s.labels());
      }
      for (Labels l : t.last) {
        if (!now.contains(l)) {
          sink.sample(l, stamp, STALE);
        }
      }
    }
    for (Series s : series) {
      sink.sample(s.labels(), stamp, readings.value(s, ts));
    }
    t.last = now;
    t.lastList = series;
  }

  private boolean up(Target t, long ts) {
    Deployment d = job.deployment;
    return switch (t.kind) {
      case JOB_MANAGER -> d != null && (ts >= d.upMs || d.start == Deployment.Start.RESTARTED);
      case TASK_MANAGER -> d != null && (ts >= d.upMs || d.start == Deployment.Start.RESTARTED);
      default -> true;
    };
  }

  private List<Series> seriesOf(Target t, long ts) {
    Deployment d = job.deployment;
    switch (t.kind) {
      case JOB_MANAGER -> {
        if (t.builtFor != d) {
          t.series = builder.jobManager(d, jmTarget);
          t.builtFor = d;
        }
        return t.series;
      }
      case TASK_MANAGER -> {
        int k = indexOf(d, t.key);
        boolean tasks = ts >= d.upMs;
        Object owner = tasks ? d : (Object) List.of(d, "jvm");
        if (t.builtFor == null || !t.builtFor.equals(owner) || k < 0) {
          t.series = k < 0 ? List.of() : builder.taskManager(d, k, tasks);
          t.builtFor = owner;
        }
        return t.series;
      }
      case NODE -> {
        if (t.builtFor == null) {
          t.series = builder.nodeExporter(t.index);
          t.builtFor = Boolean.TRUE;
        }
        return t.series;
      }
      default -> {
        Object owner = d == null || ts < d.upMs && d.start != Deployment.Start.RESTARTED
            ? "none" : d;
        if (t.builtFor != owner) {
          t.series = builder.kubelet(owner == d ? d : null, t.index, neighbours);
          t.builtFor = owner;
        }
        return t.series;
      }
    }
  }

  private static int indexOf(Deployment d, String key) {
    for (int k = 0; k < d.tms.size(); k++) {
      Layout.Tm tm = d.tms.get(k);
      if (key.equals("tm/" + tm.target().get("instance") + "/" + tm.pod())) {
        return k;
      }
    }
    return -1;
  }

  private boolean inOutage(long ts) {
    for (long[] o : outages) {
      if (ts >= o[0] && ts < o[1]) {
        return true;
      }
    }
    return false;
  }
}
