package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.SignalExtractor.NONE;

import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Decides, in event time, which jobs a node, container or TaskManager sample belongs to. An item
 * at time t is decided once the Flink series of its cluster are known up to t (the cluster's
 * Flink series reached t and every job placed on the source, that still reports, has reported at
 * or after t); or, when that does not come, once the source itself is more than the delivery lag
 * past t (then with what is known). Until then it is held, so it does
 * not matter which source a Prometheus delivers first.
 *
 * <p>Every held sample ends as an observation of the jobs that ran there at its time or is
 * counted: {@code unjoined} (no job's TaskManager on that node or pod) or {@code
 * idle_taskmanager} (a TaskManager running no job's task then).
 */
final class PendingJoins {
  private static final Logger logger = Logger.getLogger(PendingJoins.class.getName());

  private final Placement placement;
  private final long maxLagMs;
  private final long maxHeld;
  private final ArrayList<JoinedSource> waiting = new ArrayList<>();
  private final ArrayList<String> jobs = new ArrayList<>();
  private long held;
  private long unjoined;
  private long unjoinedContainer;
  private long idleTaskManager;
  private boolean loggedLimit;

  PendingJoins(Placement placement, long maxHeld) {
    this.placement = placement;
    this.maxLagMs = placement.maxLagMs();
    this.maxHeld = maxHeld;
  }

  /** Holds one item of {@code source} until its jobs are known. */
  void hold(JoinedSource source, long ts, Signal signal, double value, int samples,
      Consumer<Observation> out) {
    source.held.add(ts, signal, value, samples);
    if (ts > source.newest) {
      source.newest = ts;
    }
    held++;
    if (!source.waiting) {
      source.waiting = true;
      waiting.add(source);
    }
    if (held > maxHeld) {
      // memory bound: decide the oldest item of this source now, with what is known
      if (!loggedLimit) {
        loggedLimit = true;
        logger.warning(maxHeld + " node/container/TaskManager samples wait for their jobs' "
            + "Flink series; deciding the oldest early (a Flink source far behind?)");
      }
      decideHead(source, out);
    }
  }

  /** Decides every held item whose time is known or past waiting for. */
  void flush(Consumer<Observation> out) {
    int kept = 0;
    for (int i = 0; i < waiting.size(); i++) {
      JoinedSource s = waiting.get(i);
      drain(s, out);
      if (s.held.isEmpty()) {
        s.waiting = false;
      } else {
        waiting.set(kept++, s);
      }
    }
    for (int i = waiting.size() - 1; i >= kept; i--) {
      waiting.remove(i);
    }
  }

  private void drain(JoinedSource s, Consumer<Observation> out) {
    long flink = s.progress.flink;
    long known = flink; // NONE when the cluster has sent no Flink series yet: nothing is known
    long silentBefore = flink == NONE ? NONE : flink - maxLagMs;
    for (List<Stay> group : s.stays(placement)) {
      for (int i = 0; i < group.size(); i++) {
        Stay stay = group.get(i);
        if (!stay.closed() && stay.progress < known && stay.progress >= silentBefore) {
          known = stay.progress; // a job placed here has not reported this far yet
        }
      }
    }
    // waiting ends when this source itself is the delivery lag past an item: another node or
    // another job far ahead says nothing about this one
    long forcedBefore = s.newest == NONE ? NONE : s.newest - maxLagMs;
    while (!s.held.isEmpty()) {
      long t = s.held.headTs();
      if ((known == NONE || t > known) && (forcedBefore == NONE || t >= forcedBefore)) {
        return;
      }
      decideHead(s, out);
    }
  }

  private void decideHead(JoinedSource s, Consumer<Observation> out) {
    HeldItems h = s.held;
    long t = h.headTs();
    String join = jobsAt(s, t);
    Signal signal = h.headSignal();
    if (jobs.isEmpty()) {
      if (s.idleWhenUnjoined()) {
        idleTaskManager += h.headSamples();
      } else {
        unjoined += h.headSamples();
        if (s instanceof ContainerSignals.Container) {
          unjoinedContainer += h.headSamples();
        }
      }
    } else if (signal != null && !Double.isNaN(h.headValue())) {
      for (int i = 0; i < jobs.size(); i++) {
        out.accept(new Observation(jobs.get(i), signal, s.scope, t, h.headValue(), join));
      }
    }
    h.pop();
    held--;
  }

  /** Fills {@link #jobs} with the jobs on {@code s} at {@code t}; returns the join used. */
  private String jobsAt(JoinedSource s, long t) {
    jobs.clear();
    List<Stay>[] groups = s.stays(placement);
    for (int g = 0; g < groups.length; g++) {
      List<Stay> group = groups[g];
      for (int i = 0; i < group.size(); i++) {
        Stay stay = group.get(i);
        if (stay.covers(t) && !jobs.contains(stay.job)) {
          jobs.add(stay.job);
        }
      }
      if (!jobs.isEmpty()) {
        return s.join(g);
      }
    }
    return null;
  }

  /** Samples waiting for their jobs. */
  long held() {
    return held;
  }

  long unjoined() {
    return unjoined;
  }

  /** The part of {@link #unjoined()} that came from cAdvisor (container) series. */
  long unjoinedContainer() {
    return unjoinedContainer;
  }

  long idleTaskManager() {
    return idleTaskManager;
  }
}
