package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.http.Credentials;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Credentials for the write endpoint and for the API, and the PEM certificate and key for TLS
 * (both null: plain HTTP).
 */
public record AccessSettings(Credentials write, Credentials api, Path tlsCert, Path tlsKey) {

  public boolean tls() {
    return tlsCert != null;
  }

  /**
   * Credentials from a token, a token file, {@code user:pass} or a file holding it; a value and
   * its file together is an error, as is a file that cannot be read or is empty.
   */
  static Credentials credentials(String prefix, String token, String tokenFile, String basic,
      String basicFile) throws SettingsException {
    String t = secret("--" + prefix + "-token", token, tokenFile);
    String b = secret("--" + prefix + "-basic-auth", basic, basicFile);
    String user = null;
    String password = null;
    if (b != null) {
      int colon = b.indexOf(':');
      if (colon <= 0) {
        throw new SettingsException("--" + prefix + "-basic-auth expects user:password");
      }
      user = b.substring(0, colon);
      password = b.substring(colon + 1);
    }
    return new Credentials(t, user, password);
  }

  private static String secret(String flag, String value, String file) throws SettingsException {
    if (value != null && file != null) {
      throw new SettingsException(flag + " and " + flag + "-file are exclusive");
    }
    if (file == null) {
      return value == null || value.isEmpty() ? null : value;
    }
    try {
      // Secret files usually end with a newline (echo, Kubernetes secrets from literals).
      String s = Files.readString(Path.of(file)).strip();
      if (s.isEmpty()) {
        throw new SettingsException(flag + "-file " + file + " is empty");
      }
      return s;
    } catch (IOException e) {
      throw new SettingsException(flag + "-file " + file + " cannot be read: " + e.getMessage());
    }
  }

  static AccessSettings of(Credentials write, Credentials api, String cert, String key)
      throws SettingsException {
    if ((cert == null) != (key == null)) {
      throw new SettingsException("--tls-cert and --tls-key must be given together");
    }
    if (cert != null) {
      for (String f : new String[] {cert, key}) {
        if (!Files.isReadable(Path.of(f))) {
          throw new SettingsException("TLS file " + f + " cannot be read");
        }
      }
    }
    return new AccessSettings(write, api, cert == null ? null : Path.of(cert),
        key == null ? null : Path.of(key));
  }
}
