package dev.checkpointdoctor.detector.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Test harness around one {@link SignalExtractor}: builds label sets as Flink, node_exporter and
 * cAdvisor write them, feeds samples, ends series and collects observations.
 */
final class Feed {
  static final String J = "wordcount";
  static final String JP = "flink_jobmanager_job_";
  static final String TP = "flink_taskmanager_job_task_";
  static final long S = 1_000; // one second in ms
  static final long T0 = 1_700_000_000_000L;
  static final SignalCatalog CATALOG = SignalCatalog.defaults();

  record In(String name, long ts, double value, Labels labels) {
    In at(long t, double v) {
      return new In(name, t, v, labels);
    }
  }

  final SignalExtractor x;
  final List<Observation> out = new ArrayList<>();

  Feed() {
    this(DetectorSettings.defaults(), DeliverySettings.defaults());
  }

  Feed(DetectorSettings settings) {
    this(settings, DeliverySettings.defaults());
  }

  Feed(DetectorSettings settings, DeliverySettings delivery) {
    x = new SignalExtractor(CATALOG, settings, delivery);
  }

  static Labels labels(String name, String... kv) {
    String[] all = Arrays.copyOf(kv, kv.length + 2);
    all[kv.length] = Labels.METRIC_NAME;
    all[kv.length + 1] = name;
    return Labels.of(all);
  }

  static In job(String jobId, String metric, long ts, double v) {
    return new In(JP + metric, ts, v, labels(JP + metric, "job_id", jobId, "job_name", J,
        "host", "jm_1", "job", "prometheus_job", "instance", "jm:9249"));
  }

  static In task(String metric, String taskName, int subtask, long ts, double v, String tmId,
      String host) {
    List<String> kv = new ArrayList<>(List.of("job_id", "a1", "job_name", J, "task_name",
        taskName, "subtask_index", Integer.toString(subtask), "task_id", "t" + taskName));
    if (tmId != null) {
      kv.addAll(List.of("tm_id", tmId));
    }
    if (host != null) {
      kv.addAll(List.of("host", host));
    }
    return new In(TP + metric, ts, v, labels(TP + metric, kv.toArray(new String[0])));
  }

  static In task(String metric, long ts, double v) {
    return task(metric, "map", 0, ts, v, "tm_1", "worker_1");
  }

  static In raw(String name, long ts, double v, String... kv) {
    return new In(name, ts, v, labels(name, kv));
  }

  static In disk(String metric, long ts, double v, String... kv) {
    return raw("node_disk_" + metric, ts, v, kv);
  }

  static Observation job(Signal s, long ts, double v) {
    return new Observation(J, s, "job", ts, v);
  }

  Feed put(In... ins) {
    for (In in : ins) {
      MetricRule r = CATALOG.ruleFor(in.name());
      assertThat(r).as(in.name()).isNotNull();
      x.onSample(r, in.labels(), in.ts(), in.value(), out::add);
    }
    return this;
  }

  /** Samples then the end of a batch, as the detector does after each request. */
  Feed batch(In... ins) {
    put(ins);
    return flush();
  }

  Feed flush() {
    x.flush(out::add);
    return this;
  }

  void end(In in) {
    x.onSeriesEnd(CATALOG.ruleFor(in.name()), in.labels(), in.ts(), out::add);
  }

  List<Observation> take(Signal s) {
    List<Observation> r = out.stream().filter(o -> o.signal() == s).toList();
    out.removeIf(o -> o.signal() == s);
    return r;
  }

  List<Double> values(Signal s) {
    return take(s).stream().map(Observation::value).toList();
  }
}
