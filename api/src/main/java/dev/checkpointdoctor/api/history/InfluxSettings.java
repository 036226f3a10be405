package dev.checkpointdoctor.api.history;

/** Where history goes. User and password may be null (InfluxDB without authentication). */
public record InfluxSettings(String url, String database, String user, String password) {

  /** Never prints the password: settings end up in logs. */
  @Override
  public String toString() {
    return "InfluxSettings[url=" + url + ", database=" + database + ", user=" + user
        + ", password=" + (password == null ? "none" : "***") + "]";
  }
}
