package dev.checkpointdoctor.lab;

import static dev.checkpointdoctor.lab.Lab.log;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A burstable volume for the disk_throttling scenario: an ext4 file system on loop devices whose
 * I/O budget is a token bucket, enforced by the root blkio cgroup (cgroup v1) and refreshed every
 * second by a controller thread.
 *
 * <p>Two loop devices are stacked: the file system lives on the <em>volume</em> device, which
 * passes every request with direct I/O to the <em>backend</em> device (on a sparse file in the
 * work dir), and the limit is put on the backend. Why not one device: blk-throttle holds bios
 * <em>before</em> they are accounted to the device, so a throttled single loop device shows its
 * ceiling in IOPS but reads ~1 % busy with sub-millisecond latency (measured: 100 IOPS limit, 28 ms
 * of io_ticks in 2 s). With the stack, the volume's requests stay in flight while the backend
 * waits for tokens, so the volume the job writes to reads busy and slow, as a cloud volume does
 * when its provider throttles it out of sight. The limit is in the root cgroup so kernel writeback
 * (which runs in no process's cgroup) is throttled too; it never touches a real disk.
 *
 * <p>The bucket holds throughput credits, like st1/sc1 volumes (and instance-level EBS burst
 * bandwidth). Controller (1 s tick): used = bytes read+written on the backend in the last second
 * ({@code blkio.throttle.io_service_bytes}); credits += BASE − used (capped at CAP; they may go
 * negative, so the long-run average cannot exceed BASE); limit = min(BURST, credits + BASE), never
 * below BASE, written to the read and write bytes/s limits of the backend. Why bytes and not
 * IOPS: an IOPS ceiling on the backend does not show as one on the volume (its requests are split
 * and merged on the way down, measured: 25 backend IOPS were 5–14 volume IOPS a second), while
 * bytes pass the stack unchanged, so the volume's written bytes sit at the ceiling. The bucket
 * starts full; {@link Faults#diskCreditsExhausted} fast-forwards it to nearly empty (the lab cannot
 * wait the half hour a real bucket lasts), after which the volume bursts briefly and is then held
 * at BASE.
 */
final class BurstableDisk implements LabVolume {
  static final Path BLKIO = Path.of("/sys/fs/cgroup/blkio");
  static final String[] LIMIT_FILES = {"blkio.throttle.read_iops_device",
      "blkio.throttle.write_iops_device", "blkio.throttle.read_bps_device",
      "blkio.throttle.write_bps_device"};
  static final long MIB = 1 << 20;

  /**
   * Baseline, bytes/s read+written: what an exhausted volume delivers. The job writes ~14 MB/s
   * (RocksDB flushes and compactions, checkpoint copies), so this is well below its demand.
   */
  static final long BASE = Long.getLong("lab.disk.baseMiB", 4) * MIB;
  /** Burst ceiling while credits last; far above the job's demand, so the volume follows it. */
  static final long BURST = Long.getLong("lab.disk.burstMiB", 250) * MIB;
  /** Bucket size in bytes (st1: 1 TiB of credits per TiB of volume); it starts full. */
  static final long CAP = Long.getLong("lab.disk.capMiB", 1 << 20) * MIB;
  /** Credits left when the fault fast-forwards the bucket: a few seconds of burst, then BASE. */
  static final long LEFT_AT_FAULT = Long.getLong("lab.disk.leftAtFaultMiB", 40) * MIB;
  static final long SIZE = 1L << 30;

  final Path mount;
  private final Path image;
  private final Path controllerLog;
  private String backend; // /dev/loopN carrying the limit
  private String volume; // /dev/loopM with the file system
  private String backendDev; // MAJ:MIN of the backend
  private boolean mounted;
  private Thread controller;
  private volatile boolean stop;
  private volatile long limit;
  private volatile long credits = CAP;

  private BurstableDisk(Path work) {
    this.mount = work.resolve("disk");
    this.image = work.resolve("disk.img");
    this.controllerLog = work.resolve("disk-controller.log");
  }

  /** Why this machine cannot run the scenario, or null when it can. */
  static String cannotRun() {
    List<String> missing = new ArrayList<>();
    if (!"root".equals(System.getProperty("user.name"))) {
      missing.add("not root (loop devices, mount and the root blkio cgroup need root)");
    }
    if (!Files.exists(Path.of("/dev/loop-control"))) {
      missing.add("no /dev/loop-control (loop devices unavailable)");
    }
    for (String f : LIMIT_FILES) {
      if (!Files.isWritable(BLKIO.resolve(f))) {
        missing.add(BLKIO.resolve(f) + " not writable (needs cgroup v1 blkio with throttling)");
        break;
      }
    }
    if (!Files.isReadable(BLKIO.resolve("blkio.throttle.io_serviced"))) {
      missing.add(BLKIO.resolve("blkio.throttle.io_serviced") + " not readable");
    }
    for (String b : List.of("losetup", "mkfs.ext4", "mount", "umount")) {
      if (Proc.sbin(b) == null) {
        missing.add(b + " not found");
      }
    }
    return missing.isEmpty() ? null : String.join("; ", missing);
  }

  /** Creates, formats and mounts the volume; on failure undoes what was done. */
  static BurstableDisk create(Path work) throws IOException, InterruptedException {
    BurstableDisk d = new BurstableDisk(work);
    try {
      d.setUp();
    } catch (IOException | InterruptedException | RuntimeException e) {
      d.close();
      throw e;
    }
    return d;
  }

  private void setUp() throws IOException, InterruptedException {
    try (var f = new java.io.RandomAccessFile(image.toFile(), "rw")) {
      f.setLength(SIZE); // sparse: takes space only as the job writes
    }
    backend = Proc.run("losetup", "--find", "--show", image.toString()).strip();
    volume = Proc.run("losetup", "--find", "--show", "--direct-io=on", backend).strip();
    backendDev = Files.readString(Path.of("/sys/block", name(backend), "dev")).strip();
    Proc.run("mkfs.ext4", "-q", "-F", volume);
    Files.createDirectories(mount);
    Proc.run("mount", volume, mount.toString());
    mounted = true;
    setLimit(BURST);
    controller = new Thread(this::control, "burst-controller");
    controller.setDaemon(true);
    controller.start();
    log("burstable disk: ext4 on %s (direct I/O onto %s = %s, 1 GiB sparse %s) mounted at %s;"
        + " throughput bucket BASE %d MiB/s, BURST %d MiB/s, CAP %d MiB, full; controller log %s",
        volume, backend, backendDev, image, mount, BASE / MIB, BURST / MIB, CAP / MIB, controllerLog);
  }

  @Override
  public Path dir() {
    return mount;
  }

  @Override
  public boolean holdsCheckpoints() {
    return true;
  }

  @Override
  public String volumeDevice() {
    return name(volume);
  }

  String backendDevice() {
    return name(backend);
  }

  private static String name(String dev) {
    return Path.of(dev).getFileName().toString();
  }

  private void control() {
    try (Writer w = Files.newBufferedWriter(controllerLog, StandardCharsets.UTF_8)) {
      w.write("# time ops bytes credits_bytes limit_bytes_per_s\n");
      long prev = serviced("blkio.throttle.io_serviced");
      long prevBytes = serviced("blkio.throttle.io_service_bytes");
      boolean exhausted = false;
      long next = System.nanoTime();
      while (!stop) {
        next += TimeUnit.SECONDS.toNanos(1);
        long sleep = next - System.nanoTime();
        if (sleep > 0) {
          TimeUnit.NANOSECONDS.sleep(sleep);
        }
        if (stop) {
          break;
        }
        if (Faults.diskCreditsExhausted && !exhausted) {
          exhausted = true;
          credits = Math.min(credits, LEFT_AT_FAULT);
        } else if (!Faults.diskCreditsExhausted && exhausted) {
          exhausted = false;
          credits = CAP;
        }
        long cur = serviced("blkio.throttle.io_serviced");
        long curBytes = serviced("blkio.throttle.io_service_bytes");
        long ops = cur - prev;
        long bytes = curBytes - prevBytes;
        prev = cur;
        prevBytes = curBytes;
        credits = Math.min(CAP, credits + BASE - bytes);
        long lim = Math.max(BASE, Math.min(BURST, credits + BASE));
        if (lim != limit) {
          setLimit(lim);
        }
        w.write(String.format(Locale.ROOT, "%s %d %d %d %d%n", Instant.now(), ops, bytes, credits,
            lim));
        w.flush();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      System.err.println("burst controller stopped: " + e);
    }
  }

  /** Reads + writes (operations or bytes) the root cgroup has serviced on the backend. */
  private long serviced(String file) throws IOException {
    long n = 0;
    for (String l : Files.readAllLines(BLKIO.resolve(file))) {
      String[] p = l.trim().split("\\s+");
      if (p.length == 3 && p[0].equals(backendDev) && (p[1].equals("Read") || p[1].equals("Write"))) {
        n += Long.parseLong(p[2]);
      }
    }
    return n;
  }

  private void setLimit(long bps) throws IOException {
    Files.writeString(BLKIO.resolve("blkio.throttle.read_bps_device"), backendDev + " " + bps);
    Files.writeString(BLKIO.resolve("blkio.throttle.write_bps_device"), backendDev + " " + bps);
    limit = bps;
  }

  long limit() {
    return limit;
  }

  long credits() {
    return credits;
  }

  /** Stops the controller, removes the limits, unmounts, detaches; tolerates partial set-up. */
  @Override
  public synchronized void close() {
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
    if (backendDev != null) {
      for (String f : LIMIT_FILES) {
        try {
          Files.writeString(BLKIO.resolve(f), backendDev + " 0"); // 0 removes the rule
        } catch (IOException e) {
          System.err.println("resetting " + f + " for " + backendDev + ": " + e);
        }
      }
    }
    if (mounted) {
      Proc.unmount(mount);
      mounted = false;
    }
    for (String dev : new String[] {volume, backend}) {
      if (dev != null) {
        try {
          Proc.run("losetup", "-d", dev);
        } catch (IOException | InterruptedException e) {
          System.err.println("losetup -d " + dev + ": " + e.getMessage());
        }
      }
    }
    volume = null;
    backend = null;
    backendDev = null;
    try {
      Files.deleteIfExists(image);
    } catch (IOException e) {
      System.err.println("deleting " + image + ": " + e);
    }
  }
}
