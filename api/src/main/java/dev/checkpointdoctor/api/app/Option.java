package dev.checkpointdoctor.api.app;

/**
 * One setting of the service: its flag, its environment variable, its default and what it does.
 * Defined once here so {@code --help}, the README table and validation cannot drift apart.
 */
record Option(String flag, String env, String defaultValue, boolean repeatable,
    String description, boolean toggle) {

  static Option single(String flag, String env, String defaultValue, String description) {
    return new Option(flag, env, defaultValue, false, description, false);
  }

  static Option repeatable(String flag, String env, String description) {
    return new Option(flag, env, null, true, description, false);
  }

  /**
   * An on/off setting, off by default: the bare flag turns it on ({@code --flag=false} and the
   * environment variable take {@code true} or {@code false}).
   */
  static Option toggle(String flag, String env, String description) {
    return new Option(flag, env, "false", false, description, true);
  }
}
