package dev.checkpointdoctor.eval.family2;

import java.util.SplittableRandom;

/**
 * The noise of family 2. Production metrics are not independent Gaussian draws: a busy minute
 * is followed by another busy minute (autocorrelation), rare values are far rarer than a normal
 * tail says they are not (heavy tails: GC pauses, S3 retries), and every few hours something
 * shifts the level for a while (a noisy neighbour, a rebalance). Each of those has its own piece
 * here.
 */
final class Noise {
  private Noise() {}

  /** Student-t draw scaled to unit variance ({@code nu > 2}): heavy tails, same spread. */
  static double studentT(SplittableRandom rng, int nu) {
    double z = rng.nextGaussian();
    double chi = 0;
    for (int i = 0; i < nu; i++) {
      double g = rng.nextGaussian();
      chi += g * g;
    }
    return z / Math.sqrt(chi / nu) / Math.sqrt(nu / (nu - 2.0));
  }

  /**
   * AR(1) process {@code x' = phi x + sigma sqrt(1 - phi^2) e} with Student-t innovations, so
   * its stationary standard deviation is {@code sigma} whatever the correlation time.
   */
  static final class Ar1 {
    private final double phi;
    private final double innovation;
    private final int nu;
    private double x;

    /**
     * @param sigma stationary standard deviation
     * @param correlationSeconds e-folding time of the autocorrelation
     * @param tickSeconds the step the process is advanced by
     * @param nu degrees of freedom of the innovations (3 = very heavy tails)
     */
    Ar1(double sigma, double correlationSeconds, double tickSeconds, int nu,
        SplittableRandom rng) {
      this.phi = Math.exp(-tickSeconds / Math.max(tickSeconds, correlationSeconds));
      this.innovation = sigma * Math.sqrt(1 - phi * phi);
      this.nu = nu;
      this.x = sigma * studentT(rng, nu);
    }

    double next(SplittableRandom rng) {
      x = phi * x + innovation * studentT(rng, nu);
      return x;
    }

    double value() {
      return x;
    }
  }

  /**
   * Rare level shifts: with a hazard of {@code perHour} a regime starts, multiplies the level by
   * {@code exp(N(0, logSigma))} and lasts an exponentially distributed time. Between regimes the
   * factor is 1.
   */
  static final class RegimeJitter {
    private final double hazardPerSecond;
    private final double logSigma;
    private final double meanSeconds;
    private double factor = 1;
    private double remaining;

    RegimeJitter(double perHour, double logSigma, double meanMinutes) {
      this.hazardPerSecond = perHour / 3600.0;
      this.logSigma = logSigma;
      this.meanSeconds = meanMinutes * 60;
    }

    double next(SplittableRandom rng, double tickSeconds) {
      if (remaining > 0) {
        remaining -= tickSeconds;
        if (remaining <= 0) {
          factor = 1;
        }
      } else if (rng.nextDouble() < hazardPerSecond * tickSeconds) {
        factor = Math.exp(logSigma * rng.nextGaussian());
        remaining = -meanSeconds * Math.log(1 - rng.nextDouble());
      }
      return factor;
    }
  }

  /** Log-uniform draw in [lo, hi]. */
  static double logUniform(SplittableRandom rng, double lo, double hi) {
    return Math.exp(Math.log(lo) + rng.nextDouble() * (Math.log(hi) - Math.log(lo)));
  }

  static double uniform(SplittableRandom rng, double lo, double hi) {
    return lo + rng.nextDouble() * (hi - lo);
  }

  /** Standard normal CDF (Abramowitz-Stegun 26.2.17, error below 1e-7). */
  static double phi(double x) {
    double t = 1 / (1 + 0.2316419 * Math.abs(x));
    double d = 0.3989422804014327 * Math.exp(-x * x / 2);
    double p = d * t * (0.319381530 + t * (-0.356563782 + t * (1.781477937
        + t * (-1.821255978 + t * 1.330274429))));
    return x >= 0 ? 1 - p : p;
  }
}
