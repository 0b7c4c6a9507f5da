/* shm_guard.c -- who owns a region: instance locks, the live-sim test, the checks on an
 * object found under our name, and the clean-up a gateway does when its sim was killed.
 * Used by the sim (locks before it creates the region) and by every gateway (liveness,
 * clean-up). Never logs: failures are one line in the caller's err buffer.
 *
 * An instance lock is a unix datagram socket bound to an abstract name
 * ("\0rcssserver-lock:KEY"): binding is atomic, a second binder gets EADDRINUSE, and the
 * kernel drops the name when the holder dies however it dies (kill -9 included), so a
 * lock is never stale and needs no file. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "shm.h"

#define GUARD_LOCK_PREFIX "rcssserver-lock:"

/* the abstract address of a lock key; its length in *len */
static void guard_lock_addr(const char *key, struct sockaddr_un *a, socklen_t *len)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    /* sun_path[0] stays 0: the abstract namespace */
    int n = snprintf(a->sun_path + 1, sizeof a->sun_path - 1, "%s%s", GUARD_LOCK_PREFIX, key);
    if (n < 0 || (size_t)n >= sizeof a->sun_path - 1)
        n = (int)sizeof a->sun_path - 2;
    *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

int shm_lock_take(const char *key)
{
    struct sockaddr_un a;
    socklen_t len;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    guard_lock_addr(key, &a, &len);
    if (bind(fd, (struct sockaddr *)&a, len) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int shm_lock_take_wait(const char *key, int wait_ms)
{
    for (int waited = 0;; waited += 5) {
        int fd = shm_lock_take(key);
        if (fd >= 0 || errno != EADDRINUSE || waited >= wait_ms)
            return fd;
        /* a gateway of a dead sim may hold it for a moment while it cleans up */
        struct timespec ts = { 0, 5000000L };
        nanosleep(&ts, NULL);
    }
}

void shm_lock_key_region(const char *name, char *key, size_t len)
{
    snprintf(key, len, "shm:%s", name);
}


uint64_t shm_pid_start(pid_t pid)
{
    char state;
    uint64_t start;
    return proc_stat(pid, &state, &start) == 0 ? start : 0;
}

int shm_pid_running(pid_t pid, uint64_t want_start)
{
    char state;
    uint64_t start;
    if (pid <= 0)
        return 0;
    if (proc_stat(pid, &state, &start) < 0) /* no /proc entry: ask the kernel directly */
        return !(kill(pid, 0) < 0 && errno == ESRCH);
    if (state == 'Z' || state == 'X')
        return 0; /* killed, not reaped yet by its parent: it will never run again */
    /* the pid may have been reused: the start time tells the process from a newcomer */
    return want_start == 0 || start == want_start;
}

int shm_sim_alive(const shm_header_sh_t *hd)
{
    return shm_pid_running((pid_t)hd->sim_pid, hd->sim_start);
}

/* the header of an object that is already open, if it is big enough to hold one; 0 ok */
static int guard_peek_header(int fd, off_t size, shm_header_sh_t *out)
{
    if (size < (off_t)sizeof(shm_header_sh_t))
        return -1;
    void *p = mmap(NULL, sizeof(shm_header_sh_t), PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return -1;
    memcpy(out, p, sizeof *out);
    munmap(p, sizeof(shm_header_sh_t));
    return 0;
}

int shm_region_check_existing(const char *name, pid_t *stale_pid, char *err, size_t errlen)
{
    struct stat st;
    shm_header_sh_t hd;
    *stale_pid = 0;
    int fd = shm_open(name, O_RDONLY, 0);
    if (fd < 0)
        return errno == ENOENT ? 0 : (snprintf(err, errlen, "shm_open(\"%s\") failed: %s",
                                               name, strerror(errno)), -1);
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "fstat(\"%s\") failed: %s", name, strerror(errno));
        close(fd);
        return -1;
    }
    if (st.st_uid != geteuid()) {
        close(fd);
        snprintf(err, errlen, "shm %s exists and belongs to uid %u, not to us: refusing "
                 "to use it (remove it, or choose another server::shm_name)", name,
                 (unsigned)st.st_uid);
        return SHM_CONFLICT;
    }
    int have = guard_peek_header(fd, st.st_size, &hd) == 0 && hd.magic == SHM_MAGIC;
    close(fd);
    if (have && hd.layout_version == SHM_LAYOUT_VERSION) {
        if (atomic_load(&hd.shutdown) == 0 && shm_sim_alive(&hd)) {
            snprintf(err, errlen, "shm %s is in use by a running server (pid %d)", name,
                     (int)hd.sim_pid);
            return SHM_CONFLICT;
        }
    }
    *stale_pid = have ? (pid_t)hd.sim_pid : -1;
    return 1;
}

int shm_owner_ok(int fd, const char *name, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "fstat(\"%s\") failed: %s", name, strerror(errno));
        return -1;
    }
    if (st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
        snprintf(err, errlen, "shm %s belongs to uid %u with mode %03o: not a region of "
                 "this user's server, refusing it", name, (unsigned)st.st_uid,
                 (unsigned)(st.st_mode & 0777));
        return SHM_CONFLICT;
    }
    return 0;
}

/* 1 if the name still names the object h mapped */
static int guard_same_object(const shm_handle_t *h)
{
    struct stat st;
    int fd = shm_open(h->name, O_RDONLY, 0);
    if (fd < 0)
        return 0;
    int same = fstat(fd, &st) == 0 && st.st_dev == h->dev && st.st_ino == h->ino;
    close(fd);
    return same;
}

/* The sim's process as a pidfd (one per gateway process): it becomes readable when the
 * process ends, so a look costs one poll() instead of reading /proc/PID/stat. Opened
 * for the header's pid and start time, checked against /proc once after opening (a pid
 * used again by another process before the open is not taken for the sim). */
static struct {
    int      fd;
    pid_t    pid;
    uint64_t start;
} sim_fd = { -1, 0, 0 };

static void sim_forget(void)
{
    if (sim_fd.fd >= 0)
        close(sim_fd.fd);
    sim_fd.fd = -1;
}

int shm_sim_running(const shm_header_sh_t *hd)
{
    pid_t pid = (pid_t)hd->sim_pid;
    if (sim_fd.fd < 0 || sim_fd.pid != pid || sim_fd.start != hd->sim_start) {
        sim_forget();
        int fd = pid > 0 ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;
        if (fd < 0)
            return shm_sim_alive(hd); /* no pidfd here: /proc each time */
        if (!shm_sim_alive(hd)) {
            close(fd);
            return 0;
        }
        sim_fd.fd = fd;
        sim_fd.pid = pid;
        sim_fd.start = hd->sim_start;
    }
    struct pollfd p = { .fd = sim_fd.fd, .events = POLLIN };
    int n = poll(&p, 1, 0);
    return n == 0 || (n < 0 && shm_sim_alive(hd));
}

int shm_gateway_leave(shm_handle_t *h)
{
    int removed = 0;
    if (h == NULL || h->r == NULL)
        return 0;
    /* a spawned gateway whose parent changed: the kernel reparents it before the death
     * signal, while the dying sim may still look alive in /proc */
    int orphaned = h->sim_parent && getppid() != (pid_t)h->r->hdr.sim_pid
                   && h->r->hdr.resume_wait_ms == 0; /* with resume: a new sim's child's */
    if (atomic_load(&h->r->hdr.shutdown) == 0 && (orphaned || !shm_sim_alive(&h->r->hdr))) {
        /* the sim was killed: nobody else will remove its region. Only under the name's
         * lock (no new sim is creating one meanwhile) and only our own object. */
        char key[SHM_NAME_LEN + 8];
        shm_lock_key_region(h->name, key, sizeof key);
        int lock = shm_lock_take(key);
        if (lock >= 0) {
            if (guard_same_object(h) && shm_unlink(h->name) == 0)
                removed = 1;
            close(lock);
        }
    }
    sim_forget();
    shm_region_detach(h);
    return removed;
}
