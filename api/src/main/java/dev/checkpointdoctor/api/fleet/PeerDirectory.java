package dev.checkpointdoctor.api.fleet;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The other instances: those named with {@code --peer}, and every address that the
 * {@code --peers-dns} name resolves to (a headless Service has one per pod), re-resolved by
 * {@link #refresh()}. An address this instance listens on, with its own port, is this instance
 * and left out (bound to every address: any address of this machine); a named peer that turns
 * out to be this instance is recognised by its answer's id.
 */
public final class PeerDirectory {
  private static final Logger logger = Logger.getLogger(PeerDirectory.class.getName());

  /** Resolves a name to all its addresses (A and AAAA). */
  @FunctionalInterface
  public interface Resolver {
    InetAddress[] resolve(String name) throws UnknownHostException;
  }

  /** Tells whether an address belongs to this machine. */
  @FunctionalInterface
  public interface LocalAddresses {
    boolean isLocal(InetAddress address);
  }

  private final FleetSettings settings;
  private final String scheme;
  private final Resolver resolver;
  private final LocalAddresses local;
  private volatile String ownHost = "0.0.0.0";
  private volatile int ownPort;
  private volatile List<URI> discovered = List.of();
  private volatile String discoveryError;

  public PeerDirectory(FleetSettings settings, String scheme, Resolver resolver,
      LocalAddresses local) {
    this.settings = settings;
    this.scheme = scheme;
    this.resolver = resolver;
    this.local = local;
  }

  /** With the system's resolver and this machine's network interfaces. */
  public static PeerDirectory system(FleetSettings settings, String scheme) {
    return new PeerDirectory(settings, scheme, InetAddress::getAllByName,
        PeerDirectory::isLocalAddress);
  }

  /** Where this instance listens (the port is known once it listens). */
  public void listensOn(String host, int port) {
    this.ownHost = host;
    this.ownPort = port;
  }

  private boolean isSelf(InetAddress a) {
    if (settings.peersDnsPort() != ownPort) {
      return false;
    }
    String h = ownHost;
    if (h == null || h.isBlank() || h.equals("0.0.0.0") || h.equals("::")) {
      return local.isLocal(a);
    }
    try {
      for (InetAddress own : resolver.resolve(h)) {
        if (own.equals(a)) {
          return true;
        }
      }
    } catch (UnknownHostException e) {
      return false;
    }
    return false;
  }

  /** The peers to ask now: the named ones, then the discovered ones, each once. */
  public List<URI> peers() {
    Set<URI> all = new LinkedHashSet<>(settings.peers());
    all.addAll(discovered);
    return new ArrayList<>(all);
  }

  /** Why the last DNS resolution failed, or null. */
  public String discoveryError() {
    return discoveryError;
  }

  public String dnsName() {
    return settings.peersDnsName();
  }

  /** Resolves the DNS name again (blocking: call it off the event loop). */
  public void refresh() {
    if (settings.peersDnsName() == null) {
      return;
    }
    try {
      InetAddress[] addresses = resolver.resolve(settings.peersDnsName());
      List<URI> found = new ArrayList<>();
      for (InetAddress a : addresses) {
        if (isSelf(a)) {
          continue;
        }
        String host = a.getHostAddress();
        if (host.indexOf(':') >= 0) {
          int zone = host.indexOf('%');
          host = "[" + (zone >= 0 ? host.substring(0, zone) : host) + "]";
        }
        found.add(URI.create(scheme + "://" + host + ":" + settings.peersDnsPort()));
      }
      if (discoveryError != null) {
        logger.info(settings.peersDnsName() + " resolves again: " + found.size() + " peers");
      }
      discovered = List.copyOf(found);
      discoveryError = null;
    } catch (UnknownHostException | RuntimeException e) {
      if (discoveryError == null) {
        logger.warning("cannot resolve --peers-dns " + settings.peersDnsName() + " (" + e
            + "); keeping the " + discovered.size() + " peers found before");
      }
      discoveryError = "cannot resolve " + settings.peersDnsName() + ": " + e.getMessage();
    }
  }

  static boolean isLocalAddress(InetAddress a) {
    if (a.isAnyLocalAddress() || a.isLoopbackAddress()) {
      return true;
    }
    try {
      return NetworkInterface.getByInetAddress(a) != null;
    } catch (SocketException e) {
      return false;
    }
  }
}
