package dev.checkpointdoctor.api.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads Kubernetes manifests into the typed API models (fabric8's, generated from the Kubernetes
 * and Prometheus Operator API schemas): a field of the wrong type fails to read, and a field the
 * schema does not have (a misspelt name) is reported by {@link #unknownFields}.
 */
final class Manifests {
  static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
      "v1/Service", Service.class,
      "apps/v1/StatefulSet", StatefulSet.class,
      "apps/v1/Deployment", Deployment.class,
      "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class,
      "v1/PersistentVolumeClaim", io.fabric8.kubernetes.api.model.PersistentVolumeClaim.class,
      "monitoring.coreos.com/v1/PodMonitor", PodMonitor.class);

  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();

  private Manifests() {}

  /** Every document of a multi-document YAML text, as its typed model. */
  static List<HasMetadata> read(String yaml) {
    List<HasMetadata> out = new ArrayList<>();
    for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
      if (doc == null) {
        continue;
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) doc;
      String kind = map.get("apiVersion") + "/" + map.get("kind");
      Class<? extends HasMetadata> type = KINDS.get(kind);
      assertThat(type).as("a known kind: " + kind).isNotNull();
      out.add(MAPPER.convertValue(map, type));
    }
    return out;
  }

  /** Paths of fields the schema does not know, anywhere in the object. */
  static List<String> unknownFields(Object model) {
    List<String> out = new ArrayList<>();
    walk(model, model.getClass().getSimpleName(), out,
        java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
    return out;
  }

  private static void walk(Object o, String path, List<String> out, Set<Object> seen) {
    if (o == null || !seen.add(o)) {
      return;
    }
    if (o instanceof Collection<?> c) {
      int i = 0;
      for (Object e : c) {
        walk(e, path + "[" + i++ + "]", out, seen);
      }
      return;
    }
    if (o instanceof Map<?, ?> m) {
      m.forEach((k, v) -> walk(v, path + "." + k, out, seen));
      return;
    }
    if (!o.getClass().getName().startsWith("io.fabric8.")) {
      return;
    }
    for (Method g : o.getClass().getMethods()) {
      if (g.getParameterCount() != 0 || Modifier.isStatic(g.getModifiers())
          || !g.getName().startsWith("get") || g.getDeclaringClass() == Object.class) {
        continue;
      }
      Object v;
      try {
        v = g.invoke(o);
      } catch (ReflectiveOperationException e) {
        continue;
      }
      if (g.getName().equals("getAdditionalProperties")) {
        if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
          extra.keySet().forEach(k -> out.add(path + "." + k));
        }
        continue;
      }
      walk(v, path + "." + Character.toLowerCase(g.getName().charAt(3))
          + g.getName().substring(4), out, seen);
    }
  }
}
