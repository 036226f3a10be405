package dev.checkpointdoctor.detector.model;

/**
 * One value of one signal for one job, at an event time taken from the sample that produced it.
 *
 * @param job the Flink {@code job_name} (stable across restarts), not Prometheus' {@code job}
 * @param scope where in the job the value comes from, e.g. {@code job}, {@code
 *     task:<task_name>/<subtask>}, {@code operator:<op>/<subtask>/<column_family>}, {@code
 *     tm:<tm_id>}, {@code node:<host>/<device>}, {@code container:<pod>/<container>}
 * @param join how a node or container series was tied to the job ({@code null} for Flink's own
 *     series): {@code host_label}, {@code instance_host}, {@code node_label}, {@code pod_tm_id},
 *     {@code config}
 */
public record Observation(
    String job, Signal signal, String scope, long timestampMs, double value, String join) {

  public Observation(String job, Signal signal, String scope, long timestampMs, double value) {
    this(job, signal, scope, timestampMs, value, null);
  }
}
