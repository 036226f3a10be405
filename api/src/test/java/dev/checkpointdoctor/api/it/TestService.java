package dev.checkpointdoctor.api.it;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.app.ServiceSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Starts the real service in-process on a free loopback port with a given data directory. */
public final class TestService {
  private TestService() {}

  public static CheckpointDoctor start(Path dataDir, String... extraFlags) throws Exception {
    List<String> args = new ArrayList<>(List.of("--host", "127.0.0.1", "--port", "0",
        "--data-dir", dataDir.toString()));
    args.addAll(List.of(extraFlags));
    return CheckpointDoctor.start(ServiceSettings.parse(args, Map.of()), Clock.systemUTC());
  }

  /**
   * The same, with {@code --port} among the flags (peers must know each other's port), and
   * {@code --host} too when it is not 127.0.0.1.
   */
  public static CheckpointDoctor startOnPort(Path dataDir, String... flags) throws Exception {
    List<String> args = new ArrayList<>(List.of("--data-dir", dataDir.toString()));
    if (!List.of(flags).contains("--host")) {
      args.addAll(List.of("--host", "127.0.0.1"));
    }
    args.addAll(List.of(flags));
    return CheckpointDoctor.start(ServiceSettings.parse(args, Map.of()), Clock.systemUTC());
  }

  public static String url(CheckpointDoctor service, String path) {
    return "http://127.0.0.1:" + service.port() + path;
  }
}
