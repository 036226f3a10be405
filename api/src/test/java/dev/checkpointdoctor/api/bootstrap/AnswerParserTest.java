package dev.checkpointdoctor.api.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AnswerParserTest {
  private static final Grid GRID = new Grid(1_700_000_000_000L, 15_000, 4);

  private static Matrix matrix(String json, int maxSeries) throws Exception {
    return AnswerParser.matrix(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
        GRID, maxSeries);
  }

  private static Problem problemOf(String json) {
    try {
      matrix(json, 10);
      return null;
    } catch (Problem.Failure f) {
      return f.problem();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aMatrixLandsOnItsStepsAndLeavesTheOthersAbsent() throws Exception {
    Matrix m = matrix("""
        {"status":"success","data":{"resultType":"matrix","result":[
          {"metric":{"__name__":"x","job_name":"a"},"values":[[1700000000,"1"],
            [1700000030.000,"2.5"]]},
          {"metric":{"__name__":"y"},"values":[[1700000015,"NaN"],[1700000045,"+Inf"]]}]}}
        """, 10);
    assertThat(m.size()).isEqualTo(2);
    assertThat(m.labels(0).get("job_name")).isEqualTo("a");
    double[] x = m.values(0);
    assertThat(x[0]).isEqualTo(1.0);
    assertThat(Matrix.absent(x[1])).isTrue();
    assertThat(x[2]).isEqualTo(2.5);
    assertThat(Matrix.absent(x[3])).isTrue();
    double[] y = m.values(1);
    assertThat(Double.isNaN(y[1]) && !Matrix.absent(y[1])).as("a real NaN is a value").isTrue();
    assertThat(y[3]).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(m.presentPoints()).isEqualTo(4);
  }

  @Test
  void warningsErrorsAndBrokenAnswersAreProblemsNamed() {
    assertThat(problemOf("""
        {"status":"success","data":{"resultType":"matrix","result":[]},
         "warnings":["store unavailable"]}""")).isEqualTo(Problem.PARTIAL);
    assertThat(problemOf("""
        {"status":"error","errorType":"bad_data","error":"parse error"}"""))
        .isEqualTo(Problem.REJECTED);
    assertThat(problemOf("<html>proxy error</html>")).isEqualTo(Problem.BAD_RESPONSE);
    assertThat(problemOf("""
        {"status":"success","data":{"resultType":"vector","result":[]}}"""))
        .isEqualTo(Problem.BAD_RESPONSE);
    assertThat(problemOf("""
        {"status":"success","data":{"resultType":"matrix","result":[
          {"metric":{},"values":[[1700000007,"1"]]}]}}""")).as("off the steps")
        .isEqualTo(Problem.BAD_RESPONSE);
    assertThat(problemOf("""
        {"status":"success"}""")).isEqualTo(Problem.BAD_RESPONSE);
    assertThatThrownBy(() -> matrix("""
        {"status":"success","data":{"resultType":"matrix","result":[
          {"metric":{"a":"1"},"values":[]},{"metric":{"a":"2"},"values":[]}]}}""", 1))
        .isInstanceOf(Problem.Failure.class).hasMessageContaining("more than 1 series");
  }

  @Test
  void rawSamplesKeepTheirOwnTimestamps() throws Exception {
    List<AnswerParser.RawSeries> raw = AnswerParser.raw(new ByteArrayInputStream("""
        {"status":"success","data":{"resultType":"matrix","result":[
          {"metric":{"job":"flink","instance":"jm:9249"},
           "values":[[1700000001.234,"1"],[1700000016.234,"1"]]}]}}
        """.getBytes(StandardCharsets.UTF_8)), 10);
    assertThat(raw).hasSize(1);
    assertThat(raw.get(0).timestampsMs()).containsExactly(1_700_000_001_234L,
        1_700_000_016_234L);
  }

  @Test
  void decimalsParseExactlyAsJavaDoes() {
    Random r = new Random(7);
    for (int i = 0; i < 50_000; i++) {
      String s = switch (i % 4) {
        case 0 -> Long.toString(r.nextLong() >> r.nextInt(64));
        case 1 -> Double.toString(r.nextDouble() * Math.pow(10, r.nextInt(30) - 10));
        case 2 -> String.format(java.util.Locale.ROOT, "%.6f", r.nextGaussian() * 1e4);
        default -> Double.toString(-r.nextDouble());
      };
      char[] c = ("xx" + s).toCharArray();
      double got = PromNumbers.parse(c, 2, s.length());
      if (Double.doubleToLongBits(got) != Double.doubleToLongBits(Double.parseDouble(s))) {
        throw new AssertionError(s + " parsed as " + got);
      }
    }
    for (String s : List.of("1e+09", "1.5E-7", "0", "-0.0", "00012", ".5")) {
      assertThat(PromNumbers.parse(s.toCharArray(), 0, s.length())).as(s)
          .isEqualTo(Double.parseDouble(s));
    }
    assertThat(PromNumbers.parse("-Inf".toCharArray(), 0, 4))
        .isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(PromNumbers.parse("NaN".toCharArray(), 0, 3)).isNaN();
  }

  @Test
  void timestampsWithFractionsAreMillisecondsRounded() {
    for (String[] c : new String[][] {{"1700000000.123", "1700000000123"},
        {"1700000000.5", "1700000000500"}, {"1700000000.1235", "1700000000124"},
        {"1700000000.", "1700000000000"}, {"17.0004", "17000"}}) {
      assertThat(AnswerParser.millis(c[0].toCharArray(), 0, c[0].length())).as(c[0])
          .isEqualTo(Long.parseLong(c[1]));
    }
    assertThat(AnswerParser.millis("1.7e9".toCharArray(), 0, 5)).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void gridIndexesOnlyItsOwnSteps() {
    assertThat(GRID.index(1_700_000_015_000L)).isEqualTo(1);
    assertThat(GRID.index(1_700_000_060_000L)).isEqualTo(-1);
    assertThat(GRID.index(1_699_999_985_000L)).isEqualTo(-1);
    assertThat(Grid.seconds(1_700_000_001_005L)).isEqualTo("1700000001.005");
    assertThat(Grid.seconds(1_700_000_001_000L)).isEqualTo("1700000001");
  }
}
