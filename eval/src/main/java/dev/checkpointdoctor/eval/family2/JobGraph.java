package dev.checkpointdoctor.eval.family2;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The job graphs family 2 runs: linear pipelines of chained tasks separated by exchanges, named
 * as Flink names chained tasks ({@code A -> B} becomes {@code A____B} after the reporter's label
 * filter). Vertex ids are stable across redeploys, as they are when operators carry uids.
 */
final class JobGraph {
  enum Role {
    SOURCE, STATELESS, STATEFUL, SINK
  }

  /**
   * One vertex (a chain of operators running as one task).
   *
   * @param taskName the {@code task_name} label (sanitized)
   * @param keyedInput whether its input is a keyBy (all-to-all hash) exchange
   * @param operatorName {@code operator_name} of the stateful operator, or null
   * @param states raw state (column family) names of the stateful operator
   * @param cpuWeight share of the per-record CPU cost of the job spent in this vertex
   * @param selectivity records entering this vertex per source record
   */
  record Vertex(String taskName, String taskId, Role role, boolean keyedInput,
      String operatorName, String operatorId, List<String> states, double cpuWeight,
      double selectivity) {

    boolean stateful() {
      return operatorName != null;
    }
  }

  static final int TEMPLATES = 4;

  private JobGraph() {}

  static List<Vertex> template(int template, SplittableRandom rng) {
    List<Vertex> v = new ArrayList<>();
    switch (template) {
      case 0 -> {
        v.add(vertex(rng, "Source: KafkaSource-orders -> Filter", Role.SOURCE, false, null,
            List.of(), 0.2, 1));
        v.add(vertex(rng, "dedupe -> Map", Role.STATEFUL, true, "dedupe",
            List.of("seen-order-ids", "_timer_state/event_user-timers"), 0.45, 0.9));
        v.add(vertex(rng, "Sink: Writer -> Sink: Committer", Role.SINK, false, null, List.of(),
            0.35, 0.88));
      }
      case 1 -> {
        v.add(vertex(rng, "Source: clicks", Role.SOURCE, false, null, List.of(), 0.15, 1));
        v.add(vertex(rng, "TumblingEventTimeWindows -> Map", Role.STATEFUL, true,
            "TumblingEventTimeWindows",
            List.of("window-contents", "_timer_state/event_window-timers"), 0.55, 1));
        v.add(vertex(rng, "Sink: clicks-per-minute", Role.SINK, false, null, List.of(), 0.3,
            0.12));
      }
      case 2 -> {
        v.add(vertex(rng, "Source: payments", Role.SOURCE, false, null, List.of(), 0.15, 1));
        v.add(vertex(rng, "ledger_aggregate", Role.STATEFUL, true, "ledger_aggregate",
            List.of("balances", "pending-tx"), 0.35, 1));
        v.add(vertex(rng, "risk_score -> Filter", Role.STATEFUL, true, "risk_score",
            List.of("profile", "_timer_state/processing_user-timers"), 0.3, 1));
        v.add(vertex(rng, "Sink: jdbc-alerts", Role.SINK, false, null, List.of(), 0.2, 0.3));
      }
      default -> {
        v.add(vertex(rng, "Source: sensor-readings -> Timestamps/Watermarks", Role.SOURCE,
            false, null, List.of(), 0.15, 1));
        v.add(vertex(rng, "enrich_device -> Map", Role.STATELESS, false, null, List.of(), 0.25,
            1));
        v.add(vertex(rng, "SessionWindows -> ProcessWindowFunction", Role.STATEFUL, true,
            "SessionWindows", List.of("session-state", "_timer_state/event_window-timers"), 0.35,
            1));
        v.add(vertex(rng, "Sink: Elasticsearch", Role.SINK, false, null, List.of(), 0.25, 0.4));
      }
    }
    return v;
  }

  private static Vertex vertex(SplittableRandom rng, String rawName, Role role, boolean keyed,
      String operator, List<String> states, double cpuWeight, double selectivity) {
    String taskId = Names.hex(rng, 32);
    return new Vertex(Names.sanitize(rawName), taskId, role, keyed,
        operator == null ? null : Names.sanitize(operator), operator == null ? null : taskId,
        states, cpuWeight * Noise.uniform(rng, 0.8, 1.25), selectivity);
  }
}
