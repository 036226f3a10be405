package dev.checkpointdoctor.lab;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.local.LocalFileSystem;

/**
 * {@code slowfile://} = the local file system, except that while {@link Faults#slowStorage} is on
 * every write, sync and close call on a created file (checkpoint data and metadata) sleeps
 * {@link #DELAY_NANOS}:
 * slow checkpoint storage, with no back-pressure and no local disk trouble. Registered through
 * META-INF/services; LocalFileSystem ignores the scheme when it maps a Path to a file.
 */
public final class SlowFileSystemFactory implements FileSystemFactory {
  /**
   * 10 s per call (-Dlab.slowfs.delayMs): an incremental checkpoint writes several files per
   * subtask plus the metadata, so it outlives the 30 s timeout and checkpoints stop completing,
   * as with a checkpoint store that throttles or hangs.
   */
  static final long DELAY_NANOS = Long.getLong("lab.slowfs.delayMs", 10_000L) * 1_000_000L;

  /**
   * 2.5 s per checkpoint (-Dlab.slowfs.checkpointStartDelayMs): checkpoints take ~1.4 times the
   * 2 s interval, so each starts as the last ends, yet stay below 2.5 times it, where the service
   * calls a checkpoint slow rather than the interval short.
   */
  static final long CHECKPOINT_START_DELAY_NANOS =
      Long.getLong("lab.slowfs.checkpointStartDelayMs", 2_500L) * 1_000_000L;

  @Override
  public String getScheme() {
    return "slowfile";
  }

  @Override
  public FileSystem create(URI fsUri) {
    return new SlowFileSystem();
  }

  static final class SlowFileSystem extends LocalFileSystem {
    @Override
    public URI getUri() {
      return URI.create("slowfile:///");
    }

    @Override
    public FSDataOutputStream create(Path filePath, WriteMode overwrite) throws IOException {
      return new SlowStream(super.create(filePath, overwrite));
    }

    @Override
    public boolean mkdirs(Path path) throws IOException {
      // The JobManager creates chk-N after the checkpoint is pending (its clock running) and
      // before any barrier goes out: once per checkpoint, a fixed time whatever the state size,
      // no task thread held up.
      if (Faults.slowCheckpointStart && path.getName().startsWith("chk-")) {
        LockSupport.parkNanos(CHECKPOINT_START_DELAY_NANOS);
      }
      return super.mkdirs(path);
    }
  }

  static final class SlowStream extends FSDataOutputStream {
    private final FSDataOutputStream out;

    SlowStream(FSDataOutputStream out) {
      this.out = out;
    }

    private static void maybeSleep() {
      if (Faults.slowStorage) {
        LockSupport.parkNanos(DELAY_NANOS);
      }
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      maybeSleep();
      out.write(b, off, len);
    }

    @Override
    public long getPos() throws IOException {
      return out.getPos();
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void sync() throws IOException {
      maybeSleep();
      out.sync();
    }

    @Override
    public void close() throws IOException {
      maybeSleep();
      out.close();
    }
  }
}
