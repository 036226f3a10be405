package dev.checkpointdoctor.api.fleet;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One view over all shards: this instance's list merged with every peer's own list
 * ({@code ?local=true}), each entry saying which instance holds it. A peer that does not answer
 * is reported in {@code peers}, never an error. The replicas of a shard hold the same jobs; an
 * entry held by several instances appears once, from this instance when it holds it (its links
 * stay on the page the user is on), else from the instance that saw the job most recently (a job
 * that moved to another shard is still known, frozen, on its old one), and lists every holder in
 * {@code replicas}.
 */
public final class FleetView {
  private volatile Instance self;
  private final PeerDirectory directory;
  private final PeerClient client;

  /**
   * @param directory null (and {@code client} null) for an instance without peers
   */
  public FleetView(String shard, PeerDirectory directory, PeerClient client) {
    this.self = Instance.of(null, shard);
    this.directory = directory;
    this.client = client;
  }

  /** Once the service listens: the URL users reach it under. */
  public void listening(String externalUrl) {
    self = new Instance(self.id(), externalUrl, self.shard());
  }

  public Instance self() {
    return self;
  }

  /** Whether there is anyone to ask. */
  public boolean hasPeers() {
    return directory != null && (!directory.peers().isEmpty() || directory.dnsName() != null);
  }

  /** The jobs list of every instance, from this instance's {@code local}. */
  public Future<JsonObject> jobs(JsonObject local) {
    return merge(local, "/api/v1/jobs?local=true", "jobs", e -> e.getString("job"),
        FleetView::newerLastSeen,
        Comparator.comparing((JsonObject e) -> e.getString("job")));
  }

  /**
   * The anomalies list of every instance; {@code query} (already encoded, without {@code local})
   * filters every instance's list alike.
   */
  public Future<JsonObject> anomalies(JsonObject local, String query) {
    String path = "/api/v1/anomalies?local=true" + (query.isEmpty() ? "" : "&" + query);
    return merge(local, path, "anomalies",
        e -> e.getString("job") + "\u0000" + e.getString("signal") + "\u0000"
            + e.getString("scope") + "\u0000" + e.getString("startedAt"),
        FleetView::laterState,
        Comparator.comparing((JsonObject e) -> e.getString("startedAt"),
                Comparator.nullsLast(Comparator.reverseOrder()))
            .thenComparing(e -> e.getString("job"))
            .thenComparing(e -> e.getString("signal"))
            .thenComparing(e -> e.getString("scope")));
  }

  private Future<JsonObject> merge(JsonObject local, String path, String listName,
      Function<JsonObject, String> key, Comparator<JsonObject> fresher,
      Comparator<JsonObject> order) {
    List<URI> peers = directory.peers();
    List<Future<JsonObject>> answers = new ArrayList<>();
    for (URI peer : peers) {
      answers.add(client.get(peer, path));
    }
    return Future.join(answers).transform(ignored -> {
      Map<String, List<JsonObject>> byKey = new LinkedHashMap<>();
      collect(local.getJsonArray(listName), key, byKey);
      JsonArray status = new JsonArray();
      for (int i = 0; i < peers.size(); i++) {
        Future<JsonObject> answer = answers.get(i);
        JsonObject peerStatus = new JsonObject().put("url", peers.get(i).toString());
        if (answer.failed()) {
          status.add(peerStatus.put("ok", false).put("error", answer.cause().getMessage()));
          continue;
        }
        JsonObject body = answer.result();
        JsonObject instance = body.getValue("instance") instanceof JsonObject o ? o : null;
        if (isSelf(instance)) {
          continue; // this instance, named in its own peer list
        }
        JsonArray list = body.getJsonArray(listName);
        if (list == null) {
          status.add(peerStatus.put("ok", false).put("error", "answer has no " + listName));
          continue;
        }
        collect(list, key, byKey);
        peerStatus.put("ok", true);
        if (instance != null) {
          peerStatus.put("instance", instance.getString("url"))
              .put("shard", instance.getString("shard"));
        }
        status.add(peerStatus.put(listName, list.size()));
      }
      if (directory.discoveryError() != null) {
        status.add(new JsonObject().put("url", "dns:" + directory.dnsName()).put("ok", false)
            .put("error", directory.discoveryError()));
      }
      List<JsonObject> merged = new ArrayList<>();
      Instance me = self;
      for (List<JsonObject> holders : byKey.values()) {
        merged.add(preferred(me, holders, fresher));
      }
      merged.sort(order);
      JsonObject out = local.copy();
      out.put(listName, new JsonArray(new ArrayList<>(merged)));
      out.put("instance", me.json());
      out.put("peers", status);
      return Future.succeededFuture(out);
    });
  }

  private static void collect(JsonArray list, Function<JsonObject, String> key,
      Map<String, List<JsonObject>> byKey) {
    if (list == null) {
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      JsonObject e = list.getJsonObject(i);
      byKey.computeIfAbsent(key.apply(e), k -> new ArrayList<>()).add(e);
    }
  }

  /** The first holder (this instance, when it is one) unless another is fresher. */
  private static JsonObject preferred(Instance me, List<JsonObject> holders,
      Comparator<JsonObject> fresher) {
    JsonObject best = null;
    for (JsonObject h : holders) {
      if (me.url().equals(h.getString("instance"))) {
        best = h;
        break;
      }
    }
    if (best == null) {
      Comparator<JsonObject> rank = fresher.reversed().thenComparing(
          h -> h.getString("instance", ""));
      best = holders.stream().min(rank).orElseThrow();
    }
    JsonArray replicas = new JsonArray().add(best.getString("instance"));
    holders.stream().map(h -> h.getString("instance")).filter(u -> !replicas.contains(u))
        .sorted().forEach(replicas::add);
    return best.copy().put("replicas", replicas);
  }

  /**
   * A job this instance does not hold, asked of every peer ({@code pathAndQuery} names the job
   * and has {@code local=true}): the first answer of 200, or null when no peer holds it.
   */
  public Future<JsonObject> elsewhere(String pathAndQuery) {
    List<Future<JsonObject>> answers = new ArrayList<>();
    for (URI peer : directory.peers()) {
      answers.add(client.get(peer, pathAndQuery));
    }
    return Future.join(answers).transform(ignored -> {
      for (Future<JsonObject> a : answers) {
        // A job's page names its instance by URL; a list answer by id and URL.
        if (a.succeeded() && !isSelf(a.result().getValue("instance"))) {
          return Future.succeededFuture(a.result());
        }
      }
      return Future.succeededFuture(null);
    });
  }

  private boolean isSelf(Object instance) {
    Instance me = self;
    if (instance instanceof JsonObject o) {
      return me.id().equals(o.getString("id"));
    }
    return instance != null && instance.equals(me.url());
  }

  /** Orders jobs by when they were last seen, unknown first. */
  static int newerLastSeen(JsonObject a, JsonObject b) {
    return Long.compare(epochMs(a.getString("lastSeen")), epochMs(b.getString("lastSeen")));
  }

  /** Orders copies of one anomaly: open before resolved, then by when it ended. */
  static int laterState(JsonObject a, JsonObject b) {
    boolean aResolved = a.getString("endedAt") != null;
    boolean bResolved = b.getString("endedAt") != null;
    if (aResolved != bResolved) {
      return aResolved ? 1 : -1;
    }
    return Long.compare(epochMs(a.getString("endedAt")), epochMs(b.getString("endedAt")));
  }

  private static long epochMs(String time) {
    if (time == null) {
      return Long.MIN_VALUE;
    }
    try {
      return Instant.parse(time).toEpochMilli();
    } catch (RuntimeException e) {
      return Long.MIN_VALUE;
    }
  }
}
