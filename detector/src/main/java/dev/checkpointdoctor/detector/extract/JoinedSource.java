package dev.checkpointdoctor.detector.extract;

import java.util.ArrayList;
import java.util.List;

/**
 * Something outside Flink's job series whose values belong to the jobs that ran on it at the
 * time: a TaskManager, a node's disk, a container. It holds what it produced in a {@link
 * HeldItems} queue until {@link PendingJoins} can tell which jobs those were.
 *
 * <p>The jobs are looked up in groups tried in order (for a disk: by its node label, then by its
 * instance's host, then by configured aliases); the first group naming any job wins and names
 * the join.
 */
abstract class JoinedSource {
  final String cluster;
  final String scope;
  /** How far the sources of its cluster have got. */
  final Placement.Progress progress;
  final HeldItems held = new HeldItems();
  /** In {@link PendingJoins}' list of sources with held items. */
  boolean waiting;
  /** Its newest item: how far this source itself has got. */
  long newest = SignalExtractor.NONE;
  private long cachedVersion = -1;
  private List<Stay>[] cached;

  JoinedSource(String cluster, String scope, Placement.Progress progress) {
    this.cluster = cluster;
    this.scope = scope;
    this.progress = progress;
  }

  /** Number of look-up groups. */
  abstract int groups();

  /** The join a group stands for ({@code Observation#join()}), or null for Flink's own series. */
  abstract String join(int group);

  /** Adds the stays of one group. */
  abstract void stays(int group, Placement placement, List<Stay> out);

  /** Whether samples no job can be joined to count as an idle TaskManager (else unjoined). */
  boolean idleWhenUnjoined() {
    return false;
  }

  /** The stays of each group, looked up again only when the placement changed. */
  @SuppressWarnings("unchecked")
  final List<Stay>[] stays(Placement placement) {
    if (cached == null || cachedVersion != placement.version()) {
      List<Stay>[] groups = new List[groups()];
      for (int g = 0; g < groups.length; g++) {
        List<Stay> list = new ArrayList<>(2);
        stays(g, placement, list);
        groups[g] = list;
      }
      cached = groups;
      cachedVersion = placement.version();
    }
    return cached;
  }
}
