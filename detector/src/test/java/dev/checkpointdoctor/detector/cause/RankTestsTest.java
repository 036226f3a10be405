package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;
import smile.stat.distribution.GaussianDistribution;
import smile.stat.hypothesis.KSTest;

/**
 * The plain-Java tests the cause rules decide with, against reference values: SciPy 1.17.1
 * ({@code scipy.stats.mannwhitneyu}, {@code ks_2samp}, {@code kstwobign}, {@code theilslopes}) on
 * the fixed inputs below, and Smile 3.1.1 (test scope) where it has the same test (Smile has no
 * Mann–Whitney U and no Sen slope).
 */
class RankTestsTest {
  static final double[] X = {12.1, 9.8, 11.4, 10.2, 13.0, 9.5, 10.9, 11.7, 12.4, 10.0, 9.9, 11.1};
  static final double[] Y = {14.2, 13.9, 12.8, 15.1, 13.3, 14.8, 12.2, 16.0};

  @Test
  void cachedExactDistributionsAreTheComputedOnesWhateverTheOrderOfSizes() {
    // every size pair of the exact branch, twice in a shuffled order: slots get replaced
    java.util.List<int[]> pairs = new java.util.ArrayList<>();
    for (int n = 1; n <= RankTests.EXACT_MAX_PAIRS; n++) {
      for (int m = 1; n * m <= RankTests.EXACT_MAX_PAIRS; m += 1 + n / 20) {
        pairs.add(new int[] {n, m});
        pairs.add(new int[] {n, m});
      }
    }
    java.util.Collections.shuffle(pairs, new Random(9));
    for (int[] nm : pairs) {
      double[] cached = RankTests.cachedUCdf(nm[0], nm[1]);
      assertThat(cached).as("n %d m %d", nm[0], nm[1])
          .containsExactly(RankTests.exactUCdf(nm[0], nm[1]));
      assertThat(RankTests.cachedUCdf(nm[0], nm[1])).isSameAs(cached); // computed once
    }
  }

  @Test
  void mannWhitneyExactMatchesScipy() {
    // mannwhitneyu(Y, X, alternative="greater"/"less", method="exact")
    RankTests.MannWhitney mw = RankTests.mannWhitney(X, Y, 1);
    assertThat(mw.u()).isEqualTo(93.0);
    assertThat(mw.superiority()).isCloseTo(93.0 / 96, within(1e-12));
    assertThat(mw.pGreater()).isCloseTo(5.556878621894102e-05, within(1e-12));
    assertThat(mw.pLess()).isCloseTo(0.9999682464078749, within(1e-12));
  }

  @Test
  void mannWhitneyAsymptoticWithTiesMatchesScipy() {
    // mannwhitneyu(YT, XT, alternative=..., method="asymptotic"): tie and continuity corrected
    double[] xt = {1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5, 6};
    double[] yt = {3, 4, 5, 5, 6, 6, 7, 7, 8};
    RankTests.MannWhitney mw = RankTests.mannWhitney(xt, yt, 1);
    assertThat(mw.u()).isEqualTo(89.5);
    // erfc is a Chebyshev fit good to ~1e-7 relative
    assertThat(mw.pGreater()).isCloseTo(0.005862941645533048, within(1e-8));
    assertThat(mw.pLess()).isCloseTo(0.9952331186481888, within(1e-8));
  }

  @Test
  void mannWhitneyAsymptoticWithoutTiesMatchesScipy() {
    double[] x = new double[30];
    double[] y = new double[20];
    for (int i = 0; i < 30; i++) {
      x[i] = i < X.length ? X[i] : 9 + 0.137 * i;
    }
    System.arraycopy(Y, 0, y, 0, Y.length);
    for (int i = Y.length; i < 20; i++) {
      y[i] = 11 + 0.211 * i;
    }
    // 600 pairs: the normal approximation (SciPy's method="asymptotic")
    RankTests.MannWhitney mw = RankTests.mannWhitney(x, y, 1);
    assertThat(mw.pGreater() + mw.pLess()).isGreaterThan(1); // continuity-corrected halves overlap
    assertThat(mw.superiority()).isCloseTo(mw.u() / 600, within(1e-12));
  }

  @Test
  void separatedPIsWhatTheTestGivesWhenEveryValueIsAboveEveryEarlierOne() {
    for (int[] nm : new int[][] {{10, 3}, {56, 3}, {37, 4}, {200, 4}}) {
      double[] x = new double[nm[0]];
      double[] y = new double[nm[1]];
      for (int i = 0; i < x.length; i++) {
        x[i] = i;
      }
      for (int j = 0; j < y.length; j++) {
        y[j] = x.length + j;
      }
      for (double dep : new double[] {1, 1.5, 3}) {
        assertThat(RankTests.separatedP(nm[0], nm[1], dep)).as("n=%d m=%d dep=%s", nm[0],
            nm[1], dep).isCloseTo(RankTests.mannWhitney(x, y, dep).pGreater(), within(1e-12));
      }
    }
  }

  @Test
  void fewerOrMoreCorrelatedEarlierValuesNeedMoreRecentOnesToDecide() {
    // exact: two values above 37 independent earlier ones, p = 1 / C(39, 2)
    assertThat(RankTests.fewestToDecide(37, 1, 0.01, 20)).isEqualTo(2);
    // lag-1 autocorrelation 0.2 (variance x1.5): three values above all 37 give p = 0.011
    assertThat(RankTests.separatedP(37, 3, 1.5)).isGreaterThan(0.01);
    assertThat(RankTests.fewestToDecide(37, 1.5, 0.01, 20)).isEqualTo(4);
    // eight earlier values correlated at 0.8: no number of recent ones reaches p = 0.01
    assertThat(RankTests.fewestToDecide(8, 9, 0.01, 20)).isEqualTo(-1);
  }

  @Test
  void serialCorrelationWeakensTheTest() {
    Random r = new Random(3);
    double[] x = new double[200];
    double level = 0;
    for (int i = 0; i < x.length; i++) {
      level = 0.9 * level + r.nextGaussian();
      x[i] = level;
    }
    double[] y = {3, 3.5, 2.8, 3.2, 3.1};
    double dep = RankTests.dependence(x, y);
    assertThat(dep).isGreaterThan(3);
    assertThat(RankTests.mannWhitney(x, y, dep).pGreater())
        .isGreaterThan(RankTests.mannWhitney(x, y, 1).pGreater());
  }

  @Test
  void kolmogorovSmirnovMatchesScipyAndSmile() {
    double[] a = {0.61, 0.29, 0.06, 0.59, -1.73, -0.74, 0.51, -0.56, 0.39, 1.64, 0.05, -0.06,
        0.64, -0.82, 0.37, 1.77, 1.09, -1.28, 2.36, 1.31, 1.05, -0.32, -0.4, 1.06, -2.47};
    double[] b = {2.2, 1.66, 1.38, 0.2, 0.36, 0.0, 0.96, 1.56, 0.44, 1.5, -0.3, 0.66, 2.31, 3.29,
        -0.27, 1.1, 0.6, 2.43, 1.87, 0.77};
    RankTests.KolmogorovSmirnov ks = RankTests.kolmogorovSmirnov(a, b);
    // ks_2samp(a, b): D = 0.37; the classical asymptotic p-value
    // kstwobign.sf(D * sqrt(n m / (n + m))) = 0.09544703669168551 (SciPy's own "asymp" now uses
    // the finite-n kstwo instead, 0.0738)
    assertThat(ks.d()).isCloseTo(0.37, within(1e-12));
    assertThat(ks.p()).isCloseTo(0.09544703669168551, within(1e-9));
    KSTest smile = KSTest.test(a, b);
    assertThat(ks.d()).isCloseTo(smile.d, within(1e-12));
  }

  @Test
  void kolmogorovDistributionMatchesScipy() {
    // scipy.stats.kstwobign.sf
    assertThat(RankTests.kolmogorovSurvival(0.3)).isCloseTo(0.9999906941986655, within(1e-9));
    assertThat(RankTests.kolmogorovSurvival(0.5)).isCloseTo(0.9639452436648751, within(1e-9));
    assertThat(RankTests.kolmogorovSurvival(0.8)).isCloseTo(0.5441424115741981, within(1e-9));
    assertThat(RankTests.kolmogorovSurvival(1.0)).isCloseTo(0.26999967167735456, within(1e-9));
    assertThat(RankTests.kolmogorovSurvival(1.18)).isCloseTo(0.1234538094297657, within(1e-9));
    assertThat(RankTests.kolmogorovSurvival(1.5)).isCloseTo(0.022217962616525127, within(1e-9));
    assertThat(RankTests.kolmogorovSurvival(2.0)).isCloseTo(0.0006709252557796953, within(1e-9));
  }

  @Test
  void normalDistributionMatchesSmileAndScipy() {
    GaussianDistribution n = GaussianDistribution.getInstance();
    for (double z = -5; z <= 5; z += 0.25) {
      assertThat(RankTests.normalCdf(z)).as("cdf(%s)", z).isCloseTo(n.cdf(z), within(1e-7));
    }
    assertThat(RankTests.normalCdf(-1.96)).isCloseTo(0.024997895148220435, within(1e-8));
    assertThat(RankTests.normalQuantile(0.975)).isCloseTo(1.959963984540054, within(1e-6));
  }

  @Test
  void senSlopeAndItsBoundsMatchScipy() {
    double[] noise = {0.31, -0.52, 0.12, 0.77, -0.25, 0.05, -0.61, 0.44, 0.18, -0.09, 0.56,
        -0.37, 0.26, -0.71, 0.38};
    long[] t = new long[15];
    double[] v = new double[15];
    for (int i = 0; i < 15; i++) {
      t[i] = i * 60_000L;
      v[i] = 100 + 0.05 * i + noise[i];
    }
    // theilslopes(v, t, alpha=0.95)
    SenSlope s = SenSlope.of(t, v, 0.95);
    assertThat(s.perMs()).isCloseTo(6.904761904762053e-07, within(1e-15));
    assertThat(s.lowerPerMs()).isCloseTo(-4.242424242424044e-07, within(1e-15));
    assertThat(s.upperPerMs()).isCloseTo(1.8833333333333258e-06, within(1e-15));
    assertThat(s.rising()).as("noise this large leaves the rise unproven").isFalse();
    for (int i = 0; i < 15; i++) {
      v[i] = 100 + 0.5 * i + noise[i];
    }
    assertThat(SenSlope.of(t, v, 0.95).rising()).isTrue();
  }
}
