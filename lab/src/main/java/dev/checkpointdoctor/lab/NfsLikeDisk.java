package dev.checkpointdoctor.lab;

import static dev.checkpointdoctor.lab.Lab.log;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A volume with NFS-like latency for the rocksdb_slow_local_disk scenario: ext4 on a loop device
 * whose backing file lives on a FUSE file system ({@code nfslike.c}, built here with the C
 * compiler) that answers every read, write and fsync after a random delay while
 * {@link Faults#nfsSlow} is on. The delay follows a latency regime that changes every 2-45 s
 * (2-100 ms medians, log-normal scatter, rare 0.5-2 s hiccups), so the volume is slow but has no
 * ceiling: its throughput moves with the latency of the moment, unlike
 * {@link BurstableDisk}'s token bucket.
 *
 * <p>Why a loop device over FUSE and not RocksDB straight on FUSE: node_exporter sees block
 * devices only, and the loop device is where the kernel counts the volume's I/O time and
 * latency, as it would for a network volume's block device. The loop device uses direct I/O, so
 * every request it gets reaches the FUSE server (up to 128 KiB each) without a second page cache.
 * Only RocksDB's local dir is on the volume; the checkpoints stay on the work dir's disk.
 */
final class NfsLikeDisk implements LabVolume {
  static final long SIZE = 1L << 30;
  private static final String SOURCE = "nfslike.c";

  private final Path work;
  private final Path mount;
  private final Path fuseDir;
  private final Path backingFile;
  private final Path serverLog;
  private Process server;
  private boolean fuseMounted;
  private String volume; // /dev/loopN over the FUSE file
  private boolean mounted;
  private Thread watcher;
  private volatile boolean stop;

  private NfsLikeDisk(Path work) {
    this.work = work;
    this.mount = work.resolve("disk");
    this.fuseDir = work.resolve("nfs");
    this.backingFile = work.resolve("nfs-backing.img");
    this.serverLog = work.resolve("nfslike.log");
  }

  /** Why this machine cannot run the scenario, or null when it can. */
  static String cannotRun() {
    List<String> missing = new ArrayList<>();
    if (!"root".equals(System.getProperty("user.name"))) {
      missing.add("not root (mounting FUSE and ext4, loop devices need root)");
    }
    if (!Files.isReadable(Path.of("/dev/fuse"))) {
      missing.add("no /dev/fuse (the kernel has no FUSE)");
    }
    if (!Files.exists(Path.of("/dev/loop-control"))) {
      missing.add("no /dev/loop-control (loop devices unavailable)");
    }
    if (!Files.isReadable(Path.of("/usr/include/linux/fuse.h"))) {
      missing.add("no /usr/include/linux/fuse.h (apt-get install linux-libc-dev)");
    }
    for (String b : List.of("cc", "losetup", "mkfs.ext4", "mount", "umount", "kill")) {
      if (Proc.sbin(b) == null) {
        missing.add(b + " not found");
      }
    }
    return missing.isEmpty() ? null : String.join("; ", missing);
  }

  /** Builds the FUSE server, mounts it, makes and mounts the volume; on failure undoes it all. */
  static NfsLikeDisk create(Path work) throws IOException, InterruptedException {
    NfsLikeDisk d = new NfsLikeDisk(work);
    try {
      d.setUp();
    } catch (IOException | InterruptedException | RuntimeException e) {
      d.close();
      throw e;
    }
    return d;
  }

  private void setUp() throws IOException, InterruptedException {
    Path src = work.resolve(SOURCE);
    try (InputStream in = NfsLikeDisk.class.getResourceAsStream(SOURCE)) {
      if (in == null) {
        throw new IOException(SOURCE + " missing from the lab jar");
      }
      Files.copy(in, src);
    }
    Path binary = work.resolve("nfslike");
    Proc.run("cc", "-O2", "-Wall", "-o", binary.toString(), src.toString(), "-lm");
    try (var f = new java.io.RandomAccessFile(backingFile.toFile(), "rw")) {
      f.setLength(SIZE); // sparse
    }
    Files.createDirectories(fuseDir);
    server = new ProcessBuilder(binary.toString(), fuseDir.toString(), backingFile.toString(),
        serverLog.toString(), "16").redirectErrorStream(true)
        .redirectOutput(work.resolve("nfslike.out").toFile()).start();
    Path file = fuseDir.resolve("volume.img");
    Wait.until("FUSE server mounted at " + fuseDir, Duration.ofSeconds(30), () -> {
      if (!server.isAlive()) {
        throw new IllegalStateException("nfslike exited with " + server.exitValue() + ": "
            + read(work.resolve("nfslike.out")));
      }
      return Files.exists(file) ? Boolean.TRUE : null;
    });
    fuseMounted = true;
    volume = Proc.run("losetup", "--find", "--show", "--direct-io=on", file.toString()).strip();
    Proc.run("mkfs.ext4", "-q", "-F", volume);
    Files.createDirectories(mount);
    Proc.run("mount", volume, mount.toString());
    mounted = true;
    watcher = new Thread(this::watch, "nfs-latency-switch");
    watcher.setDaemon(true);
    watcher.start();
    log("NFS-like disk: ext4 on %s (direct I/O onto %s, served by FUSE server %s, pid %d, over"
        + " 1 GiB sparse %s) mounted at %s; healthy until the fault; per-second log %s", volume,
        file, binary, server.pid(), backingFile, mount, serverLog);
  }

  /** Passes {@link Faults#nfsSlow} to the FUSE server (SIGUSR1 on, SIGUSR2 off). */
  private void watch() {
    boolean slow = false;
    while (!stop) {
      try {
        if (Faults.nfsSlow != slow) {
          slow = Faults.nfsSlow;
          Proc.run("kill", slow ? "-USR1" : "-USR2", String.valueOf(server.pid()));
        }
        TimeUnit.MILLISECONDS.sleep(100);
      } catch (InterruptedException e) {
        return;
      } catch (IOException e) {
        System.err.println("nfs latency switch: " + e.getMessage());
        return;
      }
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "(" + e.getMessage() + ")";
    }
  }

  @Override
  public Path dir() {
    return mount;
  }

  @Override
  public String volumeDevice() {
    return Path.of(volume).getFileName().toString();
  }

  @Override
  public boolean holdsCheckpoints() {
    return false;
  }

  /**
   * Healthy latency first (so that RocksDB can close quickly), then unmounts ext4, detaches the
   * loop device, unmounts FUSE (the server exits on it) and deletes the backing file; tolerates
   * partial set-up.
   */
  @Override
  public synchronized void close() {
    stop = true;
    if (watcher != null) {
      watcher.interrupt();
      watcher = null;
    }
    if (server != null && server.isAlive()) {
      try {
        Proc.run("kill", "-USR2", String.valueOf(server.pid()));
      } catch (IOException | InterruptedException e) {
        System.err.println("nfslike: " + e.getMessage());
      }
    }
    if (mounted) {
      Proc.unmount(mount);
      mounted = false;
    }
    if (volume != null) {
      try {
        Proc.run("losetup", "-d", volume);
      } catch (IOException | InterruptedException e) {
        System.err.println("losetup -d " + volume + ": " + e.getMessage());
      }
      volume = null;
    }
    if (fuseMounted) {
      Proc.unmount(fuseDir);
      fuseMounted = false;
    }
    if (server != null) {
      try {
        if (!server.waitFor(10, TimeUnit.SECONDS)) {
          server.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        server.destroyForcibly();
      }
      server = null;
    }
    try {
      Files.deleteIfExists(backingFile);
    } catch (IOException e) {
      System.err.println("deleting " + backingFile + ": " + e);
    }
  }
}
