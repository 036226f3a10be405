package dev.checkpointdoctor.api.app;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version the jar was built as (from a resource Maven fills in at build time). */
final class Version {
  private Version() {}

  static String current() {
    try (InputStream in = Version.class.getResourceAsStream(
        "/checkpoint-doctor-version.properties")) {
      if (in == null) {
        return "unknown (not built by Maven)";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
