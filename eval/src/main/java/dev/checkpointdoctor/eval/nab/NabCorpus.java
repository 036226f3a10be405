package dev.checkpointdoctor.eval.nab;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Reading a NAB-layout folder: data files, label windows, profiles and detector results. */
public final class NabCorpus {
  private NabCorpus() {}

  /** {@code <category>/<file>.csv} of every data file, sorted. */
  public static List<String> dataFiles(Path dataDir) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dataDir, 2)) {
      s.filter(p -> p.getNameCount() - dataDir.getNameCount() == 2)
          .filter(p -> p.getFileName().toString().endsWith(".csv") && Files.isRegularFile(p))
          .forEach(p -> names.add(dataDir.relativize(p).toString().replace('\\', '/')));
    }
    names.sort(null);
    if (names.isEmpty()) {
      throw new IOException("no <category>/<file>.csv under " + dataDir);
    }
    return names;
  }

  /** {@code combined_windows.json}: per file, inclusive {@code [start, end]} timestamp pairs. */
  public static Map<String, List<long[]>> windows(Path labelsFile) throws IOException {
    JsonObject json = new JsonObject(Files.readString(labelsFile));
    Map<String, List<long[]>> out = new TreeMap<>();
    for (String name : json.fieldNames()) {
      List<long[]> ws = new ArrayList<>();
      for (Object o : json.getJsonArray(name)) {
        JsonArray pair = (JsonArray) o;
        ws.add(new long[] {
            NabSeries.parseMs(pair.getString(0)), NabSeries.parseMs(pair.getString(1))});
      }
      out.put(name, ws);
    }
    return out;
  }

  /**
   * Windows as row ranges: first row at or after the start to last row at or before the end
   * (NAB's labels match rows exactly, so this is the exact match); empty ranges are dropped.
   */
  public static List<NabFile.Window> rows(long[] timestampsMs, List<long[]> windows) {
    List<NabFile.Window> out = new ArrayList<>();
    for (long[] w : windows) {
      int left = 0;
      while (left < timestampsMs.length && timestampsMs[left] < w[0]) {
        left++;
      }
      int right = left - 1;
      while (right + 1 < timestampsMs.length && timestampsMs[right + 1] <= w[1]) {
        right++;
      }
      if (right >= left) {
        out.add(new NabFile.Window(left, right));
      }
    }
    return out;
  }

  /** {@code config/profiles.json}, in file order. */
  public static List<NabProfile> profiles(Path profilesFile) throws IOException {
    JsonObject json = new JsonObject(Files.readString(profilesFile));
    List<NabProfile> out = new ArrayList<>();
    for (String name : json.fieldNames()) {
      JsonObject m = json.getJsonObject(name).getJsonObject("CostMatrix");
      out.add(new NabProfile(name, m.getDouble("tpWeight"), Math.abs(m.getDouble("fpWeight")),
          Math.abs(m.getDouble("fnWeight"))));
    }
    return out;
  }

  /**
   * A detector's result for one data file: {@code resultsDir/<category>/<detector>_<file>.csv}
   * (NAB's layout, the prefix being the results folder's name) or, failing that, the only file
   * there ending in {@code _<file>.csv}.
   */
  public static Path resultFile(Path resultsDir, String name) throws IOException {
    int slash = name.indexOf('/');
    Path dir = resultsDir.resolve(name.substring(0, slash));
    String file = name.substring(slash + 1);
    Path exact = dir.resolve(resultsDir.getFileName() + "_" + file);
    if (Files.isRegularFile(exact)) {
      return exact;
    }
    List<Path> matches = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (Stream<Path> s = Files.list(dir)) {
        s.filter(p -> p.getFileName().toString().endsWith("_" + file)).forEach(matches::add);
      }
    }
    if (matches.size() != 1) {
      throw new IOException("expected one result for " + name + " in " + dir + ", found "
          + matches.size());
    }
    return matches.get(0);
  }

  /** The {@code anomaly_score} column of a results CSV (any other columns are ignored). */
  public static double[] anomalyScores(Path resultFile) throws IOException {
    List<String> lines = Files.readAllLines(resultFile);
    String[] header = lines.isEmpty() ? new String[0] : lines.get(0).trim().split(",");
    int col = List.of(header).indexOf("anomaly_score");
    if (col < 0) {
      throw new IOException(resultFile + ": no anomaly_score column");
    }
    int n = lines.size() - 1;
    while (n > 0 && lines.get(n).isBlank()) {
      n--;
    }
    double[] scores = new double[n];
    for (int i = 0; i < n; i++) {
      String[] cells = lines.get(i + 1).split(",", -1);
      try {
        scores[i] = Double.parseDouble(cells[col].trim());
      } catch (RuntimeException e) {
        throw new IOException(resultFile + ":" + (i + 2) + ": bad anomaly_score", e);
      }
    }
    return scores;
  }

  /** Every data file with its windows and the detector's scores, ready for {@link NabScorer}. */
  public static List<NabFile> load(Path dataDir, Path labelsFile, Path resultsDir)
      throws IOException {
    Map<String, List<long[]>> windows = windows(labelsFile);
    List<NabFile> files = new ArrayList<>();
    for (String name : dataFiles(dataDir)) {
      NabSeries series = NabSeries.read(dataDir, name);
      double[] scores = anomalyScores(resultFile(resultsDir, name));
      if (scores.length != series.size()) {
        throw new IOException(name + ": " + scores.length + " result rows for " + series.size()
            + " data rows");
      }
      if (!windows.containsKey(name)) {
        throw new IOException(name + " has no entry in " + labelsFile);
      }
      files.add(new NabFile(name, scores, rows(series.timestampsMs(), windows.get(name))));
    }
    return files;
  }
}
