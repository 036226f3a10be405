package dev.checkpointdoctor.eval.scenario;

/** A recorded history that cannot be read; the message names the file and line. */
public final class HistoryFormatException extends Exception {
  public HistoryFormatException(String message) {
    super(message);
  }
}
