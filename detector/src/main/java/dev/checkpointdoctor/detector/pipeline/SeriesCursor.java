package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.extract.SignalExtractor;
import dev.checkpointdoctor.detector.model.Labels;

/**
 * A detector's per-series cursor: which rule applies, the newest timestamp seen, and where the
 * series' last sample went in the extractor and the book, so the next one needs no lookups
 * there. A decoder's label set remembers it in its memo (see {@link ShardRole#remembered}).
 */
final class SeriesCursor extends SignalExtractor.Series {
  /** Final, so a thread that finds this cursor in a label set's memo sees its owner. */
  final Detector owner;
  final Labels labels;
  long lastTimestampMs = Long.MIN_VALUE;
  /**
   * Null until the first sample and after the series ended. The first life's state is this
   * cursor (a header, a reference and the rule fewer per series); after an end, a new one.
   */
  SignalExtractor.Series extracted;
  /** The book entry the series fed last: almost always the one its next observation feeds. */
  SignalBook.Entry bookHint;

  SeriesCursor(Detector owner, MetricRule rule, Labels labels) {
    super(rule);
    this.owner = owner;
    this.labels = labels;
  }
}
