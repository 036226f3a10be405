package dev.checkpointdoctor.detector.extract;

import dev.checkpointdoctor.detector.catalog.MetricRule.Kind;
import dev.checkpointdoctor.detector.catalog.MetricRule.Source;
import dev.checkpointdoctor.detector.extract.SignalExtractor.Series;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.function.Consumer;

/**
 * Flink's task and operator series (subtask gauges, RocksDB properties and stall counters): each
 * series gives its signal by itself, sample by sample, so delivery order across series does not
 * matter. They also tell the {@link Placement} where each job runs (tm_id and host labels).
 */
final class TaskSignals {
  private final Placement placement;

  TaskSignals(Placement placement) {
    this.placement = placement;
  }

  /** Fills in a new task, operator or RocksDB series; returns false to skip it. */
  boolean create(Series s, Labels labels, String jobKey, String cluster) {
    if (jobKey == null) {
      return false;
    }
    s.job = jobKey;
    s.cluster = cluster;
    s.progress = placement.progress(cluster);
    Kind kind = s.rule.kind();
    if (kind.source() == Source.TASK) {
      // interned: the many series of one subtask share one scope string
      s.scope = ("task:" + labels.getOrDefault("task_name", "") + "/"
          + labels.getOrDefault("subtask_index", "")).intern();
    } else {
      String base = "operator:" + labels.getOrDefault("operator_name", "") + "/"
          + labels.getOrDefault("subtask_index", "");
      if (kind.source() == Source.ROCKSDB_CF) {
        String cf = s.rule.columnFamily() != null
            ? s.rule.columnFamily() : labels.getOrDefault("column_family", "");
        base = base + "/" + cf;
      }
      s.scope = base.intern();
    }
    String tmId = SignalExtractor.nonEmpty(labels.get("tm_id"));
    String host = SignalExtractor.nonEmpty(labels.get("host"));
    s.tmStay = tmId == null ? null : placement.onTm(cluster + tmId, jobKey);
    s.hostStay = host == null ? null : placement.onHost(cluster + host, jobKey);
    return true;
  }

  void onSample(Series s, long ts, double v, Consumer<Observation> out) {
    place(s, ts);
    switch (s.rule.kind().source()) {
      case TASK -> onTask(s, ts, v, out);
      case ROCKSDB_CF -> {
        if (v >= 0) {
          out.accept(new Observation(s.job, cfSignal(s.rule.kind()), s.scope, ts, v));
        }
      }
      case ROCKSDB_OPERATOR -> {
        double rate = s.rate(ts, v);
        if (!Double.isNaN(rate)) {
          out.accept(new Observation(s.job, Signal.ROCKSDB_STALL, s.scope, ts, rate));
        }
      }
      default -> throw new IllegalArgumentException(s.rule.kind().name());
    }
  }

  private void place(Series s, long ts) {
    if (!s.opened) {
      s.opened = true;
      if (s.tmStay != null) {
        s.tmStay.open(ts);
      }
      if (s.hostStay != null) {
        s.hostStay.open(ts);
      }
    } else {
      if (s.tmStay != null) {
        s.tmStay.seen(ts);
      }
      if (s.hostStay != null) {
        s.hostStay.seen(ts);
      }
    }
    if (ts > s.progress.flink) {
      s.progress.flink = ts;
    }
  }

  void onSeriesEnd(Series s, long ts) {
    if (!s.opened) {
      return;
    }
    if (ts > s.progress.flink) {
      s.progress.flink = ts; // a stale marker is news about that scrape too
    }
    if (s.tmStay != null) {
      s.tmStay.close(ts);
    }
    if (s.hostStay != null) {
      s.hostStay.close(ts);
    }
  }

  private static void onTask(Series s, long ts, double v, Consumer<Observation> out) {
    if (Double.isNaN(v)) {
      return;
    }
    switch (s.rule.kind()) {
      case START_DELAY_NANOS, ALIGNMENT_NANOS -> {
        if (v < 0) {
          return;
        }
        double ms = v / 1e6;
        if (ms != s.last) { // the gauge repeats the last checkpoint's value every scrape
          s.last = ms;
          Signal sig = s.rule.kind() == Kind.START_DELAY_NANOS
              ? Signal.CHECKPOINT_START_DELAY : Signal.CHECKPOINT_ALIGNMENT;
          out.accept(new Observation(s.job, sig, s.scope, ts, ms));
        }
      }
      case BACKPRESSURED_MS_PER_S ->
          out.accept(new Observation(s.job, Signal.BACKPRESSURE, s.scope, ts, v));
      case BUSY_MS_PER_S -> out.accept(new Observation(s.job, Signal.BUSY, s.scope, ts, v));
      case RECORDS_IN_PER_S ->
          out.accept(new Observation(s.job, Signal.RECORDS_IN, s.scope, ts, v));
      default -> { }
    }
  }

  private static Signal cfSignal(Kind k) {
    return switch (k) {
      case RDB_PENDING_COMPACTION -> Signal.ROCKSDB_PENDING_COMPACTION;
      case RDB_DELAYED_WRITE_RATE -> Signal.ROCKSDB_DELAYED_WRITE_RATE;
      case RDB_WRITE_STOPPED -> Signal.ROCKSDB_WRITE_STOPPED;
      case RDB_L0_FILES -> Signal.ROCKSDB_L0_FILES;
      default -> throw new IllegalArgumentException(k.name());
    };
  }
}
