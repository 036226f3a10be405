package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.detector.pipeline.DetectorState;
import dev.checkpointdoctor.detector.pipeline.DetectorStateCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the detector's state in one file under the data directory. Writes go to a temporary file
 * that is fsynced and then renamed over the old one, so a crash leaves either the old or the new
 * snapshot, never a torn one. A snapshot that cannot be read is moved aside and the service
 * starts empty.
 */
public final class SnapshotStore {
  private static final Logger logger = Logger.getLogger(SnapshotStore.class.getName());
  static final String FILE = "state.snapshot";

  private final Path dir;
  private final Clock clock;
  private final AtomicLong saved = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile long lastSuccessMs;
  private volatile String problem;

  public SnapshotStore(Path dir, Clock clock) {
    this.dir = dir;
    this.clock = clock;
  }

  public Path file() {
    return dir.resolve(FILE);
  }

  /** What was restored and how, for the start-up line. */
  public record Loaded(DetectorState state, String description) {}

  public Loaded load() throws IOException {
    DataDir.prepare(dir);
    Path file = file();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new Loaded(DetectorState.empty(), "no snapshot, starting empty");
    }
    try {
      DetectorState state = DetectorStateCodec.decode(bytes);
      return new Loaded(state, "snapshot with " + state.trackers().size() + " baselines and "
          + state.resolved().size() + " resolved anomalies from " + file);
    } catch (IOException | RuntimeException e) {
      Path aside = dir.resolve(FILE + ".corrupt-" + clock.millis());
      Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
      logger.log(Level.WARNING, "snapshot " + file + " is unreadable (" + e.getMessage()
          + "); moved to " + aside + ", starting empty");
      return new Loaded(DetectorState.empty(), "unreadable snapshot set aside as " + aside
          + ", starting empty");
    }
  }

  /**
   * Writes atomically and keeps count: a failure is remembered (see {@link #problem()}) until a
   * later save succeeds.
   *
   * @return the bytes written
   */
  public synchronized long save(DetectorState state) throws IOException {
    try {
      long n = write(state);
      saved.incrementAndGet();
      lastSuccessMs = clock.millis();
      problem = null;
      return n;
    } catch (IOException | RuntimeException e) {
      failed.incrementAndGet();
      problem = "snapshot to " + file() + " failed: " + (e instanceof IOException io
          ? DataDir.reason(io) : String.valueOf(e.getMessage()));
      throw e;
    }
  }

  /** Why the last snapshot failed, or null when it succeeded (or none was attempted yet). */
  public String problem() {
    return problem;
  }

  public long savedCount() {
    return saved.get();
  }

  public long failedCount() {
    return failed.get();
  }

  /** Wall-clock time of the last successful save, or 0 before the first. */
  public long lastSuccessMs() {
    return lastSuccessMs;
  }

  /** Temp file, fsync, rename, fsync of the directory. */
  private long write(DetectorState state) throws IOException {
    Files.createDirectories(dir);
    byte[] bytes = DetectorStateCodec.encode(state);
    Path tmp = dir.resolve(FILE + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    try {
      Files.move(tmp, file(), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file(), StandardCopyOption.REPLACE_EXISTING);
    }
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      // Some file systems cannot open a directory for fsync; the rename is still atomic.
    }
    return bytes.length;
  }
}
