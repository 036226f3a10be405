package dev.checkpointdoctor.api.alerting;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * One alert as Alertmanager's {@code POST /api/v2/alerts} takes it. Alertmanager identifies an
 * alert by its label set alone, so {@link #labels} is the identity and annotations may change
 * between sends.
 */
public record Alert(Map<String, String> labels, Map<String, String> annotations,
    Instant startsAt, Instant endsAt, String generatorUrl) {

  public Alert {
    labels = java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
    annotations = java.util.Collections.unmodifiableMap(new TreeMap<>(annotations));
  }

  public Alert withEndsAt(Instant newEndsAt) {
    return new Alert(labels, annotations, startsAt, newEndsAt, generatorUrl);
  }

  public boolean resolvedAt(Instant now) {
    return !endsAt.isAfter(now);
  }

  public JsonObject toJson() {
    JsonObject l = new JsonObject();
    labels.forEach(l::put);
    JsonObject a = new JsonObject();
    annotations.forEach(a::put);
    return new JsonObject().put("labels", l).put("annotations", a)
        .put("startsAt", startsAt.toString()).put("endsAt", endsAt.toString())
        .put("generatorURL", generatorUrl);
  }
}
