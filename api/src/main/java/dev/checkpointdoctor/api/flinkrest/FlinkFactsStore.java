package dev.checkpointdoctor.api.flinkrest;

import dev.checkpointdoctor.detector.facts.JobFacts;
import dev.checkpointdoctor.detector.facts.JobFactsSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest facts per job, per JobManager, as the poller last read them; what the detector and
 * the API read. A job is matched to the metrics' {@code job_name} by its name with Flink's
 * reporter filter applied (every character outside [a-zA-Z0-9:_] becomes '_'). Two running jobs of
 * that name on different JobManagers are ambiguous: neither is used.
 */
public final class FlinkFactsStore implements JobFactsSource {
  /** Endpoint → metric job name → facts. */
  private final Map<String, Map<String, JobFacts>> byEndpoint = new ConcurrentHashMap<>();

  /** Replaces everything known from one endpoint with what its last poll found. */
  void replace(String endpoint, Map<String, JobFacts> jobs) {
    byEndpoint.put(endpoint, Map.copyOf(jobs));
  }

  /** Forgets one job of one endpoint (it ended). */
  void remove(String endpoint, String job) {
    byEndpoint.computeIfPresent(endpoint, (k, m) -> {
      Map<String, JobFacts> copy = new java.util.HashMap<>(m);
      copy.remove(job);
      return Map.copyOf(copy);
    });
  }

  /** Puts one job's facts (the rest of the endpoint's jobs stay). */
  void put(String endpoint, JobFacts facts) {
    byEndpoint.compute(endpoint, (k, m) -> {
      Map<String, JobFacts> copy = m == null ? new java.util.HashMap<>() : new java.util.HashMap<>(m);
      copy.put(facts.job(), facts);
      return Map.copyOf(copy);
    });
  }

  /**
   * @param job the detector's job key: the job name, or with --job-identity-labels the identity
   *     values and the name joined by '/' (a name never holds '/': Flink's reporter replaces it)
   */
  @Override
  public JobFacts facts(String job) {
    String name = job.substring(job.lastIndexOf('/') + 1);
    JobFacts found = null;
    for (Map<String, JobFacts> jobs : byEndpoint.values()) {
      JobFacts f = jobs.get(name);
      if (f != null) {
        if (found != null && !found.jobId().equals(f.jobId())) {
          return null; // the same name on two JobManagers: which one the metrics are is unknown
        }
        found = f;
      }
    }
    return found;
  }

  /** Every job with facts, for /metrics. */
  public int size() {
    int n = 0;
    for (Map<String, JobFacts> jobs : byEndpoint.values()) {
      n += jobs.size();
    }
    return n;
  }

  /** Names known on more than one JobManager (their facts are not used). */
  List<String> ambiguous() {
    List<String> out = new ArrayList<>();
    Map<String, String> seen = new java.util.HashMap<>();
    for (Map<String, JobFacts> jobs : byEndpoint.values()) {
      for (JobFacts f : jobs.values()) {
        String other = seen.putIfAbsent(f.job(), f.jobId());
        if (other != null && !other.equals(f.jobId()) && !out.contains(f.job())) {
          out.add(f.job());
        }
      }
    }
    return out;
  }

  /** Flink's label value filter, as its Prometheus reporter applies it to job_name. */
  static String metricName(String restName) {
    StringBuilder b = new StringBuilder(restName.length());
    for (int i = 0; i < restName.length(); i++) {
      char c = restName.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == ':' || c == '_';
      b.append(ok ? c : '_');
    }
    return b.toString();
  }
}
