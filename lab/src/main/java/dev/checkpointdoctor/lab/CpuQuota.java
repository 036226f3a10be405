package dev.checkpointdoctor.lab;

import static dev.checkpointdoctor.lab.Lab.log;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The cpu_throttling scenario's CPU limit: a cgroup v1 {@code cpu} group (with a {@code cpuacct}
 * group beside it, for the usage) that the TaskManager's work runs in, under a CFS quota. The
 * MiniCluster runs in the lab JVM, so the group holds threads, not the process: each task thread
 * moves itself in when its operator opens ({@link #enrolCurrentThread}), threads it starts later
 * (async checkpoint uploads) are born in it, and a controller thread adds RocksDB's background
 * threads (named {@code rocksdb:*}), which RocksDB may have started before the first task opened.
 *
 * <p>Until T the quota is {@link #LIMIT_MILLICPU} (two CPUs by default: the machine's all, so
 * nothing is throttled, like a pod whose limit its work never reaches). At T the quota is cut to
 * {@link #CUT_TO} of what the group used in the minute before T, at least 5 ms a period: the
 * kernel then throttles the group in most 100 ms periods. The counters the kubelet's cAdvisor
 * would export ({@link KubeletCadvisor}) are the group's own {@code cpu.stat}. One line a second
 * goes to {@code cpu-controller.log}.
 */
final class CpuQuota implements AutoCloseable {
  static final Path CPU = Path.of("/sys/fs/cgroup/cpu");
  static final Path CPUACCT = Path.of("/sys/fs/cgroup/cpuacct");
  static final long PERIOD_US = 100_000;
  /** The limit before T, in thousandths of a CPU (a pod's {@code resources.limits.cpu}). */
  static final long LIMIT_MILLICPU = Long.getLong("lab.cpu.limitMilli", 2000);
  /** At T the quota becomes this share of the group's usage in the minute before. */
  static final double CUT_TO = Double.parseDouble(System.getProperty("lab.cpu.cutTo", "0.5"));
  static final long MIN_QUOTA_US = 5_000;

  /** The group task threads enrol in; null when the scenario is not running. */
  private static volatile CpuQuota active;

  final Path cpuGroup;
  final Path acctGroup;
  private final Path controllerLog;
  /** TaskManager resource ids (Flink's {@code <tm_id>} before the reporter's escaping). */
  private final Map<String, Boolean> taskManagers = new LinkedHashMap<>();
  private Thread controller;
  private volatile boolean stop;
  private volatile long quotaUs;
  private volatile double usageBeforeCut = Double.NaN;

  private CpuQuota(Path work, String name) {
    this.cpuGroup = CPU.resolve(name);
    this.acctGroup = CPUACCT.resolve(name);
    this.controllerLog = work.resolve("cpu-controller.log");
  }

  /**
   * Why this machine cannot run the scenario, or null. Which cgroup version the machine has is
   * said either way: the lab moves single threads, which cgroup v1 allows in any group; v2 only
   * in a threaded subtree, which the lab does not set up.
   */
  static String cannotRun() {
    List<String> missing = new ArrayList<>();
    if (!"root".equals(System.getProperty("user.name"))) {
      missing.add("not root (creating cgroups needs root)");
    }
    if (!Files.isWritable(CPU.resolve("cpu.cfs_quota_us"))) {
      boolean v2 = Files.isReadable(Path.of("/sys/fs/cgroup/cgroup.controllers"));
      missing.add(v2 ? "cgroup v2 only (cpu.max): the lab needs cgroup v1's cpu controller "
          + "(/sys/fs/cgroup/cpu/cpu.cfs_quota_us) to put single threads under a quota"
          : CPU.resolve("cpu.cfs_quota_us") + " not writable (no cgroup v1 cpu controller)");
    }
    if (!Files.isWritable(CPUACCT.resolve("tasks"))) {
      missing.add(CPUACCT + " not writable (no cgroup v1 cpuacct controller)");
    }
    if (!Files.isReadable(Path.of("/proc/thread-self"))) {
      missing.add("no /proc/thread-self");
    }
    return missing.isEmpty() ? null : String.join("; ", missing);
  }

  static CpuQuota create(Path work) throws IOException {
    CpuQuota q = new CpuQuota(work, "cpd-lab-" + ProcessHandle.current().pid());
    try {
      Files.createDirectories(q.cpuGroup);
      Files.createDirectories(q.acctGroup);
      Files.writeString(q.cpuGroup.resolve("cpu.cfs_period_us"), String.valueOf(PERIOD_US));
      q.setQuota(LIMIT_MILLICPU * PERIOD_US / 1000);
    } catch (IOException | RuntimeException e) {
      q.close();
      throw e;
    }
    q.controller = new Thread(q::control, "cpu-quota-controller");
    q.controller.setDaemon(true);
    q.controller.start();
    active = q;
    log("CPU quota: cgroup v1 %s (+ %s), period %d ms, quota %d ms (%.2f CPUs) until T, then %.0f %%"
        + " of the last minute's usage; controller log %s", q.cpuGroup, q.acctGroup,
        PERIOD_US / 1000, q.quotaUs / 1000, q.quotaUs / (double) PERIOD_US, CUT_TO * 100,
        q.controllerLog);
    return q;
  }

  /**
   * Moves the calling thread (a task thread opening its operator) into the group and notes its
   * TaskManager. Does nothing when the scenario is not running.
   */
  static void enrolCurrentThread(String tmId) {
    CpuQuota q = active;
    if (q == null) {
      return;
    }
    try {
      String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
      q.enrol(tid);
      synchronized (q.taskManagers) {
        if (tmId != null && q.taskManagers.put(tmId, Boolean.TRUE) == null) {
          log("CPU quota: TaskManager %s", tmId);
        }
      }
    } catch (IOException e) {
      System.err.println("cpu quota: enrolling " + Thread.currentThread().getName() + ": " + e);
    }
  }

  private void enrol(String tid) throws IOException {
    Files.writeString(cpuGroup.resolve("tasks"), tid);
    Files.writeString(acctGroup.resolve("tasks"), tid);
  }

  /** The TaskManagers whose work is in the group. */
  List<String> taskManagers() {
    synchronized (taskManagers) {
      return List.copyOf(taskManagers.keySet());
    }
  }

  /** cpu.stat of the group: nr_periods, nr_throttled, throttled_time (ns), ... */
  Map<String, Long> cpuStat() throws IOException {
    Map<String, Long> m = new TreeMap<>();
    for (String l : Files.readAllLines(cpuGroup.resolve("cpu.stat"))) {
      String[] p = l.trim().split("\\s+");
      if (p.length == 2) {
        m.put(p[0], Long.parseLong(p[1]));
      }
    }
    return m;
  }

  /** CPU time the group used, ns (cpuacct.usage). */
  long usageNs() throws IOException {
    return Long.parseLong(Files.readString(acctGroup.resolve("cpuacct.usage")).strip());
  }

  long quotaUs() {
    return quotaUs;
  }

  /** CPUs the group used in the minute before the cut (NaN before T). */
  double usageBeforeCut() {
    return usageBeforeCut;
  }

  /** The group's threads as "name (tid)", for the log. */
  List<String> threads() throws IOException {
    List<String> out = new ArrayList<>();
    for (String tid : Files.readAllLines(cpuGroup.resolve("tasks"))) {
      out.add(comm(tid) + " (" + tid + ")");
    }
    return out;
  }

  private static String comm(String tid) {
    try {
      return Files.readString(Path.of("/proc/self/task", tid.strip(), "comm")).strip();
    } catch (IOException e) {
      return "?";
    }
  }

  private void control() {
    try (Writer w = Files.newBufferedWriter(controllerLog, StandardCharsets.UTF_8)) {
      w.write("# time usage_cpus nr_periods nr_throttled throttled_ms quota_us threads\n");
      ArrayDeque<long[]> minute = new ArrayDeque<>(); // {nanoTime, usageNs}
      Map<String, Long> prev = cpuStat();
      long prevUsage = usageNs();
      long prevAt = System.nanoTime();
      long next = prevAt;
      boolean cut = false;
      while (!stop) {
        next += TimeUnit.SECONDS.toNanos(1);
        long sleep = next - System.nanoTime();
        if (sleep > 0) {
          TimeUnit.NANOSECONDS.sleep(sleep);
        }
        if (stop) {
          break;
        }
        enrolRocksDbThreads();
        long at = System.nanoTime();
        long usage = usageNs();
        minute.addLast(new long[] {at, usage});
        while (at - minute.peekFirst()[0] > TimeUnit.SECONDS.toNanos(60)) {
          minute.removeFirst();
        }
        if (Faults.cpuQuotaCut && !cut) {
          cut = true;
          long[] first = minute.peekFirst();
          usageBeforeCut = (usage - first[1]) / (double) Math.max(1, at - first[0]);
          setQuota(Math.max(MIN_QUOTA_US, Math.round(CUT_TO * usageBeforeCut * PERIOD_US)));
        } else if (!Faults.cpuQuotaCut && cut) {
          cut = false;
          setQuota(LIMIT_MILLICPU * PERIOD_US / 1000);
        }
        Map<String, Long> cur = cpuStat();
        w.write(String.format(Locale.ROOT, "%s %.3f %d %d %.1f %d %d%n", Instant.now(),
            (usage - prevUsage) / (double) (at - prevAt), delta(cur, prev, "nr_periods"),
            delta(cur, prev, "nr_throttled"), delta(cur, prev, "throttled_time") / 1e6, quotaUs,
            Files.readAllLines(cpuGroup.resolve("tasks")).size()));
        w.flush();
        prev = cur;
        prevUsage = usage;
        prevAt = at;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      System.err.println("cpu quota controller stopped: " + e);
    }
  }

  private static long delta(Map<String, Long> cur, Map<String, Long> prev, String key) {
    return cur.getOrDefault(key, 0L) - prev.getOrDefault(key, 0L);
  }

  /** RocksDB's background threads are the TaskManager's work too; they may predate the tasks. */
  private void enrolRocksDbThreads() throws IOException {
    if (taskManagers().isEmpty()) {
      return; // no task opened yet
    }
    try (var tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path t : (Iterable<Path>) tasks::iterator) {
        String tid = t.getFileName().toString();
        if (comm(tid).startsWith("rocksdb:") && !inGroup(tid)) {
          enrol(tid);
        }
      }
    }
  }

  private boolean inGroup(String tid) throws IOException {
    return Files.readAllLines(cpuGroup.resolve("tasks")).contains(tid);
  }

  private void setQuota(long us) throws IOException {
    Files.writeString(cpuGroup.resolve("cpu.cfs_quota_us"), String.valueOf(us));
    quotaUs = us;
  }

  /**
   * Lifts the quota, moves every thread still in the groups (RocksDB's threads outlive the job)
   * back to the root groups and removes both groups; tolerates partial set-up.
   */
  @Override
  public synchronized void close() {
    active = null;
    stop = true;
    if (controller != null) {
      controller.interrupt();
      try {
        controller.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      controller = null;
    }
    for (Path[] g : new Path[][] {{cpuGroup, CPU}, {acctGroup, CPUACCT}}) {
      if (!Files.isDirectory(g[0])) {
        continue;
      }
      try {
        if (g[0] == cpuGroup) {
          Files.writeString(cpuGroup.resolve("cpu.cfs_quota_us"), "-1");
        }
        for (int attempt = 0; ; attempt++) {
          for (String tid : Files.readAllLines(g[0].resolve("tasks"))) {
            try {
              Files.writeString(g[1].resolve("tasks"), tid);
            } catch (IOException e) {
              // the thread ended meanwhile
            }
          }
          try {
            Files.delete(g[0]); // rmdir of a cgroup: its control files go with it
            break;
          } catch (IOException e) {
            if (attempt >= 5) {
              throw e;
            }
            // a member started a thread meanwhile (born in the group): move it too
          }
        }
      } catch (IOException e) {
        System.err.println("removing cgroup " + g[0] + ": " + e);
      }
    }
  }
}
