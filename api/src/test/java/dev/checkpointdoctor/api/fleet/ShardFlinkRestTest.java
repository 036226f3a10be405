package dev.checkpointdoctor.api.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.flinkrest.RestFixtures;
import dev.checkpointdoctor.api.flinkrest.RestFixtures.Answer;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import dev.checkpointdoctor.api.shard.Hashmod;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every instance of a fleet is given the same JobManagers (--flink-rest-url); each reads the
 * checkpoint details of its own shard's jobs only, so the JobManager's load does not grow with
 * the number of shards.
 */
class ShardFlinkRestTest {
  /** The job of the recorded answers. */
  static final String JOB = "lab_checkpoint_storage_slow";

  @Test
  void eachShardReadsOnlyItsOwnJobsDetails(@TempDir Path dir) throws Exception {
    Map<String, Answer> answers = RestFixtures.load("1.20.3", "normal");
    String jobPath = "/jobs/" + RestFixtures.jobId(answers);
    int owner = (int) Hashmod.of(JOB, 2);
    List<String> ownerAsked = new CopyOnWriteArrayList<>();
    List<String> otherAsked = new CopyOnWriteArrayList<>();
    HttpServer ownersJm = jobManager(answers, ownerAsked);
    HttpServer othersJm = jobManager(answers, otherAsked);
    try (CheckpointDoctor own = TestService.start(dir.resolve("own"), "--shard", owner + "/2",
            "--flink-rest-url", url(ownersJm), "--flink-rest-interval", "1s");
        CheckpointDoctor other = TestService.start(dir.resolve("other"),
            "--shard", (1 - owner) + "/2", "--flink-rest-url", url(othersJm),
            "--flink-rest-interval", "1s")) {
      Await.until("the owning shard read the job", Duration.ofSeconds(30),
          () -> jobs(own) == 1);
      assertThat(ownerAsked).anyMatch(p -> p.startsWith(jobPath));
      Await.until("the other shard read the overview twice", Duration.ofSeconds(30),
          () -> otherAsked.stream().filter(p -> p.equals("/jobs/overview")).count() >= 2);
      assertThat(otherAsked).noneMatch(p -> p.startsWith(jobPath));
      assertThat(jobs(other)).isZero();
    } finally {
      ownersJm.stop(0);
      othersJm.stop(0);
    }
  }

  static double jobs(CheckpointDoctor s) {
    return Http.metric(Http.get(TestService.url(s, "/metrics")).body(),
        "checkpoint_doctor_flink_rest_jobs");
  }

  /** Answers as the recorded JobManager did and notes every path asked. */
  static HttpServer jobManager(Map<String, Answer> answers, List<String> asked)
      throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", ex -> {
      String path = ex.getRequestURI().getPath();
      asked.add(path);
      Answer a = answers.getOrDefault(path, new Answer(404, "{\"errors\":[\"Not found\"]}"));
      byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(a.status(), body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    server.start();
    return server;
  }

  static String url(HttpServer s) {
    return "http://127.0.0.1:" + s.getAddress().getPort();
  }
}
