package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.MissingSource;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Locale;

/** Prints a replay's timeline for people: one line per event, evidence indented under it. */
final class TimelinePrinter {
  private static final String INDENT = "                        ";

  private TimelinePrinter() {}

  static void print(TimelineEvent e, PrintStream out) {
    String at = Instant.ofEpochMilli(e.atMs()).toString();
    switch (e.kind()) {
      case ANOMALY_OPENED, ANOMALY_RESOLVED -> {
        Anomaly a = e.anomaly();
        boolean opened = e.kind() == TimelineEvent.Kind.ANOMALY_OPENED;
        String unit = a.signal().unit();
        out.printf(Locale.ROOT, "%s  anomaly %s #%d job=%s signal=%s scope=%s observed=%s "
                + "expected=%s band=[%s, %s]%s%n", at, opened ? "opened  " : "resolved", a.id(),
            a.job(), a.signal().id(), a.scope(), Units.format(a.observed(), unit),
            Units.format(a.expected(), unit), Units.format(a.lower(), unit),
            Units.format(a.upper(), unit),
            opened ? " started=" + Instant.ofEpochMilli(a.startedAtMs()) : "");
      }
      case DIAGNOSIS_CHANGED -> {
        Diagnosis d = e.after();
        if (d == null) {
          out.printf(Locale.ROOT, "%s  diagnosis closed job=%s (was %s)%n", at, e.job(),
              e.before() == null ? "none" : e.before().cause());
          return;
        }
        out.printf(Locale.ROOT, "%s  diagnosis        job=%s cause=%s confidence=%.2f signal=%s"
                + "%s (was %s)%n", at, e.job(), d.cause(), d.confidence(), d.signal(),
            d.hoursToTimeout() == null ? ""
                : String.format(Locale.ROOT, " timeout-in=%.1fh", d.hoursToTimeout()),
            e.before() == null ? "none" : e.before().cause());
        CauseHypothesis top = d.top();
        for (CauseHypothesis.Evidence ev : top.evidence()) {
          out.println(INDENT + "evidence: " + ev.sentence() + " [" + ev.signal() + " @ "
              + ev.scope() + "]");
        }
        if (top.remedy() != null && !top.remedy().isEmpty()) {
          out.println(INDENT + "remedy: " + top.remedy());
        }
        for (int i = 1; i < d.ranked().size() && i < 4; i++) {
          CauseHypothesis h = d.ranked().get(i);
          out.printf(Locale.ROOT, "%srunner-up: %s %.2f%n", INDENT, h.cause(), h.confidence());
          if (Boolean.getBoolean("timeline.runnersUp")) {
            for (CauseHypothesis.Evidence ev : h.evidence()) {
              out.println(INDENT + "  evidence: " + ev.sentence());
            }
          }
        }
        for (MissingSource m : d.missingSources()) {
          out.printf(Locale.ROOT, "%smissing source: %s (%s cannot be judged): %s Fix: %s%n",
              INDENT, m.source(), m.cause(), m.why(), m.fix());
        }
      }
      default -> { }
    }
  }
}
