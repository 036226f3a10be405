package dev.checkpointdoctor.eval.scenario;

/** A command line an offline tool cannot run with; its message is shown to the user as is. */
public final class UsageException extends Exception {
  public UsageException(String message) {
    super(message);
  }
}
