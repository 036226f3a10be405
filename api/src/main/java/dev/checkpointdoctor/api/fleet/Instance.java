package dev.checkpointdoctor.api.fleet;

import io.vertx.core.json.JsonObject;
import java.util.UUID;

/**
 * This instance as the fleet sees it: a random id (to recognise itself in a peer list that names
 * every instance), the URL users reach it under ({@code --external-url}; the merged lists link
 * there) and its shard.
 */
public record Instance(String id, String url, String shard) {

  public static Instance of(String url, String shard) {
    return new Instance(UUID.randomUUID().toString(), url, shard);
  }

  /** Whether this instance is one shard of several. */
  public boolean sharded() {
    return !shard.endsWith("/1");
  }

  public JsonObject json() {
    return new JsonObject().put("id", id).put("url", url).put("shard", shard);
  }
}
