package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.eval.scenario.GeneratedScenario;
import dev.checkpointdoctor.eval.scenario.OfflineReplay;
import dev.checkpointdoctor.eval.scenario.ScenarioManifest;
import dev.checkpointdoctor.eval.scenario.TimelineEvent;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Sanity tool for family 2 (not the evaluation harness): replays a seed's corpus, or some of
 * its scenarios, through the detector and prints per scenario its truth, the first anomaly
 * after the fault (and any before it) and the diagnosis timeline.
 *
 * <pre>
 * java -cp api/target/checkpoint-doctor.jar dev.checkpointdoctor.eval.family2.Family2Replay \
 *     [--seed N] [--only NAME[,NAME…]] [--evidence] [--probe] [--generate-only] [--quiet]
 * </pre>
 *
 * {@code --probe} prints hourly summaries of the raw samples instead (see {@link Probe});
 * {@code --generate-only} plays the scenarios into nothing (the simulator's own cost);
 * {@code --quiet} prints one line per scenario. Times are the CPU time of the replaying thread,
 * which a busy machine does not inflate the way it inflates wall time.
 */
public final class Family2Replay {
  private Family2Replay() {}

  public static void main(String[] args) {
    long seed = 1;
    List<String> only = null;
    boolean evidence = false;
    boolean probe = false;
    boolean generateOnly = false;
    boolean quiet = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--only" -> only = List.of(args[++i].split(","));
        case "--evidence" -> evidence = true;
        case "--probe" -> probe = true;
        case "--generate-only" -> generateOnly = true;
        case "--quiet" -> quiet = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + " (--seed N, --only NAME[,NAME], --evidence, --probe, --generate-only, --quiet)");
      }
    }
    PrintStream out = System.out;
    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory
        .getThreadMXBean();
    long cpu0 = cpu.getCurrentThreadCpuTime();
    long samples = 0;
    for (GeneratedScenario s : new Family2().scenarios(seed)) {
      ScenarioManifest.Entry e = s.truth();
      if (only != null && !only.contains(e.name())) {
        continue;
      }
      if (!quiet) {
        out.printf(Locale.ROOT, "== %s job=%s expected=%s fault=%s %s .. %s%n   %s%n   %s%n",
            e.name(), e.job(), e.expected(), e.faultStartMs() < 0 ? "-"
                : Instant.ofEpochMilli(e.faultStartMs()), Instant.ofEpochMilli(e.startMs()),
            Instant.ofEpochMilli(e.endMs()), e.description(), e.shape().encode());
      }
      if (probe) {
        Probe.print((Family2Scenario) s, out);
        continue;
      }
      long t0 = cpu.getCurrentThreadCpuTime();
      long n;
      String verdict;
      if (generateOnly) {
        long[] count = new long[1];
        s.play((l, ts, v) -> count[0]++);
        n = count[0];
        verdict = "";
      } else {
        OfflineReplay replay = new OfflineReplay(DetectorSettings.defaults());
        replay.replay(s);
        n = replay.samples();
        if (!quiet) {
          report(e, replay, evidence, out);
        }
        verdict = " named " + replay.detector().diagnosis(e.job()).map(Diagnosis::cause)
            .orElse("none");
      }
      samples += n;
      out.printf(Locale.ROOT, "   %s (%s): %d samples, %.1f s CPU%s%n", e.name(), e.expected(),
          n, (cpu.getCurrentThreadCpuTime() - t0) / 1e9, verdict);
    }
    out.printf(Locale.ROOT, "total: %d samples, %.1f s CPU%n", samples,
        (cpu.getCurrentThreadCpuTime() - cpu0) / 1e9);
  }

  static void report(ScenarioManifest.Entry e, OfflineReplay replay, boolean evidence,
      PrintStream out) {
    boolean firstAfter = false;
    int before = 0;
    for (TimelineEvent ev : replay.events()) {
      String at = Instant.ofEpochMilli(ev.atMs()).toString();
      switch (ev.kind()) {
        case ANOMALY_OPENED -> {
          Anomaly a = ev.anomaly();
          boolean after = e.faultStartMs() >= 0 && a.startedAtMs() >= e.faultStartMs();
          if (!after) {
            before++;
            if (before <= 5) {
              out.printf(Locale.ROOT, "   %s  anomaly (before fault) %s @ %s observed=%.4g "
                  + "expected=%.4g%n", at, a.signal().id(), a.scope(), a.observed(), a.expected());
            }
          } else if (!firstAfter) {
            firstAfter = true;
            out.printf(Locale.ROOT, "   %s  first anomaly +%.1f min: %s @ %s observed=%.4g "
                    + "expected=%.4g%n", at, (a.startedAtMs() - e.faultStartMs()) / 60000.0,
                a.signal().id(), a.scope(), a.observed(), a.expected());
          }
        }
        case DIAGNOSIS_CHANGED -> {
          Diagnosis d = ev.after();
          String rel = e.faultStartMs() < 0 ? ""
              : String.format(Locale.ROOT, " (%+.1f min)", (ev.atMs() - e.faultStartMs())
                  / 60000.0);
          if (d == null) {
            out.printf(Locale.ROOT, "   %s%s  diagnosis closed%n", at, rel);
            continue;
          }
          StringBuilder runners = new StringBuilder();
          for (int i = 1; i < Math.min(4, d.ranked().size()); i++) {
            CauseHypothesis h = d.ranked().get(i);
            runners.append(String.format(Locale.ROOT, " %s:%.2f", h.cause(), h.confidence()));
          }
          out.printf(Locale.ROOT, "   %s%s  diagnosis %s %.2f signal=%s | runners-up%s%n", at,
              rel, d.cause(), d.confidence(), d.signal(), runners);
          if (evidence) {
            for (CauseHypothesis.Evidence x : d.top().evidence()) {
              out.println("        evidence: " + x.sentence());
            }
          }
        }
        default -> { }
      }
    }
    if (before > 5) {
      out.printf(Locale.ROOT, "   … %d anomalies before the fault in all%n", before);
    }
    String finalCause = replay.detector().diagnosis(e.job()).map(Diagnosis::cause)
        .orElse("none");
    out.printf(Locale.ROOT, "   at the end: %s (expected %s)%n", finalCause, e.expected());
  }
}
