package dev.checkpointdoctor.eval.scenario;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * What a long offline command is doing, on stderr (stdout stays the result, fit for a file or a
 * pipe): a line when it starts, one every few seconds while it runs, one when it is done.
 */
public final class Progress {
  static final long EVERY_NANOS = 2_000_000_000L;

  private final String tool;
  private final PrintStream err;
  private final long startNanos = System.nanoTime();
  private long nextNanos = startNanos + EVERY_NANOS;

  public Progress(String tool, PrintStream err) {
    this.tool = tool;
    this.err = err;
  }

  /** Always printed; the next {@link #tick} line comes a few seconds after it. */
  public void say(String message) {
    err.println(tool + ": " + message);
    err.flush();
    nextNanos = System.nanoTime() + EVERY_NANOS;
  }

  /** Printed when a few seconds have passed since the last line; cheap to call often. */
  public void tick(Supplier<String> message) {
    long now = System.nanoTime();
    if (now - nextNanos >= 0) {
      nextNanos = now + EVERY_NANOS;
      say(message.get());
    }
  }

  /** The closing line, with the time taken. */
  public void done(String message) {
    say(String.format(Locale.ROOT, "%s (%.1f s)", message,
        (System.nanoTime() - startNanos) / 1e9));
  }
}
