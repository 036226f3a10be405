package dev.checkpointdoctor.api.alerting;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which alert each job has firing, and what to send when a diagnosis changes or a resend is due.
 * Used by one thread only.
 */
final class AlertBook {
  private final AlertMapper mapper;
  private final Map<String, Alert> firing = new LinkedHashMap<>();

  AlertBook(AlertMapper mapper) {
    this.mapper = mapper;
  }

  /**
   * A job's diagnosis opened, changed cause or closed ({@code after} null). A changed label set
   * is a new alert to Alertmanager, so the old one is resolved explicitly rather than left to
   * expire. A diagnosis the policy does not alert (an unknown cause while checkpoints complete)
   * is treated as no diagnosis: it resolves what fired before, and fires once checkpoints fail.
   */
  List<Alert> diagnosisChanged(String job, Diagnosis after, Instant now) {
    List<Alert> out = new ArrayList<>(2);
    Alert old = firing.remove(job);
    Alert next = after == null || !mapper.policy().alerts(after) ? null
        : mapper.firing(after, now);
    if (old != null && (next == null || !old.labels().equals(next.labels()))) {
      out.add(mapper.resolved(old, now));
    }
    if (next != null) {
      if (old != null && old.labels().equals(next.labels())) {
        next = new Alert(next.labels(), next.annotations(), old.startsAt(), next.endsAt(),
            next.generatorUrl());
      }
      firing.put(job, next);
      out.add(next);
    }
    return out;
  }

  /**
   * Every firing alert again with a later endsAt. Each is checked against the job's current
   * diagnosis, so a severity that escalated is announced, and a change event that was lost
   * (queue full) cannot leave an alert firing forever.
   */
  List<Alert> resend(Instant now, Function<String, Optional<Diagnosis>> current) {
    List<Alert> out = new ArrayList<>();
    for (String job : List.copyOf(firing.keySet())) {
      Optional<Diagnosis> d = current.apply(job);
      if (d.isEmpty()) {
        out.addAll(diagnosisChanged(job, null, now));
      } else {
        out.addAll(diagnosisChanged(job, d.get(), now));
      }
    }
    return out;
  }

  Map<String, Alert> firing() {
    return java.util.Collections.unmodifiableMap(firing);
  }
}
