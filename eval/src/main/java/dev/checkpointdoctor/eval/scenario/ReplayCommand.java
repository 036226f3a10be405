package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.Anomaly;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** {@code replay [detector flags] FILE…}: runs recorded histories offline, prints a timeline. */
public final class ReplayCommand {
  static final String USAGE = """
      Usage: checkpoint-doctor replay [OPTIONS] FILE...

      Runs recorded metric histories through the detector offline, in event time, and prints
      the timeline: anomalies opened and resolved, and diagnosis changes with cause,
      confidence, evidence and remedy. FILEs may be gzip'd and may mix formats:
        name{label="v",...} value timestamp_ms             Prometheus text with timestamps
        {__name__="name", label="v"} value timestamp_ms   promtool tsdb dump
      Lines starting with # are skipped. Samples of all files are merged by timestamp; each
      distinct timestamp is one batch, like one remote-write request. Progress goes to stderr.
      Node and container series that joined no job are listed at the end with the
      --host-alias that would join them.

      Options (as for the service):
      """ + DetectorFlags.HELP + """
        --help                  print this help

      Exit code: 0 done, 1 unreadable input, 2 bad arguments.
      """;

  private ReplayCommand() {}

  public static int run(List<String> args, DetectorFlagParser flags) {
    if (args.contains("--help") || args.contains("-h")) {
      System.out.print(USAGE);
      return 0;
    }
    DetectorFlags.Parsed parsed;
    try {
      parsed = DetectorFlags.parse(args, Set.of(), flags);
      if (parsed.positional().isEmpty()) {
        throw new UsageException("no FILE given");
      }
    } catch (UsageException e) {
      System.err.println("checkpoint-doctor replay: " + e.getMessage());
      System.err.println("Run with --help for usage.");
      return 2;
    }
    List<Path> files = new ArrayList<>();
    for (String f : parsed.positional()) {
      Path p = Path.of(f);
      if (!Files.isReadable(p) || Files.isDirectory(p)) {
        System.err.println("checkpoint-doctor replay: " + f + ": not a readable file");
        return 1;
      }
      files.add(p);
    }
    Progress progress = new Progress("replay", System.err);
    OfflineReplay replay = new OfflineReplay(parsed.settings()).reportingTo(progress);
    try {
      replay.replayFiles(files);
    } catch (HistoryFormatException e) {
      System.err.println("checkpoint-doctor replay: " + e.getMessage());
      return 1;
    }
    progress.done(String.format(java.util.Locale.ROOT, "done: %,d samples, %d events",
        replay.samples(), replay.events().size()));
    if (replay.samples() == 0) {
      System.out.println("replay: no samples in " + files);
      return 0;
    }
    System.out.printf("replay: %d file(s), %d samples, %s .. %s%n", files.size(),
        replay.samples(), Instant.ofEpochMilli(replay.firstTimestampMs()),
        Instant.ofEpochMilli(replay.lastTimestampMs()));
    for (TimelineEvent e : replay.events()) {
      TimelinePrinter.print(e, System.out);
    }
    Set<String> jobs = new TreeSet<>();
    replay.detector().jobs().forEach(j -> jobs.add(j.job()));
    for (String job : jobs) {
      List<Anomaly> open = replay.detector().anomalies(job, true, Long.MIN_VALUE);
      String diagnosis = replay.detector().diagnosis(job)
          .map(d -> d.cause() + String.format(java.util.Locale.ROOT, " (%.2f)", d.confidence()))
          .orElse("none");
      System.out.printf("end: job=%s open-anomalies=%d diagnosis=%s%n", job, open.size(),
          diagnosis);
    }
    replay.joinReport().forEach(System.out::println);
    return 0;
  }
}
