package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryReaderTest {
  @TempDir
  Path dir;

  @Test
  void readsFlinkTextWithTrailingCommaAndPromtoolDumpToTheSameSeries() throws Exception {
    Path text = write("a.prom", """
        # TYPE flink_jobmanager_job_lastCheckpointDuration gauge
        flink_jobmanager_job_lastCheckpointDuration{job_name="j",host="h",} 229 1700000000000

        flink_jobmanager_job_lastCheckpointDuration{job_name="j",host="h",} 1.5E3 1700000015000
        """);
    Path dump = write("b.txt", """
        {__name__="flink_jobmanager_job_lastCheckpointDuration", host="h", job_name="j"} 7 1700000030000
        """);
    HistoryReader reader = new HistoryReader();
    List<RecordedSample> a = reader.read(text);
    List<RecordedSample> b = reader.read(dump);
    assertThat(a).extracting(RecordedSample::value).containsExactly(229.0, 1500.0);
    assertThat(a).extracting(RecordedSample::timestampMs)
        .containsExactly(1_700_000_000_000L, 1_700_000_015_000L);
    assertThat(b.get(0).labels()).isEqualTo(a.get(0).labels());
    assertThat(b.get(0).labels().get("job_name")).isEqualTo("j");
  }

  @Test
  void readsGzipByContentNotByName() throws Exception {
    Path f = dir.resolve("plain-name.txt");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
      out.write("up{instance=\"a:1\"} NaN 5\nup 1 6\n".getBytes(StandardCharsets.UTF_8));
    }
    List<RecordedSample> s = new HistoryReader().read(f);
    assertThat(s).hasSize(2);
    assertThat(s.get(0).value()).isNaN();
    assertThat(s.get(1).labels().metricName()).isEqualTo("up");
  }

  @Test
  void unescapesLabelValues() throws Exception {
    Path f = write("e.prom", "m{a=\"x\\\"y\\\\z\"} 1 2\n");
    assertThat(new HistoryReader().read(f).get(0).labels().get("a")).isEqualTo("x\"y\\z");
  }

  @Test
  void namesFileAndLineOfASampleWithoutTimestamp() throws Exception {
    Path f = write("bad.prom", "m 1 1\n# comment\nm 2\n");
    assertThatThrownBy(() -> new HistoryReader().read(f))
        .isInstanceOf(HistoryFormatException.class)
        .hasMessageContaining("bad.prom:3:")
        .hasMessageContaining("no timestamp");
  }

  @Test
  void namesFileAndLineOfBrokenLabels() throws Exception {
    Path f = write("bad2.prom", "m{a=\"1\" 1 1\n");
    assertThatThrownBy(() -> new HistoryReader().read(f))
        .hasMessageContaining("bad2.prom:1:");
    Path g = write("bad3.prom", "m{a=\"1\"} one 1\n");
    assertThatThrownBy(() -> new HistoryReader().read(g))
        .hasMessageContaining("bad3.prom:1: value is not a number");
  }

  @Test
  void writerOutputReadsBack() throws Exception {
    SeriesRecorder rec = new SeriesRecorder();
    rec.add("m", new String[] {"b", "2", "a", "1"}, 1000, 0.123456789);
    rec.add("m", new String[] {"b", "2", "a", "1"}, 2000, 42);
    Path f = dir.resolve("w.prom.gz");
    HistoryWriter.write(f, List.of("hello"), java.util.Map.of("m", "gauge"), rec);
    List<RecordedSample> s = new HistoryReader().read(f);
    assertThat(s).extracting(RecordedSample::value).containsExactly(0.12346, 42.0);
    assertThat(s.get(0).labels().get("a")).isEqualTo("1");
  }

  private Path write(String name, String content) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, content, StandardCharsets.UTF_8);
    return f;
  }
}
