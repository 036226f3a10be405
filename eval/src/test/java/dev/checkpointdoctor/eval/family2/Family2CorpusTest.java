package dev.checkpointdoctor.eval.family2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.eval.scenario.GeneratedScenario;
import dev.checkpointdoctor.eval.scenario.ScenarioFamily;
import dev.checkpointdoctor.eval.scenario.ScenarioManifest;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What one seed's corpus holds: enough faulty jobs per cause, the healthy controls, the
 * production time scale and the variety of layouts the family promises, the same every time for
 * the same seed. Truths only: nothing is played here.
 */
class Family2CorpusTest {
  static final long SEED = 5;
  static final long HOUR = 3_600_000L;
  private static List<ScenarioManifest.Entry> truths;

  @BeforeAll
  static void draw() {
    truths = truths(SEED);
  }

  static List<ScenarioManifest.Entry> truths(long seed) {
    List<ScenarioManifest.Entry> out = new ArrayList<>();
    for (GeneratedScenario s : new Family2().scenarios(seed)) {
      out.add(s.truth());
    }
    return out;
  }

  @Test
  void isTheFamilyNamedFamily2WithAPublicConstructor() throws Exception {
    ScenarioFamily f = Family2.class.getConstructor().newInstance();
    assertThat(f.name()).isEqualTo("family2");
  }

  @Test
  void everyCauseHasAtLeastFourFaultyJobsAndThereAreHealthyControls() {
    Map<String, Integer> perCause = new HashMap<>();
    for (ScenarioManifest.Entry e : truths) {
      perCause.merge(e.expected(), 1, Integer::sum);
    }
    for (String cause : Faults.CAUSES) {
      assertThat(perCause.getOrDefault(cause, 0)).as(cause).isGreaterThanOrEqualTo(4);
    }
    assertThat(perCause.get(ScenarioManifest.HEALTHY)).isGreaterThanOrEqualTo(8);
    assertThat(truths.stream().filter(e -> !e.healthy()).count()).isGreaterThanOrEqualTo(40);
    Set<String> controls = new HashSet<>();
    truths.stream().filter(ScenarioManifest.Entry::healthy)
        .forEach(e -> controls.add(e.shape().getString("control")));
    assertThat(controls).contains("daily_cycle", "weekly_cycle", "redeploy", "rescale",
        "submitted_declined_first", "unaligned_variance", "isolated_slow_checkpoints",
        "slow_drift");
  }

  @Test
  void namesAndJobsAreUniqueAndTimesFollowTheProductionScale() {
    Set<String> names = new HashSet<>();
    Set<String> jobs = new HashSet<>();
    for (ScenarioManifest.Entry e : truths) {
      assertThat(names.add(e.name())).as("unique name %s", e.name()).isTrue();
      assertThat(jobs.add(e.job())).as("unique job %s", e.job()).isTrue();
      assertThat(e.job()).matches("[a-zA-Z0-9_:]+");
      assertThat(e.file()).isEmpty();
      JsonObject shape = e.shape();
      assertThat(shape.getInteger("scrapeIntervalSeconds")).isBetween(15, 60);
      assertThat(shape.getInteger("nodeScrapeIntervalSeconds")).isBetween(15, 60);
      assertThat(shape.getLong("checkpointIntervalSeconds")).isBetween(30L, 300L);
      assertThat(shape.getInteger("parallelism")).isBetween(2, 16);
      assertThat(shape.getInteger("taskManagers")).isBetween(1, 4);
      if (e.healthy()) {
        assertThat(e.faultStartMs()).isEqualTo(-1);
        assertThat(e.endMs() - e.startMs()).isGreaterThanOrEqualTo(16 * HOUR);
      } else {
        assertThat(e.faultStartMs() - e.startMs()).as("%s normal running", e.name())
            .isGreaterThanOrEqualTo(12 * HOUR);
        assertThat(e.endMs() - e.faultStartMs()).as("%s fault length", e.name())
            .isGreaterThanOrEqualTo(4 * HOUR);
      }
    }
  }

  @Test
  void aboutOneFaultyJobInTenHasASecondFaultRecordedAsAlsoPresent() {
    List<ScenarioManifest.Entry> faulty = truths.stream().filter(e -> !e.healthy()).toList();
    List<ScenarioManifest.Entry> duals = faulty.stream()
        .filter(e -> e.shape().containsKey("alsoPresent")).toList();
    assertThat(duals.size()).isBetween(faulty.size() / 20, faulty.size() / 5);
    for (ScenarioManifest.Entry e : duals) {
      String second = e.shape().getString("alsoPresent");
      assertThat(Faults.CAUSES).contains(e.expected(), second);
      assertThat(second).isNotEqualTo(e.expected());
      assertThat(java.time.Instant.parse(e.shape().getString("alsoPresentStart")).toEpochMilli())
          .as("the root cause comes first").isGreaterThan(e.faultStartMs());
    }
  }

  @Test
  void layoutsVersionsAndRocksDbShapesAreAllRepresented() {
    Set<String> layouts = new HashSet<>();
    Set<String> versions = new HashSet<>();
    Set<String> shapes = new HashSet<>();
    Set<String> ramps = new HashSet<>();
    for (ScenarioManifest.Entry e : truths) {
      layouts.add(e.shape().getString("layout"));
      versions.add(e.shape().getString("flinkVersion"));
      shapes.add(e.shape().getString("rocksdbMetrics"));
      if (!e.healthy()) {
        ramps.add(e.shape().getString("ramp"));
      }
    }
    assertThat(layouts).contains("bare_metal_ip", "bare_metal_fqdn", "k8s_native",
        "k8s_hostnet", "k8s_standalone");
    assertThat(versions).containsExactlyInAnyOrder("1.20.3", "2.3.0");
    assertThat(shapes).contains("column_family_label", "per_state_name", "none");
    assertThat(ramps).contains("step", "linear", "sigmoid", "step_then_drift");
  }

  @Test
  void theRootCauseOfADiskOrCpuJobIsJoinableExceptWhereTheCorpusSaysItIsNot() {
    for (ScenarioManifest.Entry e : truths) {
      boolean unjoinable = e.name().startsWith("unjoinable_");
      if (e.expected().equals(Faults.DISK)) {
        assertThat(e.shape().getBoolean("diskJoinable")).as(e.name()).isEqualTo(!unjoinable);
      }
      if (e.expected().equals(Faults.CPU)) {
        assertThat(e.shape().getBoolean("containerJoinable")).as(e.name())
            .isEqualTo(!unjoinable);
      }
    }
  }

  @Test
  void theSameSeedDrawsTheSameCorpusAndAnotherSeedAnother() {
    List<GeneratedScenario> again = new Family2().scenarios(SEED);
    assertThat(again.stream().map(s -> ((Family2Scenario) s).name() + "/"
        + ((Family2Scenario) s).jobName()).toList())
        .isEqualTo(truths.stream().map(e -> e.name() + "/" + e.job()).toList());
    // the full truth (sized by a pilot run, a disk fault placed by the physics) of a few
    for (int i : new int[] {0, 1, 13, 22, 40, again.size() - 1}) {
      assertThat(encode(again.get(i).truth())).isEqualTo(encode(truths.get(i)));
    }
    List<String> other = new Family2().scenarios(SEED + 1).stream()
        .map(s -> ((Family2Scenario) s).jobName()).toList();
    assertThat(other).isNotEqualTo(truths.stream().map(ScenarioManifest.Entry::job).toList());
  }

  private static String encode(ScenarioManifest.Entry e) {
    return e.name() + "|" + e.job() + "|" + e.expected() + "|" + e.faultStartMs() + "|"
        + e.startMs() + "|" + e.endMs() + "|" + e.description() + "|" + e.shape().encode();
  }
}
