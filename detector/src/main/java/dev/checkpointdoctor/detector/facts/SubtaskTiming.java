package dev.checkpointdoctor.detector.facts;

/**
 * One subtask's part in a checkpoint (Flink's {@code checkpoints/details/:cid/subtasks/:vid}).
 * Milliseconds; -1 where Flink had nothing (every timing of a subtask that never acknowledged).
 *
 * @param vertexName the job vertex (task) name, e.g. "KeyedProcess -> Sink: out"
 * @param acknowledged false for Flink's {@code pending_or_failed}
 * @param startDelayMs from the trigger until the first barrier reached the subtask
 * @param alignmentMs from the first to the last barrier of the subtask's inputs
 * @param syncMs the synchronous part of the snapshot (on the task thread)
 * @param asyncMs the asynchronous part (writing and uploading the state to checkpoint storage)
 */
public record SubtaskTiming(String vertexId, String vertexName, int index, boolean acknowledged,
    long endToEndMs, long startDelayMs, long alignmentMs, long syncMs, long asyncMs,
    long stateSize, boolean unaligned) {

  /** The phases of a subtask's checkpoint, in the order they happen. */
  public enum Phase {
    START_DELAY("barrier's way to the subtask"),
    ALIGNMENT("alignment"),
    SYNC("sync phase"),
    ASYNC("async phase");

    private final String words;

    Phase(String words) {
      this.words = words;
    }

    public String words() {
      return words;
    }
  }

  /** The phase that took longest, or null when the subtask never acknowledged. */
  public Phase longestPhase() {
    if (!acknowledged) {
      return null;
    }
    Phase best = Phase.START_DELAY;
    long most = startDelayMs;
    long[] d = {startDelayMs, alignmentMs, syncMs, asyncMs};
    for (Phase p : Phase.values()) {
      if (d[p.ordinal()] > most) {
        most = d[p.ordinal()];
        best = p;
      }
    }
    return best;
  }

  public long phaseMs(Phase p) {
    return switch (p) {
      case START_DELAY -> startDelayMs;
      case ALIGNMENT -> alignmentMs;
      case SYNC -> syncMs;
      case ASYNC -> asyncMs;
    };
  }
}
