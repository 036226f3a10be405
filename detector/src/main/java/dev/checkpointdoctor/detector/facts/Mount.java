package dev.checkpointdoctor.detector.facts;

import java.util.Locale;
import java.util.Set;

/**
 * A file system mounted on a node, as node_exporter's {@code node_filesystem_*} series label it.
 *
 * @param node the node key the detector joins node series by ({@code node}/{@code nodename}
 *     label, else the host part of {@code instance})
 */
public record Mount(String node, String mountpoint, String fstype, String device) {
  /** File systems whose every read and write crosses the network. */
  private static final Set<String> NETWORK = Set.of("nfs", "nfs4", "cifs", "smb3", "smbfs",
      "ceph", "glusterfs", "lustre", "9p", "afs", "beegfs", "gpfs", "ocfs2", "davfs");

  /** NFS, CIFS/SMB, FUSE (s3fs, gcsfuse, sshfs, …) and the other network file systems. */
  public boolean network() {
    String t = fstype == null ? "" : fstype.toLowerCase(Locale.ROOT);
    return NETWORK.contains(t) || t.equals("fuse") || t.startsWith("fuse.");
  }

  /** Whether {@code path} lies on this mount (at or below its mount point). */
  public boolean holds(String path) {
    if (path == null || mountpoint == null) {
      return false;
    }
    if (mountpoint.equals("/")) {
      return path.startsWith("/");
    }
    return path.equals(mountpoint) || path.startsWith(mountpoint + "/");
  }
}
