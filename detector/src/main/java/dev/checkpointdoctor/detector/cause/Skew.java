package dev.checkpointdoctor.detector.cause;

import java.util.List;
import java.util.Map;

/**
 * One subtask far above the other subtasks of its task.
 *
 * @param value the subtask's recent median
 * @param peers the median of its peers' recent medians
 */
record Skew(String scope, double value, double peers) {
  /**
   * The most outstanding subtask of any task with at least two subtasks, when it is at least
   * {@code ratio} times its peers and {@code minGap} above them; else null.
   */
  static Skew find(TaskPicture p, double ratio, double minGap) {
    Skew best = null;
    for (Map.Entry<String, List<TaskPicture.Subtask>> e : p.byTask().entrySet()) {
      List<TaskPicture.Subtask> subs = e.getValue();
      if (subs.size() < 2) {
        continue;
      }
      TaskPicture.Subtask top = subs.get(0);
      for (TaskPicture.Subtask s : subs) {
        if (s.recent() > top.recent()) {
          top = s;
        }
      }
      double peers = TaskPicture.peerMedian(subs, top.scope());
      if (top.recent() >= ratio * Math.max(peers, 0) && top.recent() - peers >= minGap
          && (best == null || top.recent() - peers > best.value - best.peers)) {
        best = new Skew(top.scope(), top.recent(), peers);
      }
    }
    return best;
  }
}
