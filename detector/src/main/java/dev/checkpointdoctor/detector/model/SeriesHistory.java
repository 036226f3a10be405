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
}
