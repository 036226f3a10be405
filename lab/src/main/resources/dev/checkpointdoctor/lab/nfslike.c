/*
 * nfslike: a one-file FUSE file system with NFS-like latency, for the fault lab's
 * rocksdb_slow_local_disk scenario (lab/README.md). Speaks the kernel's FUSE protocol directly
 * (<linux/fuse.h>), so it needs only a C compiler and /dev/fuse: no libfuse, no fusermount.
 * Must run as root (it mounts with mount(2)).
 *
 *   nfslike MOUNTPOINT BACKING_FILE LOG_FILE SEED
 *
 * The mount holds one file, "volume.img", whose reads and writes go to BACKING_FILE. A loop
 * device over it is the volume the job writes to; node_exporter sees that device's latency.
 *
 * Healthy (the default): every request is served at once. SIGUSR1 switches the delays on,
 * SIGUSR2 off. While on, every read, write and fsync waits before it is answered, like a busy
 * NFS server: the latency follows a regime that changes at random every 2-45 s (exponential,
 * mean 15 s: the server's other clients come and go) between 2, 6, 15, 40 and 100 ms (medians,
 * weights 15/25/30/20/10 %), each request scattered around it (log-normal, sigma 0.7), and 0.3 %
 * of requests hang 0.5-2 s more (a server hiccup). There is no ceiling: throughput is whatever
 * the latency of the moment allows, and it moves by up to 50 times between regimes. (Regimes of
 * ~3 s were tried first: averaged over 10 s the saturated volume's throughput was then flat
 * within 6 %, which is a ceiling to anyone who reads it at that scale.)
 *
 * One line a second goes to LOG_FILE: time, on/off, regime median ms, requests, bytes read,
 * bytes written, mean and max delay ms of the second. SIGTERM, or the mount going away, stops it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define FILE_NAME "volume.img"
#define FILE_NODE 2
#define MAX_WRITE (128 * 1024)
#define BUF_SIZE (MAX_WRITE + 64 * 1024)

static volatile sig_atomic_t delays_on;
static volatile sig_atomic_t stopping;
static int backing;
static FILE *statlog;
static uint64_t rng;

static const double REGIME_MS[] = {2, 6, 15, 40, 100};
static const double REGIME_WEIGHT[] = {0.15, 0.25, 0.30, 0.20, 0.10};
static double regime_ms = 15;
static double regime_until;

/* per-second statistics */
static double second_start;
static long s_ops, s_read, s_written;
static double s_delay_sum, s_delay_max;

static void on_signal(int sig) {
  if (sig == SIGUSR1) {
    delays_on = 1;
  } else if (sig == SIGUSR2) {
    delays_on = 0;
  } else {
    stopping = 1;
  }
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double uniform(void) { /* xorshift64*, (0, 1) */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return ((rng * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0) + 1e-12;
}

static double normal(void) { /* Box-Muller */
  return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* The delay of one request, in seconds; 0 while healthy. */
static double next_delay(void) {
  if (!delays_on) {
    return 0;
  }
  double t = now_s();
  if (t >= regime_until) {
    double u = uniform(), acc = 0;
    for (int i = 0; i < 5; i++) {
      acc += REGIME_WEIGHT[i];
      if (u <= acc || i == 4) {
        regime_ms = REGIME_MS[i];
        break;
      }
    }
    double len = -15.0 * log(uniform());
    regime_until = t + (len < 2 ? 2 : len > 45 ? 45 : len);
  }
  double d = regime_ms / 1000 * exp(0.7 * normal());
  if (uniform() < 0.003) {
    d += 0.5 + 1.5 * uniform();
  }
  return d;
}

static void sleep_s(double d) {
  struct timespec ts = {(time_t) d, (long) ((d - (time_t) d) * 1e9)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !stopping) {
  }
}

static void account(long read, long written, double delay) {
  double t = now_s();
  if (t - second_start >= 1) {
    if (statlog) {
      struct timespec wall;
      clock_gettime(CLOCK_REALTIME, &wall);
      fprintf(statlog, "%ld.%03ld %s %.0f %ld %ld %ld %.1f %.1f\n", (long) wall.tv_sec,
          wall.tv_nsec / 1000000, delays_on ? "on" : "off", delays_on ? regime_ms : 0.0, s_ops,
          s_read, s_written, s_ops ? s_delay_sum / s_ops * 1000 : 0.0, s_delay_max * 1000);
      fflush(statlog);
    }
    second_start = t;
    s_ops = s_read = s_written = 0;
    s_delay_sum = s_delay_max = 0;
  }
  s_ops++;
  s_read += read;
  s_written += written;
  s_delay_sum += delay;
  if (delay > s_delay_max) {
    s_delay_max = delay;
  }
}

static void reply(int fd, uint64_t unique, int error, const void *body, size_t len) {
  struct fuse_out_header h = {(uint32_t) (sizeof h + (error ? 0 : len)), error, unique};
  struct iovec iov[2] = {{&h, sizeof h}, {(void *) body, error ? 0 : len}};
  if (writev(fd, iov, body && !error ? 2 : 1) < 0 && errno != ENOENT) {
    /* ENOENT: the request was interrupted and is gone; anything else is logged */
    if (statlog) {
      fprintf(statlog, "# reply %llu: %s\n", (unsigned long long) unique, strerror(errno));
    }
  }
}

static void fill_attr(uint64_t node, struct fuse_attr *a) {
  memset(a, 0, sizeof *a);
  a->ino = node;
  a->blksize = 4096;
  if (node == FILE_NODE) {
    struct stat st;
    fstat(backing, &st);
    a->size = st.st_size;
    a->blocks = st.st_blocks;
    a->mode = S_IFREG | 0600;
    a->nlink = 1;
    a->mtime = a->ctime = a->atime = st.st_mtim.tv_sec;
  } else {
    a->mode = S_IFDIR | 0755;
    a->nlink = 2;
  }
}

static void serve(int fd, char *buf, ssize_t n) {
  struct fuse_in_header *in = (struct fuse_in_header *) buf;
  void *arg = buf + sizeof *in;
  uint64_t u = in->unique;
  (void) n;
  switch (in->opcode) {
    case FUSE_INIT: {
      struct fuse_init_in *i = arg;
      struct fuse_init_out o = {0};
      o.major = FUSE_KERNEL_VERSION;
      o.minor = i->minor < FUSE_KERNEL_MINOR_VERSION ? i->minor : FUSE_KERNEL_MINOR_VERSION;
      o.max_readahead = i->max_readahead;
      o.flags = i->flags & FUSE_BIG_WRITES;
      o.max_background = 16;
      o.congestion_threshold = 12;
      o.max_write = MAX_WRITE;
      o.time_gran = 1;
      reply(fd, u, 0, &o, sizeof o);
      break;
    }
    case FUSE_LOOKUP: {
      if (in->nodeid != FUSE_ROOT_ID || strcmp((char *) arg, FILE_NAME) != 0) {
        reply(fd, u, -ENOENT, NULL, 0);
        break;
      }
      struct fuse_entry_out e = {0};
      e.nodeid = FILE_NODE;
      e.generation = 1;
      e.entry_valid = 3600;
      e.attr_valid = 1;
      fill_attr(FILE_NODE, &e.attr);
      reply(fd, u, 0, &e, sizeof e);
      break;
    }
    case FUSE_FORGET:
    case FUSE_BATCH_FORGET:
    case FUSE_INTERRUPT:
      break; /* no reply */
    case FUSE_SETATTR: {
      struct fuse_setattr_in *s = arg;
      if ((s->valid & FATTR_SIZE) && in->nodeid == FILE_NODE && ftruncate(backing, s->size) != 0) {
        reply(fd, u, -errno, NULL, 0);
        break;
      }
    }
    /* fall through: answer with the attributes */
    case FUSE_GETATTR: {
      struct fuse_attr_out a = {0};
      a.attr_valid = 1;
      fill_attr(in->nodeid, &a.attr);
      reply(fd, u, 0, &a, sizeof a);
      break;
    }
    case FUSE_OPEN:
    case FUSE_OPENDIR: {
      struct fuse_open_out o = {0};
      reply(fd, u, 0, &o, sizeof o);
      break;
    }
    case FUSE_READ: {
      struct fuse_read_in *r = arg;
      static char data[MAX_WRITE];
      size_t len = r->size < sizeof data ? r->size : sizeof data;
      double d = next_delay();
      sleep_s(d);
      ssize_t got = pread(backing, data, len, (off_t) r->offset);
      account(got > 0 ? got : 0, 0, d);
      if (got < 0) {
        reply(fd, u, -errno, NULL, 0);
      } else {
        reply(fd, u, 0, data, (size_t) got);
      }
      break;
    }
    case FUSE_WRITE: {
      struct fuse_write_in *w = arg;
      double d = next_delay();
      sleep_s(d);
      ssize_t put = pwrite(backing, (char *) arg + sizeof *w, w->size, (off_t) w->offset);
      account(0, put > 0 ? put : 0, d);
      if (put < 0) {
        reply(fd, u, -errno, NULL, 0);
      } else {
        struct fuse_write_out o = {(uint32_t) put, 0};
        reply(fd, u, 0, &o, sizeof o);
      }
      break;
    }
    case FUSE_FSYNC: {
      /* an NFS COMMIT waits like any request; the backing file's durability does not matter */
      double d = next_delay();
      sleep_s(d);
      account(0, 0, d);
      reply(fd, u, 0, NULL, 0);
      break;
    }
    case FUSE_FLUSH:
    case FUSE_RELEASE:
    case FUSE_RELEASEDIR:
      reply(fd, u, 0, NULL, 0);
      break;
    case FUSE_READDIR: {
      struct fuse_read_in *r = arg;
      char out[256] = {0};
      size_t len = 0;
      if (r->offset == 0) {
        struct fuse_dirent *de = (struct fuse_dirent *) out;
        de->ino = FILE_NODE;
        de->off = 1;
        de->namelen = strlen(FILE_NAME);
        de->type = S_IFREG >> 12;
        memcpy(de->name, FILE_NAME, de->namelen);
        len = FUSE_DIRENT_SIZE(de);
      }
      reply(fd, u, 0, out, len < r->size ? len : 0);
      break;
    }
    case FUSE_STATFS: {
      struct fuse_statfs_out s = {0};
      s.st.bsize = s.st.frsize = 4096;
      s.st.blocks = s.st.bfree = s.st.bavail = 1 << 20;
      s.st.namelen = 255;
      reply(fd, u, 0, &s, sizeof s);
      break;
    }
    case FUSE_DESTROY:
      reply(fd, u, 0, NULL, 0);
      stopping = 1;
      break;
    default:
      reply(fd, u, -ENOSYS, NULL, 0);
  }
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s MOUNTPOINT BACKING_FILE LOG_FILE SEED\n", argv[0]);
    return 2;
  }
  rng = strtoull(argv[4], NULL, 10) * 2654435761ULL + 88172645463325252ULL;
  backing = open(argv[2], O_RDWR);
  if (backing < 0) {
    perror(argv[2]);
    return 1;
  }
  statlog = fopen(argv[3], "w");
  if (statlog) {
    fprintf(statlog, "# time on/off regime_ms requests bytes_read bytes_written mean_delay_ms "
        "max_delay_ms\n");
    fflush(statlog);
  }
  struct sigaction sa = {0};
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, NULL);
  sigaction(SIGUSR2, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  int fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    perror("/dev/fuse");
    return 1;
  }
  char opts[128];
  snprintf(opts, sizeof opts, "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other", fd);
  if (mount("nfslike", argv[1], "fuse.nfslike", MS_NOSUID | MS_NODEV, opts) != 0) {
    perror("mount");
    return 1;
  }
  printf("mounted\n");
  fflush(stdout);
  char *buf = malloc(BUF_SIZE);
  second_start = now_s();
  while (!stopping) {
    ssize_t n = read(fd, buf, BUF_SIZE);
    if (n < 0) {
      if (errno == EINTR || errno == ENOENT || errno == EAGAIN) {
        continue;
      }
      if (errno != ENODEV) { /* ENODEV: unmounted */
        perror("read /dev/fuse");
      }
      break;
    }
    serve(fd, buf, n);
  }
  return 0;
}
