package dev.checkpointdoctor.api.app;

import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Entry point: {@code java -jar checkpoint-doctor.jar [OPTIONS]}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    if (System.getProperty("java.util.logging.manager") == null) {
      System.setProperty("java.util.logging.manager", ServiceLogManager.class.getName());
    }
    if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
      System.setProperty("java.util.logging.SimpleFormatter.format",
          "%1$tFT%1$tT.%1$tLZ %4$s %3$s: %5$s%6$s%n");
    }
    System.exit(run(Arrays.asList(args)));
  }

  static int run(List<String> args) {
    if (!args.isEmpty() && Subcommands.ALL.containsKey(args.get(0))) {
      return Subcommands.ALL.get(args.get(0)).run(args.subList(1, args.size()));
    }
    ServiceSettings settings;
    try {
      settings = ServiceSettings.parse(args, System.getenv());
    } catch (ServiceSettings.HelpRequested help) {
      System.out.print(ServiceSettings.help());
      return 0;
    } catch (ServiceSettings.VersionRequested version) {
      System.out.println("checkpoint-doctor " + Version.current());
      return 0;
    } catch (SettingsException e) {
      System.err.println("checkpoint-doctor: " + e.getMessage());
      System.err.println("Run with --help for the list of options.");
      return 2;
    }
    Logger logger = Logger.getLogger(Main.class.getName());
    try {
      CheckpointDoctor service = CheckpointDoctor.start(settings, Clock.systemUTC());
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          service.stop();
        } catch (Exception e) {
          logger.log(Level.SEVERE, "clean stop failed", e);
        }
      }, "shutdown"));
      Thread.currentThread().join();
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    } catch (Exception e) {
      System.err.println("checkpoint-doctor: cannot start: " + e.getMessage());
      return 1;
    }
  }
}
