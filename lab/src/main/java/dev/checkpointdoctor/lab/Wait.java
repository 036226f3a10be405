package dev.checkpointdoctor.lab;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes; nothing waits a fixed time. */
final class Wait {
  private Wait() {}

  static <T> T until(String what, Duration timeout, Supplier<T> probe) {
    T v = poll(timeout, Duration.ofMillis(200), probe);
    if (v == null) {
      throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
    }
    return v;
  }

  /** The first non-null, non-false answer of probe, or null at the deadline. */
  static <T> T poll(Duration timeout, Duration every, Supplier<T> probe) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        T value = probe.get();
        if (value != null && !Boolean.FALSE.equals(value)) {
          return value;
        }
      } catch (IllegalStateException e) {
        throw e;
      } catch (RuntimeException e) {
        // not yet
      }
      if (System.nanoTime() >= deadline) {
        return null;
      }
      try {
        Thread.sleep(every.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting", e);
      }
    }
  }
}
