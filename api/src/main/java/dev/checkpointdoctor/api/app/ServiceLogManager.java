package dev.checkpointdoctor.api.app;

import java.util.logging.LogManager;

/**
 * java.util.logging's manager, except that it keeps its handlers while the JVM shuts down. The
 * stock manager resets (closes) every handler from a shutdown hook of its own that runs at the
 * same time as the service's, so what the shutdown did (state saved where, how much) was never
 * printed. Installed by {@link Main} through {@code java.util.logging.manager}.
 */
public final class ServiceLogManager extends LogManager {
  @Override
  public void reset() {
    if (!shuttingDown()) {
      super.reset();
    }
  }

  private static boolean shuttingDown() {
    Thread probe = new Thread(() -> { });
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true; // hooks can no longer be added: the shutdown has begun
    }
  }
}
