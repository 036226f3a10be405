package dev.checkpointdoctor.api.app;

/** A setting that cannot be used; the message says which and why, for the operator. */
public final class SettingsException extends Exception {
  public SettingsException(String message) {
    super(message, null, false, false);
  }
}
