package dev.checkpointdoctor.api.bootstrap;

import java.util.List;

/**
 * What one bootstrap reads: a job's series (held and released under its name) or a batch of the
 * series jobs share (TaskManager JVMs, disks, containers; held together at the first start).
 *
 * @param name for logs: the job name, or what the shared batch holds
 * @param job the job_name whose live samples are held meanwhile, or null for shared series
 * @param tiers the selectors to read, each over its own span, checkpoint series first
 */
record Target(String name, String job, List<Tier> tiers) {

  /**
   * One selector and how far back it is read.
   *
   * @param wholeWindow true: per-checkpoint series, read back as far as their baselines keep
   *     (the last --window checkpoints, at least a day), at most the whole --bootstrap-window;
   *     false: per-scrape series, read for what their baselines keep (the last --window scrapes,
   *     and the day before for the daily envelope)
   * @param checkpointCounter a selector of the job's completed-checkpoint counter, whose
   *     changes over the window give the checkpoint interval; null when not a checkpoint tier
   */
  record Tier(List<String> selectors, boolean wholeWindow, String checkpointCounter) {
    Tier(List<String> selectors, boolean wholeWindow) {
      this(selectors, wholeWindow, null);
    }

    /** The selectors joined with {@code or}: one query_range for the tier. */
    String valueQuery() {
      return String.join(" or ", selectors);
    }
  }

  static Target job(Selectors s, String job) {
    return new Target(job, job, List.of(s.jobCheckpoints(job), s.jobScrapes(job)));
  }

  static Target shared(String name, Tier tier) {
    return new Target(name, null, List.of(tier));
  }
}
