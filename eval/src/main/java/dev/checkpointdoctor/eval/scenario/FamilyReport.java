package dev.checkpointdoctor.eval.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The report of {@code accuracy --family}: per seed (per job only for seeds one may tune on, or
 * when asked), per cause, growth, healthy controls, new user and a summary line; then the same
 * over all seeds. Markdown (level-4 headings: it sits under docs/ACCURACY.md's sections),
 * readable in a terminal.
 */
final class FamilyReport {
  private FamilyReport() {}

  static String render(String family, Map<Long, List<JobResult>> results, boolean perJob) {
    return render(family, false, results, perJob);
  }

  /**
   * @param validation the family is for validation only (every seed is judged, none tuned on)
   * @param results per seed, in the order run
   * @param perJob show per-job lines for every seed, held-out ones included
   */
  static String render(String family, boolean validation, Map<Long, List<JobResult>> results,
      boolean perJob) {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<Long, List<JobResult>> e : results.entrySet()) {
      long seed = e.getKey();
      b.append(String.format(Locale.ROOT, "#### %s, seed %d (%s)%n%n", family, seed,
          validation ? "validation" : EvaluationSeeds.role(seed)));
      boolean jobs = perJob || (!validation && EvaluationSeeds.train(seed));
      if (jobs) {
        jobTable(b, e.getValue());
      } else {
        b.append(validation
            ? "Per-job lines of a validation family are hidden (`--per-job` shows them).\n\n"
            : "Per-job lines of held-out seeds are hidden (`--per-job` shows them).\n\n");
      }
      body(b, e.getValue());
    }
    if (results.size() > 1) {
      List<JobResult> all = results.values().stream().flatMap(List::stream).toList();
      b.append(String.format(Locale.ROOT, "#### %s, all seeds (%s)%n%n", family,
          results.keySet().stream().map(String::valueOf).collect(Collectors.joining(", "))));
      body(b, all);
    }
    return b.toString();
  }

  private static void body(StringBuilder b, List<JobResult> rs) {
    causeTable(b, rs);
    twoFaults(b, rs);
    unjoinable(b, rs);
    growth(b, rs);
    healthy(b, rs);
    newUser(b, rs);
    b.append(summary(rs)).append("\n\n");
  }

  /** The one-line figures: top-1, recall, detection, growth, healthy anomalies and alerts. */
  static String summary(List<JobResult> rs) {
    List<JobResult> faults = faults(rs);
    List<JobResult> healthy = of(rs, ScenarioKind.HEALTHY);
    List<JobResult> growth = growing(rs, 0.02);
    long named = faults.stream().filter(JobResult::namedFirst).count();
    long recalled = faults.stream().filter(JobResult::recalled).count();
    long detected = faults.stream().filter(JobResult::detected).count();
    List<JobResult> takenBack = faults.stream().filter(r -> r.takenBack() > 0).toList();
    return String.format(Locale.ROOT, "**Summary:** top-1 %s, recall %s, detected %s; right "
            + "cause taken back for another %d/%d (%d times); growth "
            + ">= 2 %%/h named within 2 h %s (with a forecast %s); healthy jobs with an anomaly "
            + "%d/%d (%d anomalies), healthy jobs alerting %d/%d (%d alerts, %d diagnoses)",
        ratio(named, faults.size()), ratio(recalled, faults.size()),
        ratio(detected, faults.size()), takenBack.size(), faults.size(),
        takenBack.stream().mapToInt(JobResult::takenBack).sum(),
        ratio(growth.stream().filter(JobResult::growthNamedEarly).count(), growth.size()),
        ratio(growth.stream().filter(JobResult::forecastEarly).count(), growth.size()),
        healthy.stream().filter(r -> r.timeline().anomaliesTotal() > 0).count(), healthy.size(),
        healthy.stream().mapToInt(r -> r.timeline().anomaliesTotal()).sum(),
        healthy.stream().filter(r -> r.alerts() > 0).count(), healthy.size(),
        healthy.stream().mapToInt(JobResult::alerts).sum(),
        healthy.stream().mapToInt(JobResult::diagnoses).sum());
  }

  private static void jobTable(StringBuilder b, List<JobResult> rs) {
    b.append("| Job | Kind | Expected | Anomalies before | Detected | First signal "
        + "| First cause named | Right cause after | Named before it | Taken back for "
        + "| Growth named / forecast | Alerts | Diagnoses |\n");
    b.append("| --- | --- | --- | ---: | --- | --- | --- | --- | --- | --- | --- | ---: "
        + "| ---: |\n");
    for (JobResult r : rs) {
      CauseTimeline t = r.timeline();
      boolean h = r.healthy();
      long start = r.truth().faultStartMs();
      String growth = r.kind() == ScenarioKind.GROWTH || r.growthPerHour() > 0
          ? String.format(Locale.ROOT, "%.2f %%/h: %s / %s", r.growthPerHour() * 100,
              minutes(r.stateGrowthMs()), minutes(r.forecastMs()))
          : r.kind() == ScenarioKind.NEW_USER
              ? "state_growth " + (r.namedStateGrowth() ? "**named**" : "not named")
                  + ", stale evidence " + r.staleEvidence()
              : "-";
      b.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s "
              + "| %s | %s | %d |%n", r.truth().name(), r.kind().id(), r.expected(),
          t.anomaliesBefore(), h ? "-" : r.detected() ? "yes" : "**no**",
          t.firstSignal() == null ? "-" : t.firstSignal() + " +" + minutes(
              t.firstAnomalyAfterMs() - start),
          h || t.firstKnownCause() == null ? "-" : (r.namedFirst() ? t.firstKnownCause()
              : "**" + t.firstKnownCause() + "**"),
          h ? "-" : minutes(r.causeDelayMs()),
          t.wrongBefore().isEmpty() ? "-" : String.join(", ", t.wrongBefore()),
          r.takenBackTo().isEmpty() ? "-" : String.join(", ", r.takenBackTo()), growth,
          h ? Integer.toString(r.alerts()) : r.alerts() + " (" + r.alertsBefore() + " before)",
          r.diagnoses()));
    }
    b.append('\n');
  }

  /**
   * Per cause over the fault jobs judged by top-1 (not the unjoinable ones). With jobs that have
   * two faults at once, a column counts those whose first cause named was the other real fault:
   * not top-1 (the root cause started first), but not a wrong cause either (docs/FAMILY2.md).
   */
  private static void causeTable(StringBuilder b, List<JobResult> rs) {
    Map<String, List<JobResult>> byCause = new LinkedHashMap<>();
    for (JobResult r : faults(rs)) {
      byCause.computeIfAbsent(r.expected(), k -> new ArrayList<>()).add(r);
    }
    if (byCause.isEmpty()) {
      return;
    }
    boolean duals = rs.stream().anyMatch(r -> r.alsoPresent() != null);
    b.append("| Cause | Jobs | Detected | Named first | Recall | ")
        .append(duals ? "Named the other real fault | " : "").append("Named instead |\n");
    b.append("| --- | ---: | ---: | ---: | ---: | ").append(duals ? "---: | " : "")
        .append("--- |\n");
    for (Map.Entry<String, List<JobResult>> e : byCause.entrySet()) {
      List<JobResult> l = e.getValue();
      Map<String, Integer> instead = new TreeMap<>();
      for (JobResult r : l) {
        if (!r.namedFirst() && !r.namedOtherFault()) {
          String first = r.timeline().firstKnownCause();
          instead.merge(first == null ? "nothing" : first, 1, Integer::sum);
        }
      }
      b.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %s%s |%n", e.getKey(),
          l.size(), l.stream().filter(JobResult::detected).count(),
          l.stream().filter(JobResult::namedFirst).count(),
          l.stream().filter(JobResult::recalled).count(),
          duals ? l.stream().filter(JobResult::namedOtherFault).count() + " | " : "",
          instead.isEmpty() ? "-" : instead.entrySet().stream()
              .map(x -> x.getKey() + (x.getValue() > 1 ? " x" + x.getValue() : ""))
              .collect(Collectors.joining(", "))));
    }
    b.append('\n');
  }

  private static void twoFaults(StringBuilder b, List<JobResult> rs) {
    List<JobResult> d = faults(rs).stream().filter(r -> r.alsoPresent() != null).toList();
    if (d.isEmpty()) {
      return;
    }
    b.append(String.format(Locale.ROOT, "Two faults at once (in the table above, under the "
            + "root cause, the one that started first): root cause named first %s, the other "
            + "real fault named first %s, another cause named first %s.%n%n",
        ratio(d.stream().filter(JobResult::namedFirst).count(), d.size()),
        ratio(d.stream().filter(JobResult::namedOtherFault).count(), d.size()),
        ratio(d.stream().filter(r -> !r.namedFirst() && !r.namedOtherFault()
            && r.timeline().firstKnownCause() != null).count(), d.size())));
  }

  private static void unjoinable(StringBuilder b, List<JobResult> rs) {
    List<JobResult> u = rs.stream().filter(JobResult::unjoinable).toList();
    if (u.isEmpty()) {
      return;
    }
    Map<String, Integer> first = new TreeMap<>();
    u.forEach(r -> first.merge(r.timeline().firstKnownCause() == null ? "nothing"
        : r.timeline().firstKnownCause(), 1, Integer::sum));
    b.append(String.format(Locale.ROOT, "Root cause in a source the layout does not join "
            + "(`%s` jobs, not in the table or the summary above): cause named first %s, named "
            + "at all %s, its missing source said %s, answered (named or source said) %s; "
            + "first cause named: %s.%n%n", JobResult.UNJOINABLE_PREFIX,
        ratio(u.stream().filter(JobResult::namedFirst).count(), u.size()),
        ratio(u.stream().filter(JobResult::recalled).count(), u.size()),
        ratio(u.stream().filter(JobResult::missingSourceSaid).count(), u.size()),
        ratio(u.stream().filter(JobResult::unjoinableAnswered).count(), u.size()),
        first.entrySet().stream().map(x -> x.getKey() + (x.getValue() > 1 ? " x" + x.getValue()
            : "")).collect(Collectors.joining(", "))));
  }

  /** Fault jobs judged by top-1 and recall: every cause job but the unjoinable ones. */
  private static List<JobResult> faults(List<JobResult> rs) {
    return of(rs, ScenarioKind.FAULT).stream().filter(r -> !r.unjoinable()).toList();
  }

  private static void growth(StringBuilder b, List<JobResult> rs) {
    List<JobResult> slow = growing(rs, 0).stream().filter(r -> r.growthPerHour() < 0.02).toList();
    List<JobResult> fast = growing(rs, 0.02);
    if (slow.isEmpty() && fast.isEmpty()) {
      return;
    }
    b.append(String.format(Locale.ROOT, "Slow state growth (compounding): >= 2 %%/h named "
            + "within 2 h %s, with a forecast %s; 1-2 %%/h named within 2 h %s, with a forecast "
            + "%s; named at all %s.%n%n",
        ratio(fast.stream().filter(JobResult::growthNamedEarly).count(), fast.size()),
        ratio(fast.stream().filter(JobResult::forecastEarly).count(), fast.size()),
        ratio(slow.stream().filter(JobResult::growthNamedEarly).count(), slow.size()),
        ratio(slow.stream().filter(JobResult::forecastEarly).count(), slow.size()),
        ratio(growing(rs, 0).stream().filter(r -> r.stateGrowthMs() >= 0).count(),
            growing(rs, 0).size())));
  }

  private static void healthy(StringBuilder b, List<JobResult> rs) {
    List<JobResult> h = of(rs, ScenarioKind.HEALTHY);
    if (h.isEmpty()) {
      return;
    }
    // only a family whose disks are drained before the ceiling says how many of those are that
    boolean drains = rs.stream().anyMatch(r -> r.truth().shape() != null
        && r.truth().shape().getLong("demandRiseAtMs") != null);
    String drained = !drains ? "" : String.format(Locale.ROOT, " (%d of them only on a disk "
        + "whose credits were being drained: its extra demand, hours before they ran out)",
        rs.stream().filter(r -> !r.healthy() && r.earlyOnlyOnDrain()).count());
    b.append(String.format(Locale.ROOT, "Healthy controls: %d/%d with an anomaly (%d "
            + "anomalies), %d/%d would alert (%d alerts), %d diagnoses opened; fault jobs with "
            + "an anomaly before the fault %d/%d%s.%n%n",
        h.stream().filter(r -> r.timeline().anomaliesTotal() > 0).count(), h.size(),
        h.stream().mapToInt(r -> r.timeline().anomaliesTotal()).sum(),
        h.stream().filter(r -> r.alerts() > 0).count(), h.size(),
        h.stream().mapToInt(JobResult::alerts).sum(),
        h.stream().mapToInt(JobResult::diagnoses).sum(),
        rs.stream().filter(r -> !r.healthy() && r.timeline().anomaliesBefore() > 0).count(),
        rs.stream().filter(r -> !r.healthy()).count(), drained));
  }

  private static void newUser(StringBuilder b, List<JobResult> rs) {
    List<JobResult> n = of(rs, ScenarioKind.NEW_USER);
    if (n.isEmpty()) {
      return;
    }
    b.append(String.format(Locale.ROOT, "New user (jobs 2 and 30-45 minutes old whose "
            + "checkpoints become 20x slower in one step): detected %d/%d, state_growth named "
            + "%d/%d, expected cause named first %d/%d, evidence quoting windows older than the "
            + "job %d.%n%n",
        n.stream().filter(JobResult::detected).count(), n.size(),
        n.stream().filter(JobResult::namedStateGrowth).count(), n.size(),
        n.stream().filter(JobResult::namedFirst).count(), n.size(),
        n.stream().mapToInt(JobResult::staleEvidence).sum()));
  }

  private static List<JobResult> of(List<JobResult> rs, ScenarioKind kind) {
    return rs.stream().filter(r -> r.kind() == kind).toList();
  }

  /** Growth and state_growth jobs growing at least {@code rate} per hour. */
  private static List<JobResult> growing(List<JobResult> rs, double rate) {
    return rs.stream().filter(r -> r.growthPerHour() > 0 && r.growthPerHour() >= rate).toList();
  }

  private static String ratio(long k, long n) {
    return n == 0 ? "-" : String.format(Locale.ROOT, "%d/%d (%.2f)", k, n, (double) k / n);
  }

  private static String minutes(long ms) {
    return ms < 0 ? "never" : String.format(Locale.ROOT, "%.0f min", ms / 60000.0);
  }
}
