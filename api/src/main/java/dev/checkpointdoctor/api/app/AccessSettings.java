package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.http.Credentials;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

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
      String basicFile, UnaryOperator<String> name) throws SettingsException {
    String t = secret("--" + prefix + "-token", token, tokenFile, name);
    String b = secret("--" + prefix + "-basic-auth", basic, basicFile, name);
    String user = null;
    String password = null;
    if (b != null) {
      int colon = b.indexOf(':');
      if (colon <= 0) {
        throw new SettingsException(name.apply("--" + prefix + "-basic-auth")
            + (basicFile != null ? "-file's content" : "") + " must be user:password");
      }
      user = b.substring(0, colon);
      password = b.substring(colon + 1);
    }
    return new Credentials(t, user, password);
  }

  private static String secret(String flag, String value, String file,
      UnaryOperator<String> name) throws SettingsException {
    if (value != null && file != null) {
      throw new SettingsException(name.apply(flag) + " and " + name.apply(flag + "-file")
          + " are exclusive");
    }
    if (file == null) {
      return value == null || value.isEmpty() ? null : value;
    }
    try {
      // Secret files usually end with a newline (echo, Kubernetes secrets from literals).
      String s = Files.readString(Path.of(file)).strip();
      if (s.isEmpty()) {
        throw new SettingsException(name.apply(flag + "-file") + ": " + file + " is empty");
      }
      return s;
    } catch (IOException e) {
      throw new SettingsException(name.apply(flag + "-file") + ": cannot read " + file + " ("
          + DataDir.reason(e, Path.of(file)) + ")");
    }
  }

  static AccessSettings of(Credentials write, Credentials api, String cert, String key,
      UnaryOperator<String> name) throws SettingsException {
    if ((cert == null) != (key == null)) {
      throw new SettingsException(name.apply("--tls-cert") + " and " + name.apply("--tls-key")
          + " must be given together");
    }
    if (cert != null) {
      for (String flag : new String[] {"--tls-cert", "--tls-key"}) {
        String f = flag.equals("--tls-cert") ? cert : key;
        if (!Files.isReadable(Path.of(f))) {
          throw new SettingsException(name.apply(flag) + ": cannot read " + f);
        }
      }
    }
    return new AccessSettings(write, api, cert == null ? null : Path.of(cert),
        key == null ? null : Path.of(key));
  }
}
