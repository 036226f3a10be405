package dev.checkpointdoctor.api.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServiceSettingsTest {

  @Test
  void defaultsNeedNoExternalServer() throws Exception {
    ServiceSettings s = ServiceSettings.parse(List.of(), Map.of());
    assertThat(s.port()).isEqualTo(9877);
    assertThat(s.dataDir()).isEqualTo(Path.of("./data"));
    assertThat(s.snapshotInterval()).isEqualTo(Duration.ofSeconds(60));
    assertThat(s.detector().minObservations()).isEqualTo(20);
  }

  @Test
  void flagsOverrideEnvironmentWhichOverridesDefaults() throws Exception {
    Map<String, String> env = Map.of("CPD_PORT", "1234", "CPD_DATA_DIR", "/tmp/x",
        "CPD_HOST_ALIASES", "tm1=node-a, tm2=node-b");
    ServiceSettings s = ServiceSettings.parse(List.of("--port", "4321", "--min-observations=5"),
        env);
    assertThat(s.port()).isEqualTo(4321);
    assertThat(s.dataDir()).isEqualTo(Path.of("/tmp/x"));
    assertThat(s.detector().minObservations()).isEqualTo(5);
    assertThat(s.detector().hostAliases()).containsEntry("tm1", "node-a")
        .containsEntry("tm2", "node-b");
  }

  @Test
  void detectorThreadsDefaultToTheCoresAndAreBounded() throws Exception {
    assertThat(ServiceSettings.parse(List.of(), Map.of()).detectorThreads())
        .isEqualTo(Math.min(ServiceSettings.MAX_DETECTOR_THREADS,
            Runtime.getRuntime().availableProcessors()));
    assertThat(ServiceSettings.parse(List.of("--detector-threads", "3"), Map.of())
        .detectorThreads()).isEqualTo(3);
    assertThat(ServiceSettings.parse(List.of(), Map.of("CPD_DETECTOR_THREADS", "5"))
        .detectorThreads()).isEqualTo(5);
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--detector-threads", "0"), Map.of()))
        .hasMessageContaining("--detector-threads must be between 1 and 64, got 0");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--detector-threads", "many"),
        Map.of())).hasMessageContaining("--detector-threads must be a whole number");
  }

  @Test
  void queueWaitIsADurationZeroMeaningNoWait() throws Exception {
    assertThat(ServiceSettings.parse(List.of(), Map.of()).queueWait())
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(ServiceSettings.parse(List.of("--queue-wait", "0s"), Map.of()).queueWait())
        .isZero();
    assertThat(ServiceSettings.parse(List.of("--queue-wait", "500ms"), Map.of()).queueWait())
        .isEqualTo(Duration.ofMillis(500));
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--queue-wait", "1h"), Map.of()))
        .hasMessageContaining("--queue-wait must be at most 5m");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--queue-wait", "soon"), Map.of()))
        .hasMessageContaining("--queue-wait must be a positive duration");
  }

  @Test
  void unknownFlagFailsWithItsName() {
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--prot", "1"), Map.of()))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("unknown option --prot");
  }

  @Test
  void badValuesFailWithTheFlagAndTheValue() {
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--port", "http"), Map.of()))
        .hasMessageContaining("--port must be a whole number, got \"http\"");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--port", "70000"), Map.of()))
        .hasMessageContaining("--port must be between 0 and 65535");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--snapshot-interval", "5 minutes"),
        Map.of())).hasMessageContaining("--snapshot-interval must be a positive duration");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--host-alias", "nodeonly"),
        Map.of())).hasMessageContaining("--host-alias expects FLINK_HOST=NODE");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--port"), Map.of()))
        .hasMessageContaining("--port needs a value");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--port", "1", "--port", "2"),
        Map.of())).hasMessageContaining("--port given more than once");
    assertThatThrownBy(() -> ServiceSettings.parse(
        List.of("--window", "10", "--min-observations", "20"), Map.of()))
        .hasMessageContaining("--window (10) must be at least --min-observations (20)");
  }

  @Test
  void shardAndPeers() throws Exception {
    ServiceSettings alone = ServiceSettings.parse(List.of(), Map.of());
    assertThat(alone.fleet().shard().sharded()).isFalse();
    assertThat(alone.fleet().hasPeers()).isFalse();
    ServiceSettings s = ServiceSettings.parse(List.of("--shard", "2/4", "--peer",
        "http://cpd-1:9877/", "--peer", "https://cpd-2:9877", "--peer-timeout", "500ms"),
        Map.of("CPD_SHARD_LABELS", "cluster, job_name", "CPD_JOB_IDENTITY_LABELS", "cluster",
            "CPD_PEERS_DNS", "checkpoint-doctor.monitoring.svc:9877"));
    assertThat(s.fleet().shard().label()).isEqualTo("2/4");
    assertThat(s.fleet().shard().labels()).containsExactly("cluster", "job_name");
    assertThat(s.fleet().peers()).extracting(Object::toString)
        .containsExactly("http://cpd-1:9877", "https://cpd-2:9877");
    assertThat(s.fleet().peersDnsName()).isEqualTo("checkpoint-doctor.monitoring.svc");
    assertThat(s.fleet().peersDnsPort()).isEqualTo(9877);
    assertThat(s.fleet().peerTimeout()).isEqualTo(Duration.ofMillis(500));

    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--shard", "4/4"), Map.of()))
        .hasMessageContaining("--shard must have a shard I between 0 and 3 (shards are "
            + "counted from 0), got 4/4");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of(), Map.of("CPD_SHARD", "two")))
        .hasMessageStartingWith("CPD_SHARD must be I/N");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--shard", "0/2", "--shard-labels",
        "job-name"), Map.of())).hasMessageContaining("--shard-labels \"job-name\"");
    // the shard is a function of the job key, the same for both replicas of a Prometheus pair
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--shard", "0/2", "--shard-labels",
        "cluster,job_name"), Map.of())).hasMessageContaining("--shard-labels hashes \"cluster\", "
            + "which is not one of --job-identity-labels []");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--shard", "0/2", "--shard-labels",
        "prometheus_replica,job_name", "--ha-replica-label", "prometheus_replica"), Map.of()))
        .hasMessageContaining("--shard-labels cannot hash \"prometheus_replica\", the "
            + "--ha-replica-label");
    assertThat(ServiceSettings.parse(List.of("--shard", "0/2", "--shard-labels",
        "cluster,job_name", "--job-identity-labels", "cluster", "--ha-replica-label",
        "prometheus_replica"), Map.of()).fleet().shard().labels())
        .containsExactly("cluster", "job_name");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--peer", "cpd-1:9877"), Map.of()))
        .hasMessageContaining("--peer must be an http(s) URL");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--peers-dns", "cpd"), Map.of()))
        .hasMessageContaining("--peers-dns must be NAME:PORT");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--peers-dns", "cpd:x"), Map.of()))
        .hasMessageContaining("--peers-dns must be NAME:PORT");
  }

  @Test
  void repeatableFlagCollectsEveryValue() throws Exception {
    ServiceSettings s = ServiceSettings.parse(
        List.of("--host-alias", "a=x", "--host-alias", "b=y"), Map.of());
    assertThat(s.detector().hostAliases()).isEqualTo(Map.of("a", "x", "b", "y"));
  }

  @Test
  void alertingAndHistoryAreOffByDefault() throws Exception {
    ServiceSettings s = ServiceSettings.parse(List.of(), Map.of());
    assertThat(s.alerting().enabled()).isFalse();
    assertThat(s.alerting().resendInterval()).isEqualTo(java.time.Duration.ofMinutes(1));
    assertThat(s.alerting().externalUrl()).isNull();
    assertThat(s.influx()).isNull();
  }

  @Test
  void unknownCausesAreNotAlertedAndForecastsWithinADayAreCriticalByDefault() throws Exception {
    ServiceSettings s = ServiceSettings.parse(List.of(), Map.of());
    assertThat(s.alerting().policy().alertUnknown()).isFalse();
    assertThat(s.alerting().policy().forecastHorizon()).isEqualTo(java.time.Duration.ofHours(24));
    // a bare switch turns it on, even before another flag
    ServiceSettings on = ServiceSettings.parse(List.of("--alert-unknown", "--forecast-horizon",
        "6h"), Map.of());
    assertThat(on.alerting().policy().alertUnknown()).isTrue();
    assertThat(on.alerting().policy().forecastHorizon()).isEqualTo(java.time.Duration.ofHours(6));
    assertThat(ServiceSettings.parse(List.of(), Map.of("CPD_ALERT_UNKNOWN", "true"))
        .alerting().policy().alertUnknown()).isTrue();
    assertThat(ServiceSettings.parse(List.of("--alert-unknown=false"),
        Map.of("CPD_ALERT_UNKNOWN", "true")).alerting().policy().alertUnknown()).isFalse();
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--alert-unknown=yes"), Map.of()))
        .hasMessageContaining("--alert-unknown must be true or false");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--forecast-horizon", "1 day"),
        Map.of())).hasMessageContaining("--forecast-horizon");
    assertThat(ServiceSettings.help()).contains("--alert-unknown ").doesNotContain(
        "--alert-unknown VALUE");
  }

  @Test
  void everyAlertmanagerUrlIsKeptAndInfluxComesFromFlagsOrEnvironment() throws Exception {
    ServiceSettings s = ServiceSettings.parse(List.of("--alertmanager-url", "http://am-0:9093/",
            "--alertmanager-url=http://am-1:9093", "--alert-resend-interval", "30s",
            "--external-url", "https://doctor.example/"),
        Map.of("CPD_INFLUX_URL", "http://influx:8086", "CPD_INFLUX_USER", "w",
            "CPD_INFLUX_PASSWORD", "secret"));
    assertThat(s.alerting().alertmanagers()).extracting(Object::toString)
        .containsExactly("http://am-0:9093", "http://am-1:9093");
    assertThat(s.alerting().resendInterval()).isEqualTo(java.time.Duration.ofSeconds(30));
    assertThat(s.alerting().externalUrl()).isEqualTo("https://doctor.example");
    assertThat(s.influx().url()).isEqualTo("http://influx:8086");
    assertThat(s.influx().database()).isEqualTo("checkpoint_doctor");
    assertThat(s.influx().user()).isEqualTo("w");
    assertThat(s.influx().password()).isEqualTo("secret");
    assertThat(s.toString()).doesNotContain("secret");
    ServiceSettings env = ServiceSettings.parse(List.of(),
        Map.of("CPD_ALERTMANAGER_URLS", "http://a:9093, http://b:9093"));
    assertThat(env.alerting().alertmanagers()).hasSize(2);
  }

  @Test
  void badUrlsFailWithTheFlag() {
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--alertmanager-url", "am:9093"),
        Map.of())).hasMessageContaining("--alertmanager-url").hasMessageContaining("am:9093");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--influx-url", "ftp://x"),
        Map.of())).hasMessageContaining("--influx-url");
  }

  @Test
  void durationsInPrometheusStyle() throws Exception {
    assertThat(ServiceSettings.parseDuration("--x", "250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(ServiceSettings.parseDuration("--x", "10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(ServiceSettings.parseDuration("--x", "3d")).isEqualTo(Duration.ofDays(3));
    assertThat(ServiceSettings.parseDuration("--x", "1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(ServiceSettings.parseDuration("--x", "1d12h")).isEqualTo(Duration.ofHours(36));
    assertThat(ServiceSettings.parseDuration("--x", "2w")).isEqualTo(Duration.ofDays(14));
    assertThat(ServiceSettings.parseDuration("--x", "1y")).isEqualTo(Duration.ofDays(365));
    assertThat(ServiceSettings.parseDuration("--x", "1m30s500ms"))
        .isEqualTo(Duration.ofMillis(90_500));
    for (String bad : new String[] {"0s", "", "5 minutes", "30m1h", "1h1h", "1.5h", "-1m", "10"}) {
      assertThatThrownBy(() -> ServiceSettings.parseDuration("--x", bad)).as(bad)
          .isInstanceOf(SettingsException.class)
          .hasMessageContaining("--x must be a positive duration like 30s, 10m, 1h30m or 3d");
    }
    // Every duration flag takes the full syntax, from flags and from the environment.
    ServiceSettings s = ServiceSettings.parse(List.of("--half-life", "1d12h",
        "--snapshot-interval", "1m30s", "--checkpoint-timeout", "1h30m",
        "--max-future-skew", "2m30s", "--max-sample-age", "1w"),
        Map.of("CPD_ALERT_RESEND_INTERVAL", "1m30s"));
    assertThat(s.detector().halfLife()).isEqualTo(Duration.ofHours(36));
    assertThat(s.snapshotInterval()).isEqualTo(Duration.ofSeconds(90));
    assertThat(s.detector().checkpointTimeout()).isEqualTo(Duration.ofMinutes(90));
    assertThat(s.limits().maxFutureSkew()).isEqualTo(Duration.ofSeconds(150));
    assertThat(s.limits().maxSampleAge()).isEqualTo(Duration.ofDays(7));
    assertThat(s.alerting().resendInterval()).isEqualTo(Duration.ofSeconds(90));
  }

  @Test
  void durationsArePrintedAsTheyAreWritten() {
    assertThat(PromDuration.format(Duration.ofMinutes(1))).isEqualTo("1m");
    assertThat(PromDuration.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
    assertThat(PromDuration.format(Duration.ofDays(3))).isEqualTo("3d");
    assertThat(PromDuration.format(Duration.ofHours(36))).isEqualTo("1d12h");
    assertThat(PromDuration.format(Duration.ofMillis(1500))).isEqualTo("1s500ms");
    for (String written : new String[] {"1m", "1h30m", "1d12h", "250ms", "3d"}) {
      assertThat(PromDuration.format(PromDuration.parsePositive(written))).isEqualTo(written);
    }
  }

  @Test
  void errorsInTheEnvironmentNameTheVariableAndOnTheCommandLineTheFlag() {
    assertThatThrownBy(() -> ServiceSettings.parse(List.of(), Map.of("CPD_HALF_LIFE", "3 days")))
        .hasMessageStartingWith("CPD_HALF_LIFE must be a positive duration")
        .hasMessageNotContaining("--half-life");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--half-life", "3 days"),
        Map.of("CPD_HALF_LIFE", "3d"))).hasMessageStartingWith("--half-life must be");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of(), Map.of("CPD_PORT", "http")))
        .hasMessageStartingWith("CPD_PORT must be a whole number");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of(),
        Map.of("CPD_WINDOW", "10", "CPD_MIN_OBSERVATIONS", "20")))
        .hasMessage("CPD_WINDOW (10) must be at least CPD_MIN_OBSERVATIONS (20)");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of(),
        Map.of("CPD_ALERTMANAGER_URLS", "am:9093"))).hasMessageStartingWith(
            "CPD_ALERTMANAGER_URLS must be an http(s) URL");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of(),
        Map.of("CPD_HOST_ALIASES", "nodeonly"))).hasMessageStartingWith(
            "CPD_HOST_ALIASES expects FLINK_HOST=NODE");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of(),
        Map.of("CPD_API_TOKEN", "t", "CPD_API_TOKEN_FILE", "/x"))).hasMessage(
            "CPD_API_TOKEN and CPD_API_TOKEN_FILE are exclusive");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of(),
        Map.of("CPD_API_TOKEN_FILE", "/nonexistent/token"))).hasMessage(
            "CPD_API_TOKEN_FILE: cannot read /nonexistent/token (no such file or directory)");
  }

  @Test
  void helpListsEveryOptionTheToolsAndTheAddressesAndVersionIsAnOption() {
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--help"), Map.of()))
        .isInstanceOf(ServiceSettings.HelpRequested.class);
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("-h"), Map.of()))
        .isInstanceOf(ServiceSettings.HelpRequested.class);
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--port", "1", "--version"),
        Map.of())).isInstanceOf(ServiceSettings.VersionRequested.class);
    String help = ServiceSettings.help();
    for (Option o : ServiceSettings.OPTIONS) {
      assertThat(help).contains(o.flag());
      if (o.env() != null) {
        assertThat(help).contains(o.env());
      }
    }
    for (String tool : Subcommands.ALL.keySet()) {
      assertThat(help).containsPattern("(?m)^  " + tool + " +\\S");
    }
    assertThat(help).contains("http://HOST:9877/ui/", "/api/v1/write", "1h30m");
  }

  @Test
  void flinkRestIsOffByDefaultAndTakesUrlsCredentialsAndInterval(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    ServiceSettings off = ServiceSettings.parse(List.of(), Map.of());
    assertThat(off.flinkRest().enabled()).isFalse();
    assertThat(off.flinkRest().interval()).hasSeconds(30);
    java.nio.file.Path token = dir.resolve("token");
    java.nio.file.Files.writeString(token, "s3cret\n");
    ServiceSettings s = ServiceSettings.parse(List.of("--flink-rest-url", "http://jm-a:8081/",
        "--flink-rest-token-file", token.toString(), "--flink-rest-interval", "5s"),
        Map.of("CPD_FLINK_REST_URLS", "http://ignored:8081"));
    assertThat(s.flinkRest().endpoints()).extracting(Object::toString)
        .containsExactly("http://jm-a:8081");
    assertThat(s.flinkRest().credentials().bearerToken()).isEqualTo("s3cret");
    assertThat(s.flinkRest().interval()).hasSeconds(5);
    ServiceSettings env = ServiceSettings.parse(List.of(), Map.of("CPD_FLINK_REST_URLS",
        "http://jm-a:8081, https://jm-b:8443", "CPD_FLINK_REST_BASIC_AUTH", "u:p"));
    assertThat(env.flinkRest().endpoints()).hasSize(2);
    assertThat(env.flinkRest().credentials().basicUser()).isEqualTo("u");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--flink-rest-url", "jm:8081"),
        Map.of())).hasMessageContaining("--flink-rest-url");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--flink-rest-ca-file",
        dir.resolve("missing.pem").toString()), Map.of()))
        .hasMessageContaining("--flink-rest-ca-file");
    assertThatThrownBy(() -> ServiceSettings.parse(List.of("--flink-rest-token", "a",
        "--flink-rest-token-file", token.toString()), Map.of()))
        .hasMessageContaining("--flink-rest-token");
  }
}
