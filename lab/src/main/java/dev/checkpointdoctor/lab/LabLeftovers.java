package dev.checkpointdoctor.lab;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Undoes what a lab run that could not clean up after itself (SIGKILL, a JVM crash: its
 * shutdown hook never ran) left on the machine: mounts in its work dir, loop devices over files
 * in it (and their blkio limits), its servers, its CPU cgroups. A work dir belongs to a dead run
 * when the lab JVM named in its {@code lab.pid} is gone (without one, when nothing in it was
 * written for 10 minutes); nothing of a live run is touched.
 * Every run sweeps at its start, and {@code Lab clean} sweeps on demand.
 */
final class LabLeftovers {
  static final String PREFIX = "cpd-lab-";
  private static final String PID_FILE = "lab.pid";
  private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));
  private static final Pattern LOOP = Pattern.compile("^(/dev/loop\\d+): .*\\((.*?)(?: \\(deleted\\))?\\)$");
  private static final Pattern CGROUP = Pattern.compile(PREFIX + "(\\d+)");

  private LabLeftovers() {}

  /** Marks a new work dir as this JVM's, so that a later sweep leaves it alone while we live. */
  static void claim(Path work) throws IOException {
    Files.writeString(work.resolve(PID_FILE), ProcessHandle.current().pid() + "\n");
  }

  /** Removes the leftovers of dead runs; returns what it did, one line each. */
  static List<String> sweep() {
    List<String> done = new ArrayList<>();
    List<Path> dead = deadWorkDirs();
    if (!dead.isEmpty()) {
      // listed before the unmounts: a loop device over a file on a lazily unmounted FUSE file
      // system no longer shows the file's path
      List<String> loops = staleLoops(dead);
      unmountAll(dead, done);
      detach(loops, done);
      stopServers(dead, done);
    }
    removeCgroups(done);
    return done;
  }

  private static List<Path> deadWorkDirs() {
    List<Path> dead = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(TMP, PREFIX + "*")) {
      for (Path d : dirs) {
        if (Files.isDirectory(d) && !alive(d)) {
          dead.add(d);
        }
      }
    } catch (IOException e) {
      System.err.println("lab leftovers: listing " + TMP + ": " + e);
    }
    return dead;
  }

  private static boolean alive(Path work) {
    try {
      long pid = Long.parseLong(Files.readString(work.resolve(PID_FILE)).strip());
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    } catch (NoSuchFileException e) {
      // a run claiming its dir right now, or one of a lab jar from before the pid file: alive
      // while it writes its logs (Flink's log grows every second)
      return lastWrite(work).isAfter(Instant.now().minus(Duration.ofMinutes(10)));
    } catch (IOException | NumberFormatException e) {
      return true; // unreadable: not ours to judge
    }
  }

  private static Instant lastWrite(Path work) {
    Instant last = Instant.EPOCH;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(work)) {
      for (Path e : entries) {
        Instant t = Files.getLastModifiedTime(e).toInstant();
        last = t.isAfter(last) ? t : last;
      }
      Instant dir = Files.getLastModifiedTime(work).toInstant();
      return dir.isAfter(last) ? dir : last;
    } catch (IOException e) {
      return Instant.now(); // unreadable: not ours to judge
    }
  }

  private static boolean under(String path, List<Path> dirs) {
    return dirs.stream().anyMatch(d -> path.startsWith(d + "/"));
  }

  /** ext4 volumes first, then the FUSE file systems below them: the deepest mount first. */
  private static void unmountAll(List<Path> dead, List<String> done) {
    List<String> points = new ArrayList<>();
    List<String> fuse = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
        String[] f = line.split(" ");
        String point = f[1].replace("\\040", " ");
        if (under(point, dead)) {
          (f[2].startsWith("fuse") ? fuse : points).add(point);
        }
      }
    } catch (IOException e) {
      System.err.println("lab leftovers: /proc/self/mounts: " + e);
    }
    points.addAll(fuse);
    for (String p : points) {
      try {
        Proc.run("umount", "-l", p);
        done.add("unmounted " + p);
      } catch (IOException | InterruptedException e) {
        System.err.println("lab leftovers: umount -l " + p + ": " + e.getMessage());
      }
    }
  }

  /** Loop devices over files of dead runs, and the ones stacked on those, top first. */
  private static List<String> staleLoops(List<Path> dead) {
    List<String[]> loops = new ArrayList<>();
    try {
      for (String line : Proc.run("losetup", "-a").split("\n")) {
        Matcher m = LOOP.matcher(line.strip());
        if (m.matches()) {
          loops.add(new String[] {m.group(1), m.group(2)});
        }
      }
    } catch (IOException | InterruptedException e) {
      return List.of(); // no losetup, or no loop devices: nothing of ours either
    }
    Set<String> stale = new LinkedHashSet<>();
    for (String[] l : loops) {
      if (under(l[1], dead)) {
        stale.add(l[0]);
      }
    }
    List<String> order = new ArrayList<>();
    for (String[] l : loops) {
      if (stale.contains(l[1])) {
        order.add(l[0]); // stacked on a stale one: goes first
      }
    }
    stale.removeAll(order);
    order.addAll(stale);
    return order;
  }

  private static void detach(List<String> order, List<String> done) {
    for (String dev : order) {
      clearBlkioLimits(dev);
      try {
        Proc.run("losetup", "-d", dev);
        done.add("detached " + dev);
      } catch (IOException | InterruptedException e) {
        System.err.println("lab leftovers: losetup -d " + dev + ": " + e.getMessage());
      }
    }
  }

  /** The burstable disk's limits stay on a loop device's number after it is detached. */
  private static void clearBlkioLimits(String dev) {
    Path blkio = Path.of("/sys/fs/cgroup/blkio");
    try {
      String majMin = Files.readString(Path.of("/sys/block", Path.of(dev).getFileName().toString(),
          "dev")).strip();
      for (String f : BurstableDisk.LIMIT_FILES) {
        Path file = blkio.resolve(f);
        if (Files.isReadable(file) && Files.readString(file).contains(majMin + " ")) {
          Files.writeString(file, majMin + " 0");
        }
      }
    } catch (IOException e) {
      System.err.println("lab leftovers: blkio limits of " + dev + ": " + e.getMessage());
    }
  }

  /**
   * The servers a killed lab JVM started outlive it (Prometheus, Alertmanager, the service, the
   * FUSE server): each names the work dir in its command line.
   */
  private static void stopServers(List<Path> dead, List<String> done) {
    List<ProcessHandle> stopped = new ArrayList<>();
    ProcessHandle.allProcesses().forEach(p -> {
      ProcessHandle.Info info = p.info();
      String line = info.command().orElse("") + " "
          + String.join(" ", info.arguments().orElse(new String[0]));
      if (dead.stream().anyMatch(d -> line.contains(d + "/"))) {
        p.destroy();
        stopped.add(p);
        done.add("stopped " + line.substring(0, Math.min(line.length(), 100)) + " (pid "
            + p.pid() + ")");
      }
    });
    for (ProcessHandle p : stopped) {
      try {
        p.onExit().get(10, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        p.destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException e) {
        // gone
      }
    }
  }

  /** CpuQuota's groups are named after the lab JVM's pid. */
  private static void removeCgroups(List<String> done) {
    for (Path root : List.of(CpuQuota.CPU, CpuQuota.CPUACCT)) {
      try (DirectoryStream<Path> groups = Files.newDirectoryStream(root, PREFIX + "*")) {
        for (Path g : groups) {
          Matcher m = CGROUP.matcher(g.getFileName().toString());
          if (!m.matches() || ProcessHandle.of(Long.parseLong(m.group(1))).isPresent()) {
            continue;
          }
          for (String tid : Files.readAllLines(g.resolve("tasks"))) {
            Files.writeString(root.resolve("tasks"), tid);
          }
          Files.delete(g);
          done.add("removed cgroup " + g);
        }
      } catch (IOException e) {
        if (Files.isDirectory(root)) {
          System.err.println("lab leftovers: cgroups under " + root + ": " + e);
        }
      }
    }
  }
}
