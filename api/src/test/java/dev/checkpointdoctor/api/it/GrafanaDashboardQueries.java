package dev.checkpointdoctor.api.it;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Every InfluxQL query of a Grafana dashboard: panels' targets, annotations, variables. */
public final class GrafanaDashboardQueries {
  private GrafanaDashboardQueries() {}

  public static List<String> all(JsonObject dashboard) {
    List<String> out = new ArrayList<>();
    for (Object p : dashboard.getJsonArray("panels", new JsonArray())) {
      for (Object t : ((JsonObject) p).getJsonArray("targets", new JsonArray())) {
        out.add(((JsonObject) t).getString("query"));
      }
    }
    for (Object a : dashboard.getJsonObject("annotations").getJsonArray("list")) {
      String q = ((JsonObject) a).getString("query");
      if (q != null) {
        out.add(q);
      }
    }
    for (Object v : dashboard.getJsonObject("templating").getJsonArray("list")) {
      out.add(((JsonObject) v).getString("query"));
    }
    return out;
  }
}
