package dev.checkpointdoctor.api.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.shard.ShardSpec;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PeerDirectoryTest {
  static InetAddress ip(String s) throws UnknownHostException {
    return InetAddress.getByName(s);
  }

  static FleetSettings dns(List<URI> named) {
    return new FleetSettings(ShardSpec.unsharded(), named, "cpd.monitoring.svc", 9877,
        Duration.ofSeconds(2));
  }

  @Test
  void everyResolvedAddressIsAPeerButThisInstance() throws Exception {
    AtomicReference<InetAddress[]> answer = new AtomicReference<>(new InetAddress[] {
        ip("10.0.0.5"), ip("10.0.0.6"), ip("fd00::7")});
    PeerDirectory d = new PeerDirectory(dns(List.of(URI.create("http://named:9877"))), "http",
        name -> answer.get(), a -> a.getHostAddress().equals("10.0.0.6"));
    d.listensOn("0.0.0.0", 9877);
    d.refresh();
    assertThat(d.peers()).containsExactly(URI.create("http://named:9877"),
        URI.create("http://10.0.0.5:9877"), URI.create("http://[fd00:0:0:0:0:0:0:7]:9877"));
    assertThat(d.discoveryError()).isNull();

    // A pod went away, another came.
    answer.set(new InetAddress[] {ip("10.0.0.6"), ip("10.0.0.8")});
    d.refresh();
    assertThat(d.peers()).containsExactly(URI.create("http://named:9877"),
        URI.create("http://10.0.0.8:9877"));
  }

  @Test
  void onAnotherPortTheSameMachineIsAnotherInstance() throws Exception {
    PeerDirectory d = new PeerDirectory(dns(List.of()), "https",
        name -> new InetAddress[] {ip("10.0.0.6")}, a -> true);
    d.listensOn("0.0.0.0", 9999);
    d.refresh();
    assertThat(d.peers()).containsExactly(URI.create("https://10.0.0.6:9877"));
  }

  @Test
  void boundToOneAddressOnlyThatAddressIsThisInstance() throws Exception {
    PeerDirectory d = new PeerDirectory(dns(List.of()), "http",
        name -> name.equals("127.0.0.2") ? new InetAddress[] {ip("127.0.0.2")}
            : new InetAddress[] {ip("127.0.0.1"), ip("127.0.0.2"), ip("127.0.0.3")},
        a -> true);
    d.listensOn("127.0.0.2", 9877);
    d.refresh();
    assertThat(d.peers()).containsExactly(URI.create("http://127.0.0.1:9877"),
        URI.create("http://127.0.0.3:9877"));
  }

  @Test
  void aFailedResolutionKeepsThePeersFoundBeforeAndSaysWhy() throws Exception {
    AtomicReference<Boolean> fail = new AtomicReference<>(false);
    PeerDirectory d = new PeerDirectory(dns(List.of()), "http", name -> {
      if (fail.get()) {
        throw new UnknownHostException(name);
      }
      return new InetAddress[] {ip("10.0.0.5")};
    }, a -> false);
    d.listensOn("0.0.0.0", 9877);
    d.refresh();
    fail.set(true);
    d.refresh();
    assertThat(d.peers()).containsExactly(URI.create("http://10.0.0.5:9877"));
    assertThat(d.discoveryError()).contains("cpd.monitoring.svc");
    fail.set(false);
    d.refresh();
    assertThat(d.discoveryError()).isNull();
  }
}
