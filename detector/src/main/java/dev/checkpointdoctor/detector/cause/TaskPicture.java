package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Recent and earlier medians of one task signal per subtask, grouped by task name, so rules can
 * compare a subtask with its peers and the present with the past.
 */
final class TaskPicture {
  record Subtask(String scope, double recent, double earlier) {}

  private final Signal signal;
  private final Map<String, List<Subtask>> byTask = new TreeMap<>();
  /** {@link #all()}, once built; the picture does not change after {@link #build}. */
  private List<Subtask> all;

  private TaskPicture(Signal signal) {
    this.signal = signal;
  }

  static TaskPicture of(JobEvidence job, Signal signal) {
    return job.memo("tasks:" + signal.id(), () -> build(job, signal));
  }

  private static TaskPicture build(JobEvidence job, Signal signal) {
    TaskPicture p = new TaskPicture(signal);
    for (SeriesHistory h : job.histories(signal)) {
      if (!h.scope().startsWith("task:")) {
        continue;
      }
      // the values a judgment reads: since the trouble's onset when there are enough
      double[] r = job.present(h);
      if (r.length == 0) {
        continue;
      }
      p.byTask.computeIfAbsent(JobEvidence.taskName(h.scope()), k -> new ArrayList<>())
          .add(new Subtask(h.scope(), Stats.median(r), job.earlierMedian(h)));
    }
    return p;
  }

  Signal signal() {
    return signal;
  }

  Map<String, List<Subtask>> byTask() {
    return byTask;
  }

  /** Every subtask, by task. Built once: {@link #find} asks for it per busy subtask. */
  List<Subtask> all() {
    if (all == null) {
      List<Subtask> out = new ArrayList<>();
      byTask.values().forEach(out::addAll);
      all = java.util.Collections.unmodifiableList(out);
    }
    return all;
  }

  boolean isEmpty() {
    return byTask.isEmpty();
  }

  /** Subtasks whose recent median is at least {@code threshold}. */
  List<Subtask> atLeast(double threshold) {
    List<Subtask> out = new ArrayList<>();
    for (Subtask s : all()) {
      if (s.recent() >= threshold) {
        out.add(s);
      }
    }
    return out;
  }

  /** Median of the recent medians of a task's subtasks other than {@code scope}. */
  static double peerMedian(List<Subtask> task, String scope) {
    double[] v = task.stream().filter(s -> !s.scope().equals(scope))
        .mapToDouble(Subtask::recent).toArray();
    return Stats.median(v);
  }

  Subtask find(String scope) {
    for (Subtask s : all()) {
      if (s.scope().equals(scope)) {
        return s;
      }
    }
    return null;
  }
}
