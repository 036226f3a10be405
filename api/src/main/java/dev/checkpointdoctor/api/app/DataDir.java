package dev.checkpointdoctor.api.app;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Checks at start-up that {@code --data-dir} can hold snapshots, so an unusable directory stops
 * the start with its reason instead of failing every snapshot later. Java's file exceptions often
 * carry only the path as their message; {@link #reason} says what went wrong in words.
 */
final class DataDir {
  static final String PROBE = ".write-test";

  private DataDir() {}

  /** Creates the directory if needed and proves a file can be written and removed in it. */
  static void prepare(Path dir) throws IOException {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw unusable(dir, "it exists and is not a directory", null);
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw unusable(dir, "cannot create it: " + reason(e, dir), e);
    }
    Path probe = dir.resolve(PROBE);
    try {
      Files.write(probe, new byte[] {1});
      Files.delete(probe);
    } catch (IOException e) {
      throw unusable(dir, "cannot write in it: " + reason(e, probe), e);
    }
  }

  private static IOException unusable(Path dir, String why, IOException cause) {
    return new IOException("--data-dir " + dir + " is not usable: " + why, cause);
  }

  static String reason(IOException e) {
    return reason(e, null);
  }

  /**
   * What went wrong, in words; the path the exception names is added when it is not {@code
   * named} (the one the caller's message already shows).
   */
  static String reason(IOException e, Path named) {
    if (e instanceof AccessDeniedException) {
      return "permission denied" + other(e, named);
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory" + other(e, named);
    }
    if (e instanceof FileAlreadyExistsException || e instanceof NotDirectoryException) {
      return "a path component is a file, not a directory" + other(e, named);
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return lower(f.getReason()) + other(e, named);
    }
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }

  /** The other path of a failed operation, e.g. the parent that could not be created. */
  private static String other(IOException e, Path named) {
    if (!(e instanceof FileSystemException f) || f.getFile() == null
        || (named != null && Path.of(f.getFile()).equals(named))) {
      return "";
    }
    return " (" + f.getFile() + ")";
  }

  private static String lower(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }
}
