package dev.checkpointdoctor.eval.nab;

import dev.checkpointdoctor.eval.scenario.Progress;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Runs a {@link NabDetector} over a NAB data folder and writes NAB-layout results. */
public final class NabRun {
  /** Name of the results folder and file prefix, as NAB names its detectors. */
  public static final String DETECTOR = "checkpointDoctor";

  private NabRun() {}

  /**
   * Writes {@code out/checkpointDoctor/<category>/checkpointDoctor_<file>.csv} for every data
   * file: {@code timestamp,value,anomaly_score,label}. The label column (1 inside a window) is
   * NAB's convenience for readers; it is written after detection and never seen by the detector.
   *
   * @param windows label windows per file, or an empty map to write label 0 everywhere
   * @return the detector's results folder
   */
  public static Path run(NabDetector detector, Path dataDir, Map<String, List<long[]>> windows,
      Path out) throws IOException {
    return run(detector, dataDir, windows, out, null);
  }

  /** As above, saying on {@code progress} (stderr) how far it is; null for silence. */
  public static Path run(NabDetector detector, Path dataDir, Map<String, List<long[]>> windows,
      Path out, Progress progress) throws IOException {
    Path root = out.resolve(DETECTOR);
    List<String> names = NabCorpus.dataFiles(dataDir);
    if (progress != null) {
      progress.say(names.size() + " data files in " + dataDir);
    }
    int done = 0;
    for (String name : names) {
      if (progress != null) {
        int n = done;
        progress.tick(() -> n + " of " + names.size() + " files done, now " + name);
      }
      done++;
      NabSeries series = NabSeries.read(dataDir, name);
      double[] scores = detector.scores(series);
      int[] label = new int[series.size()];
      for (NabFile.Window w :
          NabCorpus.rows(series.timestampsMs(), windows.getOrDefault(name, List.of()))) {
        for (int i = w.left(); i <= w.right(); i++) {
          label[i] = 1;
        }
      }
      int slash = name.indexOf('/');
      Path file = root.resolve(name.substring(0, slash))
          .resolve(DETECTOR + "_" + name.substring(slash + 1));
      Files.createDirectories(file.getParent());
      try (BufferedWriter w = Files.newBufferedWriter(file)) {
        w.write("timestamp,value,anomaly_score,label\n");
        for (int i = 0; i < scores.length; i++) {
          w.write(series.rawTimestamps()[i] + "," + series.rawValues()[i] + "," + scores[i] + ","
              + label[i] + "\n");
        }
      }
    }
    return root;
  }
}
