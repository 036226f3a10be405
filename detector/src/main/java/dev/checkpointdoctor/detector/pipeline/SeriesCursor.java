package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.extract.SignalExtractor;
import dev.checkpointdoctor.detector.model.Labels;

/**
 * A detector's per-series cursor: which rule applies, the newest timestamp seen, and where the
 * series' last sample went in the extractor and the book, so the next one needs no lookups
 * there. A decoder's label set remembers it in its memo (see {@link ShardRole#remembered}).
 */
final class SeriesCursor {
  /** Final, so a thread that finds this cursor in a label set's memo sees its owner. */
  final Detector owner;
  final MetricRule rule;
  final Labels labels;
  long lastTimestampMs = Long.MIN_VALUE;
  /** Null until the first sample and after the series ended. */
  SignalExtractor.Series extracted;
  /** The book entry the series fed last: almost always the one its next observation feeds. */
  SignalBook.Entry bookHint;

  SeriesCursor(Detector owner, MetricRule rule, Labels labels) {
    this.owner = owner;
    this.rule = rule;
    this.labels = labels;
  }
}
