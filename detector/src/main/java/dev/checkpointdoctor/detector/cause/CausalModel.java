package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.Cause.BACKPRESSURE;
import static dev.checkpointdoctor.detector.cause.Cause.CHECKPOINT_INTERVAL_TOO_SHORT;
import static dev.checkpointdoctor.detector.cause.Cause.CHECKPOINT_STORAGE_SLOW;
import static dev.checkpointdoctor.detector.cause.Cause.CPU_THROTTLING;
import static dev.checkpointdoctor.detector.cause.Cause.DATA_SKEW;
import static dev.checkpointdoctor.detector.cause.Cause.DISK_THROTTLING;
import static dev.checkpointdoctor.detector.cause.Cause.GC_PRESSURE;
import static dev.checkpointdoctor.detector.cause.Cause.LOCAL_DISK_SLOW;
import static dev.checkpointdoctor.detector.cause.Cause.ROCKSDB_WRITE_STALL;
import static dev.checkpointdoctor.detector.cause.Cause.STATE_GROWTH;
import static dev.checkpointdoctor.detector.cause.Cause.UNALIGNED_CHECKPOINT_INFLATION;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which cause produces the signs of which other, written once, roots first. A cause that is
 * present explains a consequence whose own sign did not clearly start before the cause's: the
 * consequence then ranks below it, with evidence that says so ("RocksDB stalls since 12:07
 * follow the disk ceiling since 12:04"). A consequence that started first is left alone: it had
 * another cause.
 */
final class CausalModel {
  /** How far a consequence's confidence stays below the cause that explains it. */
  static final double MARGIN = 0.05;

  /** The relations, read as "X leads to Y, Z": the list in docs/causes/README.md. */
  static final CausalModel FLINK = new CausalModel()
      // A CFS quota starves task threads, GC threads, RocksDB's compaction threads and uploads.
      .when(CPU_THROTTLING).leadsTo(GC_PRESSURE, ROCKSDB_WRITE_STALL, BACKPRESSURE, DATA_SKEW,
          CHECKPOINT_STORAGE_SLOW, CHECKPOINT_INTERVAL_TOO_SHORT, UNALIGNED_CHECKPOINT_INFLATION)
      // A disk at its credit ceiling makes RocksDB stall, the stateful subtasks on that node
      // lag and back-pressure their upstream, and checkpoints slow down (SSTs read from it).
      .when(DISK_THROTTLING).leadsTo(ROCKSDB_WRITE_STALL, BACKPRESSURE, DATA_SKEW,
          CHECKPOINT_STORAGE_SLOW, CHECKPOINT_INTERVAL_TOO_SHORT, UNALIGNED_CHECKPOINT_INFLATION)
      // A local disk slow per I/O (no ceiling) does the same to RocksDB and the tasks on it.
      .when(LOCAL_DISK_SLOW).leadsTo(ROCKSDB_WRITE_STALL, BACKPRESSURE, DATA_SKEW,
          CHECKPOINT_STORAGE_SLOW, CHECKPOINT_INTERVAL_TOO_SHORT, UNALIGNED_CHECKPOINT_INFLATION)
      // GC pauses stop the task threads: back-pressure, slow synchronous checkpoint phases.
      .when(GC_PRESSURE).leadsTo(BACKPRESSURE, DATA_SKEW, CHECKPOINT_STORAGE_SLOW,
          CHECKPOINT_INTERVAL_TOO_SHORT, UNALIGNED_CHECKPOINT_INFLATION)
      // RocksDB write stalls slow the stateful task: back-pressure, slower checkpoints.
      .when(ROCKSDB_WRITE_STALL).leadsTo(BACKPRESSURE, DATA_SKEW, CHECKPOINT_STORAGE_SLOW,
          CHECKPOINT_INTERVAL_TOO_SHORT, UNALIGNED_CHECKPOINT_INFLATION)
      // One hot subtask back-pressures its upstream and holds the barriers back.
      .when(DATA_SKEW).leadsTo(BACKPRESSURE, CHECKPOINT_STORAGE_SLOW,
          CHECKPOINT_INTERVAL_TOO_SHORT)
      // Growing state makes every checkpoint longer.
      .when(STATE_GROWTH).leadsTo(CHECKPOINT_STORAGE_SLOW, CHECKPOINT_INTERVAL_TOO_SHORT)
      // Back-pressure delays barriers: checkpoints take longer, run back to back or expire.
      .when(BACKPRESSURE).leadsTo(CHECKPOINT_STORAGE_SLOW, CHECKPOINT_INTERVAL_TOO_SHORT)
      // Back-pressure under unaligned checkpoints inflates the in-flight data they persist:
      // that names what the back-pressure costs the checkpoints, so it ranks above it.
      .when(UNALIGNED_CHECKPOINT_INFLATION).refines(BACKPRESSURE)
      .when(UNALIGNED_CHECKPOINT_INFLATION).leadsTo(CHECKPOINT_STORAGE_SLOW,
          CHECKPOINT_INTERVAL_TOO_SHORT)
      // A slow store makes checkpoints run long, so they follow each other back to back.
      .when(CHECKPOINT_STORAGE_SLOW).leadsTo(CHECKPOINT_INTERVAL_TOO_SHORT);

  /** The sign each cause is recognised by, as a sentence names it. */
  private static final Map<Cause, String> SIGN = new EnumMap<>(Map.ofEntries(
      Map.entry(DISK_THROTTLING, "the disk ceiling"),
      Map.entry(LOCAL_DISK_SLOW, "the slow disk"),
      Map.entry(ROCKSDB_WRITE_STALL, "RocksDB stalls"),
      Map.entry(GC_PRESSURE, "GC time"),
      Map.entry(CPU_THROTTLING, "CPU throttling"),
      Map.entry(BACKPRESSURE, "back-pressure"),
      Map.entry(DATA_SKEW, "the lagging subtask"),
      Map.entry(STATE_GROWTH, "state growth"),
      Map.entry(UNALIGNED_CHECKPOINT_INFLATION, "in-flight data"),
      Map.entry(CHECKPOINT_STORAGE_SLOW, "stuck checkpoints"),
      Map.entry(CHECKPOINT_INTERVAL_TOO_SHORT, "back-to-back checkpoints")));

  private static final Set<Cause> PLURAL = EnumSet.of(ROCKSDB_WRITE_STALL,
      CHECKPOINT_STORAGE_SLOW, CHECKPOINT_INTERVAL_TOO_SHORT);

  private final Map<Cause, Set<Cause>> leadsTo = new EnumMap<>(Cause.class);
  private final Map<Cause, Set<Cause>> refines = new EnumMap<>(Cause.class);
  /** Causes in the order written: roots first, so a chain is resolved from its root. */
  private final List<Cause> order = new ArrayList<>();

  private final class When {
    private final Cause cause;

    When(Cause cause) {
      this.cause = cause;
    }

    CausalModel leadsTo(Cause... consequences) {
      for (Cause c : consequences) {
        if (c == cause || explains(c, cause)) {
          throw new IllegalArgumentException(c + " cannot both follow and explain " + cause);
        }
        leadsTo.computeIfAbsent(cause, k -> EnumSet.noneOf(Cause.class)).add(c);
      }
      return CausalModel.this;
    }

    CausalModel refines(Cause general) {
      refines.computeIfAbsent(cause, k -> EnumSet.noneOf(Cause.class)).add(general);
      return CausalModel.this;
    }
  }

  private When when(Cause cause) {
    if (!order.contains(cause)) {
      order.add(cause);
    }
    return new When(cause);
  }

  /** Whether {@code cause} produces the signs of {@code consequence}, directly or in a chain. */
  boolean explains(Cause cause, Cause consequence) {
    Set<Cause> direct = leadsTo.getOrDefault(cause, Set.of());
    if (direct.contains(consequence)) {
      return true;
    }
    for (Cause c : direct) {
      if (explains(c, consequence)) {
        return true;
      }
    }
    return false;
  }

  Set<Cause> consequencesOf(Cause cause) {
    return leadsTo.getOrDefault(cause, Set.of());
  }

  static String sign(Cause c) {
    return SIGN.getOrDefault(c, c.id());
  }

  /**
   * Ranks consequences below the present causes that explain them: refinements first (the
   * specific cause names the general one's cost), then each present cause, roots first, caps
   * the confidence of the consequences whose sign did not clearly start before its own.
   *
   * @param present confidence from which a cause counts as present
   */
  void apply(List<Finding> findings, double present) {
    apply(findings, present, null);
  }

  /**
   * The same, for a job whose diagnosis already names {@code standing} (or null): a standing
   * cause that is still present keeps its consequences below it even when their signs began
   * first. Taking it back for its own consequence would be a second alert for one trouble, and
   * its consequences are what it was named to explain.
   */
  void apply(List<Finding> findings, double present, Cause standing) {
    Map<Cause, Finding> by = new EnumMap<>(Cause.class);
    for (Finding f : findings) {
      by.put(f.cause(), f);
    }
    for (Map.Entry<Cause, Set<Cause>> r : refines.entrySet()) {
      Finding specific = by.get(r.getKey());
      if (specific == null || specific.confidence() < present) {
        continue;
      }
      for (Cause g : r.getValue()) {
        Finding general = by.get(g);
        if (general != null && general.confidence() > specific.confidence() - MARGIN) {
          general.capAt(Math.max(0, specific.confidence() - MARGIN), relation(general, specific,
              String.format("%s is the cost of this %s under unaligned checkpoints: %s ranks "
                  + "first.", capitalise(sign(specific.cause())), sign(g),
                  specific.cause().id())));
        }
      }
    }
    waitForPending(by, present, standing);
    for (Cause a : order) {
      Finding cause = by.get(a);
      if (cause == null || cause.confidence() < present) {
        continue;
      }
      for (Cause b : consequencesOf(a)) {
        Finding effect = by.get(b);
        if (effect == null || effect.confidence() == 0) {
          continue;
        }
        if (startedFirst(effect, cause) && a == standing) {
          effect.capAt(Math.max(0, Math.min(effect.confidence(), cause.confidence() - MARGIN)),
              relation(effect, cause, String.format("%s since %s began before %s since %s, but "
                  + "%s, named for this trouble already and still present, explains %s: it "
                  + "stays first.", capitalise(sign(b)), clock(effect), sign(a), clock(cause),
                  a.id(), PLURAL.contains(b) ? "them" : "it")));
          continue;
        }
        if (startedFirst(effect, cause)) {
          cause.note(relation(cause, effect, String.format("%s since %s began before %s since "
              + "%s: %s does not explain it.", capitalise(sign(b)), clock(effect), sign(a),
              clock(cause), a.id())));
          continue;
        }
        // said whether or not the consequence already ranks below: it is why it does
        effect.capAt(Math.max(0, Math.min(effect.confidence(), cause.confidence() - MARGIN)),
            relation(effect, cause, String.format("%s%s follow%s %s%s: %s explains %s and "
                    + "ranks first.", capitalise(sign(b)), since(effect),
                PLURAL.contains(b) ? "" : "s", sign(a), since(cause), a.id(),
                PLURAL.contains(b) ? "them" : "it")));
      }
    }
  }

  /**
   * A cause whose signs have begun but cannot be judged yet (too few points since its onset)
   * holds back the consequences it would explain, so they are not named first: they stay below
   * the naming threshold until the cause is judged one way or the other. Not the standing
   * cause: taken back to "unknown" and named again once the wait ends, it would alert twice for
   * one trouble.
   */
  private void waitForPending(Map<Cause, Finding> by, double present, Cause standing) {
    for (Finding cause : by.values()) {
      if (cause.pendingWhy() == null || cause.confidence() >= present) {
        continue;
      }
      Set<Cause> held = EnumSet.noneOf(Cause.class);
      held.addAll(consequencesOf(cause.cause()));
      held.addAll(refines.getOrDefault(cause.cause(), Set.of()));
      for (Cause b : held) {
        if (b == standing) {
          continue; // a wait delays a first naming; it never takes back a cause named already
        }
        Finding effect = by.get(b);
        boolean refined = refines.getOrDefault(cause.cause(), Set.of()).contains(b);
        if (effect == null || effect.confidence() < present
            || (!refined && startedFirst(effect, cause))) {
          continue;
        }
        effect.capAt(present - 0.01, relation(effect, cause, String.format(
            "Held back while %s cannot be judged yet: %s", cause.cause().id(),
            cause.pendingWhy())));
      }
    }
  }

  /** The consequence's sign began clearly (beyond both onsets' resolution) before the cause's. */
  static boolean startedFirst(Finding effect, Finding cause) {
    if (effect.onsetMs() < 0 || cause.onsetMs() < 0) {
      return false;
    }
    double tolerance = 2 * Math.max(effect.onsetResolutionMs(), cause.onsetResolutionMs());
    return effect.onsetMs() < cause.onsetMs() - tolerance;
  }

  /** Evidence of a relation: the finding's own onset against the other's. */
  private static Evidence relation(Finding self, Finding other, String sentence) {
    Evidence m = self.main();
    String signal = m == null ? "checkpoint_duration" : m.signal();
    String scope = m == null ? "job" : m.scope();
    return new Evidence(signal, scope, self.onsetMs(), other.onsetMs(), Evidence.CONTEXT,
        Double.NaN, Double.NaN, self.onsetMs(), sentence);
  }

  private static String since(Finding f) {
    return f.onsetMs() < 0 ? "" : " since " + JobEvidence.clock(f.onsetMs());
  }

  private static String clock(Finding f) {
    return f.onsetMs() < 0 ? "?" : JobEvidence.clock(f.onsetMs());
  }

  private static String capitalise(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
