package dev.checkpointdoctor.detector.model;

/**
 * Recent raw observations of one (job, signal, scope), oldest first: what the cause rules read to
 * see shapes (a plateau, a trend, one subtask above its peers) that a baseline summary hides. A
 * read-only window onto live state, valid only during the call that handed it out.
 */
public interface SeriesHistory {
  Signal signal();

  String scope();

  int size();

  long timeMs(int i);

  double value(int i);

  /**
   * Position of point 0 among every point this history has held: it grows by one for each point
   * that expires off the front, so while {@link #layoutVersion()} stays the same, the point at
   * index {@code i} is the point at position {@code firstPosition() + i} and keeps its time and
   * value for as long as it stays. Lets a reader keep results over a run of points from one call
   * to the next and update them for what was appended or expired instead of recomputing them.
   */
  default long firstPosition() {
    return 0;
  }

  /**
   * Changes whenever points leave other than by expiring off the front (e.g. thinning), after
   * which positions no longer name the same points. Negative when the history does not track
   * this: then nothing read from it may be kept across calls.
   */
  default long layoutVersion() {
    return -1;
  }
}
