package dev.checkpointdoctor.api.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.it.GrafanaDashboardQueries;
import dev.checkpointdoctor.detector.model.Signal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The dashboard is Grafana JSON that asks only for what the history writer writes. */
class GrafanaDashboardTest {
  static final Path DASHBOARD = Path.of("..", "deploy", "grafana", "checkpoint-doctor.json");
  static final Map<String, List<String>> WRITTEN = Map.of(
      HistoryPoints.SIGNAL, concat(HistoryPoints.SIGNAL_TAGS, HistoryPoints.SIGNAL_FIELDS),
      HistoryPoints.ANOMALY, concat(HistoryPoints.ANOMALY_TAGS, HistoryPoints.ANOMALY_FIELDS),
      HistoryPoints.DIAGNOSIS,
      concat(HistoryPoints.DIAGNOSIS_TAGS, HistoryPoints.DIAGNOSIS_FIELDS));

  static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  JsonObject dashboard() throws Exception {
    return new JsonObject(Files.readString(DASHBOARD));
  }

  @Test
  void isAGrafanaDashboardForAnInfluxDatasourceWithAJobVariable() throws Exception {
    JsonObject d = dashboard();
    assertThat(d.getString("title")).isNotBlank();
    assertThat(d.getString("uid")).isNotBlank();
    assertThat(d.getInteger("schemaVersion")).isGreaterThanOrEqualTo(30);
    assertThat(d.getJsonArray("__inputs").getJsonObject(0).getString("pluginId"))
        .isEqualTo("influxdb");
    JsonObject job = d.getJsonObject("templating").getJsonArray("list").getJsonObject(0);
    assertThat(job.getString("name")).isEqualTo("job");
    assertThat(job.getString("query")).isEqualTo("SHOW TAG VALUES FROM \"signal\" WITH KEY = "
        + "\"job\"");
    JsonArray panels = d.getJsonArray("panels");
    List<String> titles = new ArrayList<>();
    for (int i = 0; i < panels.size(); i++) {
      JsonObject p = panels.getJsonObject(i);
      titles.add(p.getString("title"));
      assertThat(p.getJsonObject("gridPos").fieldNames()).contains("x", "y", "w", "h");
      assertThat(p.getJsonObject("datasource").getString("type")).isEqualTo("influxdb");
      assertThat(p.getJsonArray("targets")).isNotEmpty();
      for (Object t : p.getJsonArray("targets")) {
        assertThat(((JsonObject) t).getString("query")).as(p.getString("title"))
            .contains("\"job\" =~ /^$job$/").contains("$timeFilter");
      }
    }
    assertThat(titles).anyMatch(t -> t.contains("Checkpoint duration"))
        .anyMatch(t -> t.contains("size")).anyMatch(t -> t.contains("IOPS"))
        .anyMatch(t -> t.contains("utilisation"));
    JsonArray annotations = d.getJsonObject("annotations").getJsonArray("list");
    assertThat(annotations.stream().map(JsonObject.class::cast)
        .filter(a -> a.getString("query") != null)
        .map(a -> a.getString("tagsColumn"))).allMatch(tags -> tags.contains("cause"));
  }

  @Test
  void queriesUseOnlyWrittenMeasurementsFieldsAndSignals() throws Exception {
    Pattern from = Pattern.compile("FROM \"(\\w+)\"");
    Pattern quoted = Pattern.compile("\"(\\w+)\"");
    Pattern signalEq = Pattern.compile("\"signal\" = '(\\w+)'");
    Pattern signalRe = Pattern.compile("\"signal\" =~ /([^/]+)/");
    List<String> ids = Arrays.stream(Signal.values()).map(Signal::id).toList();
    List<String> queries = GrafanaDashboardQueries.all(dashboard());
    assertThat(queries).hasSizeGreaterThanOrEqualTo(8);
    for (String q : queries) {
      Matcher m = from.matcher(q);
      assertThat(m.find()).as(q).isTrue();
      List<String> columns = WRITTEN.get(m.group(1));
      assertThat(columns).as("measurement of " + q).isNotNull();
      Matcher c = quoted.matcher(q.replaceAll("AS \"\\w+\"", "").replaceAll("FROM \"\\w+\"", ""));
      while (c.find()) {
        assertThat(columns).as("column in " + q).contains(c.group(1));
      }
      Matcher eq = signalEq.matcher(q);
      while (eq.find()) {
        assertThat(ids).as(q).contains(eq.group(1));
      }
      Matcher re = signalRe.matcher(q);
      while (re.find()) {
        Pattern p = Pattern.compile(re.group(1));
        assertThat(ids.stream().filter(id -> p.matcher(id).matches())).as(q).isNotEmpty();
      }
    }
  }
}
