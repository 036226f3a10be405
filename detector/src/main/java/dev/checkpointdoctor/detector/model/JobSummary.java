package dev.checkpointdoctor.detector.model;

import java.util.List;

/**
 * @param status {@code learning} while no baseline of the job is ready, {@code anomalous} with an
 *     open anomaly, else {@code ok}
 * @param lastSeenMs event time of the job's newest observation
 */
public record JobSummary(
    String job, String status, List<String> signals, int openAnomalies, long lastSeenMs) {}
