package dev.checkpointdoctor.eval.nab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Published results, loaded once per test JVM (each detector is ~365k rows). */
final class Loaded {
  private static final Map<String, List<NabFile>> CACHE = new ConcurrentHashMap<>();

  private Loaded() {}

  static List<NabFile> files(Path nab, String detector) {
    return CACHE.computeIfAbsent(detector, d -> {
      try {
        return NabCorpus.load(nab.resolve("data"), nab.resolve("labels/combined_windows.json"),
            nab.resolve("results").resolve(d));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** NAB's per-file score table: {@code File -> Score}. */
  static Map<String, Double> table(Path csv) throws IOException {
    Map<String, Double> out = new HashMap<>();
    List<String> lines = Files.readAllLines(csv);
    for (String line : lines.subList(1, lines.size())) {
      String[] c = line.split(",");
      if (!c[0].equals("Totals")) {
        out.put(c[2], Double.parseDouble(c[4]));
      }
    }
    return out;
  }
}
