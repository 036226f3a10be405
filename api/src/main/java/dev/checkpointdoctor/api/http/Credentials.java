package dev.checkpointdoctor.api.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * What a client must present on one group of routes: a bearer token, basic-auth user and
 * password, either (when both are set), or nothing (when neither is).
 */
public record Credentials(String bearerToken, String basicUser, String basicPassword) {
  public static final Credentials NONE = new Credentials(null, null, null);

  public boolean required() {
    return bearerToken != null || basicUser != null;
  }

  /** True when the Authorization header carries a credential that is configured here. */
  boolean accepts(String authorization) {
    if (!required()) {
      return true;
    }
    if (authorization == null) {
      return false;
    }
    String h = authorization.trim();
    int space = h.indexOf(' ');
    if (space <= 0) {
      return false;
    }
    String scheme = h.substring(0, space);
    String value = h.substring(space + 1).trim();
    if (bearerToken != null && scheme.equalsIgnoreCase("Bearer")) {
      return constantTimeEquals(value, bearerToken);
    }
    if (basicUser != null && scheme.equalsIgnoreCase("Basic")) {
      String expected = Base64.getEncoder().encodeToString(
          (basicUser + ":" + basicPassword).getBytes(StandardCharsets.UTF_8));
      return constantTimeEquals(value, expected);
    }
    return false;
  }

  /** The challenges for a 401, one per accepted scheme. */
  String challenge() {
    String realm = " realm=\"checkpoint-doctor\"";
    if (bearerToken != null && basicUser != null) {
      return "Bearer" + realm + ", Basic" + realm + ", charset=\"UTF-8\"";
    }
    return bearerToken != null ? "Bearer" + realm : "Basic" + realm + ", charset=\"UTF-8\"";
  }

  /** The challenge minus Basic (which browsers answer with their own dialog), or null. */
  String challengeWithoutBrowserDialog() {
    return bearerToken != null ? "Bearer realm=\"checkpoint-doctor\"" : null;
  }

  // Secrets must not leak through comparison timing.
  private static boolean constantTimeEquals(String given, String expected) {
    return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
        expected.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return required() ? "Credentials[" + (bearerToken != null ? "bearer " : "")
        + (basicUser != null ? "basic " + basicUser : "") + "]" : "Credentials[none]";
  }
}
