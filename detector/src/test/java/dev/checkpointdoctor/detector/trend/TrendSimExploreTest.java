package dev.checkpointdoctor.detector.trend;

import org.junit.jupiter.api.Test;

class TrendSimExploreTest {
  @Test
  void explore() {
    long[] intervals = {60_000, 180_000};
    for (long interval : intervals) {
      for (int seed = 1; seed <= 3; seed++) {
        TrendSim h = new TrendSim(seed, interval);
        h.noise = 0.05 + 0.05 * (seed % 2);
        h.sizeNoise = 0.01 + 0.02 * (seed % 2);
        h.dailyAmplitude = 0.3;
        h.weekend = seed % 2 == 0 ? 0.7 : 1;
        h.run(14 * 24);
        System.out.printf("HEALTHY int=%ds seed=%d trendAnomalies=%d %s state_growth=%s anomalies=%d%n",
            interval / 1000, seed, h.trendAnomalies().size(),
            h.trendAnomalies().stream().map(a -> a.signal().id() + "@" + java.time.Instant.ofEpochMilli(a.startedAtMs())).toList(),
            h.first("state_growth") != null, h.opened.size());
      }
      for (double g : new double[] {0.01, 0.02, 0.03, 0.05}) {
        for (int seed = 11; seed <= 12; seed++) {
          TrendSim h = new TrendSim(seed, interval);
          h.noise = 0.05 + 0.05 * (seed % 2);
          h.sizeNoise = 0.01 + 0.02 * (seed % 2);
          h.dailyAmplitude = seed % 2 == 0 ? 0.3 : 0;
          h.growthPerHour = g;
          h.growthStartMs = TrendSim.T0 + 30 * TrendSim.HOUR;
          h.run(30 + 8);
          long at = h.firstNamedAtMs("state_growth");
          var d = h.first("state_growth");
          double dur = h.baseDurationMs * Math.pow(1 + g, (h.now - h.growthStartMs) / 3.6e6);
          System.out.printf("GROWTH int=%ds g=%.2f seed=%d named=%s after=%.0f min forecast=%s trend=%d trueAtEnd=%.1f%n",
              interval / 1000, g, seed, d != null, at < 0 ? -1 : (at - h.growthStartMs) / 60000.0,
              d == null ? null : d.hoursToTimeout(), h.trendAnomalies().size(),
              Math.log(600_000 / dur) / Math.log1p(g));
          if (d != null && seed == 11) {
            d.top().evidence().forEach(e -> System.out.println("   " + e.sentence()));
          }
        }
      }
    }
  }
}
