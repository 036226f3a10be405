package dev.checkpointdoctor.detector.model;

/**
 * A source of series a cause needs that is absent or not joined to the job, so the cause could
 * not be judged (rather than judged absent).
 *
 * @param source what is missing, e.g. {@code cadvisor} or {@code node_exporter}
 * @param cause the cause id that cannot be judged without it
 * @param why what was seen (or not) that says so
 * @param fix how to make it available: a flag, a scrape configuration
 */
public record MissingSource(String source, String cause, String why, String fix) {}
