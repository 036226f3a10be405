package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plays every scenario a family draws for each seed through its own detector (wired as the
 * service's, with the given settings), in memory, and judges each job.
 */
final class FamilyAccuracy {
  private FamilyAccuracy() {}

  /** One job: replay, watch, judge. */
  static JobResult evaluate(GeneratedScenario s, DetectorSettings settings) {
    OfflineReplay replay = new OfflineReplay(settings);
    DiagnosisWatch watch = new DiagnosisWatch(replay.detector(), s.truth());
    replay.afterEachBatch(watch::afterBatch);
    replay.replay(s);
    return JobResult.judge(s.truth(), replay.events(), watch);
  }

  static Map<Long, List<JobResult>> run(ScenarioFamily family, List<Long> seeds,
      DetectorSettings settings, int threads, PrintStream progress)
      throws InterruptedException {
    Map<Long, List<JobResult>> out = new LinkedHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "accuracy-" + family.name());
      t.setDaemon(true);
      return t;
    });
    long began = System.nanoTime();
    try {
      for (long seed : seeds) {
        List<GeneratedScenario> scenarios = family.scenarios(seed);
        AtomicInteger done = new AtomicInteger();
        List<Future<JobResult>> futures = new ArrayList<>();
        for (GeneratedScenario s : scenarios) {
          futures.add(pool.submit(() -> {
            long t0 = System.nanoTime();
            JobResult r = evaluate(s, settings);
            progress.printf(Locale.ROOT, "[%s seed %d] %d/%d %s: %.1f s%n", family.name(), seed,
                done.incrementAndGet(), scenarios.size(), s.truth().name(),
                (System.nanoTime() - t0) / 1e9);
            return r;
          }));
        }
        List<JobResult> results = new ArrayList<>();
        for (Future<JobResult> f : futures) {
          results.add(f.get());
        }
        out.put(seed, results);
      }
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw c instanceof RuntimeException re ? re : new IllegalStateException(c);
    } finally {
      pool.shutdownNow();
    }
    progress.printf(Locale.ROOT, "[%s] %d seeds in %.0f s%n", family.name(), seeds.size(),
        (System.nanoTime() - began) / 1e9);
    return out;
  }
}
