package dev.checkpointdoctor.api.it;

import java.time.Duration;
import java.util.function.Supplier;

/** Waits for a condition with a deadline, polling; tests never sleep for a fixed time. */
public final class Await {
  private Await() {}

  public static <T> T until(String what, Duration timeout, Supplier<T> probe) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Throwable last = null;
    while (System.nanoTime() < deadline) {
      try {
        T value = probe.get();
        if (value != null && !Boolean.FALSE.equals(value)) {
          return value;
        }
      } catch (RuntimeException e) {
        last = e;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + what, e);
      }
    }
    throw new AssertionError("timed out after " + timeout + " waiting for " + what
        + (last == null ? "" : " (last error: " + last + ")"), last);
  }
}
