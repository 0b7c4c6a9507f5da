/* shm_region.c -- create, attach, verify and remove the POSIX shared-memory region of
 * shm_layout.h. Only the sim creates (and finally unlinks) the region; netgw and
 * monitorgw attach to it and refuse, in one line, a region they do not understand.
 * Never logs: every failure is one line in the caller's err buffer, naming the syscall. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "params.h"
#include "shm.h"

/* Format one error line into err (if the caller gave a buffer). */
static void region_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Report a failed syscall on the object name: `shm_open("/x") failed: <strerror>`. */
static void region_syserr(char *err, size_t errlen, const char *call, const char *name, int e)
{
    region_err(err, errlen, "%s(\"%s\") failed: %s", call, name, strerror(e));
}

void shm_default_name(int port, char *buf, size_t len)
{
    if (buf != NULL && len > 0)
        snprintf(buf, len, "/rcssserver-%d", port);
}

/* A portable POSIX shm name is "/" followed by at least one character and no further
 * slash; it must also fit hdr.name. Names come from the configuration, so check. */
static int region_name_ok(const char *name, char *err, size_t errlen)
{
    size_t n;

    if (name == NULL) {
        region_err(err, errlen, "shm name missing");
        return -1;
    }
    n = strlen(name);
    if (n < 2 || n >= SHM_NAME_LEN || name[0] != '/' || strchr(name + 1, '/') != NULL) {
        region_err(err, errlen, "shm name \"%.*s\" invalid", SHM_NAME_LEN, name);
        return -1;
    }
    return 0;
}

/* Process-shared robust mutex for the client table: if a gateway dies holding it, the
 * next locker gets EOWNERDEAD instead of hanging forever (see shm_table_lock). */
static int region_init_lock(pthread_mutex_t *m)
{
    pthread_mutexattr_t a;
    int rc;

    rc = pthread_mutexattr_init(&a);
    if (rc != 0)
        return rc;
    rc = pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    if (rc == 0)
        rc = pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    if (rc == 0)
        rc = pthread_mutex_init(m, &a);
    pthread_mutexattr_destroy(&a);
    return rc;
}

/* The semaphores that live in the region, in one list so init and destroy agree. */
static int region_sems(shm_region_sh_t *r, sem_t **out)
{
    int n = 0;

    out[n++] = &r->hdr.done_sem;
    for (int i = 0; i < SHM_MAX_GATEWAYS; i++)
        out[n++] = &r->netgw[i].cycle_sem;
    out[n++] = &r->monitorgw.cycle_sem;
    out[n++] = &r->recorder.cycle_sem;
    return n;
}

#define REGION_NSEMS (SHM_MAX_GATEWAYS + 3)

/* A random, non-zero id for this run of the sim (the gateways it spawns are told it). */
static uint64_t region_instance_id(void)
{
    uint64_t id = 0;
    if (getrandom(&id, sizeof id, 0) != (ssize_t)sizeof id)
        id = (uint64_t)shm_now_ns() ^ ((uint64_t)getpid() << 40);
    return id ? id : 1;
}

/* Fill the header and initialise every process-shared object of a zeroed region.
 * On failure, objects already initialised are destroyed again. */
static int region_init(shm_region_sh_t *r, const char *name, char *err, size_t errlen)
{
    sem_t *sems[REGION_NSEMS];
    int n = region_sems(r, sems);
    int rc;

    /* plain stores are enough: no other process can map the object until create
     * returns and the sim starts the gateways (fork/exec orders everything before) */
    r->hdr.magic = SHM_MAGIC;
    r->hdr.layout_version = SHM_LAYOUT_VERSION;
    r->hdr.region_size = sizeof(shm_region_sh_t);
    r->hdr.header_size = sizeof(shm_header_sh_t);
    r->hdr.params_hash = param_table_hash();
    r->hdr.sim_pid = (int32_t)getpid();
    r->hdr.sim_start = shm_pid_start(getpid());
    r->hdr.instance_id = region_instance_id();
    snprintf(r->hdr.name, sizeof r->hdr.name, "%s", name);

    /* pshared = 1: the semaphores live in the shared mapping and are posted by one
     * process and waited on by another; value 0: nothing published yet */
    for (int i = 0; i < n; i++) {
        if (sem_init(sems[i], 1, 0) != 0) {
            int e = errno;
            while (--i >= 0)
                sem_destroy(sems[i]);
            region_syserr(err, errlen, "sem_init", name, e);
            return -1;
        }
    }
    rc = region_init_lock(&r->hdr.table_lock);
    if (rc != 0) {
        for (int i = 0; i < n; i++)
            sem_destroy(sems[i]);
        region_syserr(err, errlen, "pthread_mutex_init", name, rc);
        return -1;
    }
    atomic_store_explicit(&r->hdr.table_lock_owner, 0, memory_order_relaxed);
    return 0;
}

/* Create the region: an object left under this name by a dead sim of our user is
 * removed first (another user's, or a live sim's, is refused), then a fresh one is made
 * exclusively (O_EXCL), sized, mapped, zeroed and initialised. The caller holds the
 * name's instance lock. Returns 0 with h filled (owner = 1; reclaimed_pid says whether a
 * stale region was replaced), or -1 / SHM_CONFLICT with one line in err. */
int shm_region_create(shm_handle_t *h, const char *name, char *err, size_t errlen)
{
    const size_t size = sizeof(shm_region_sh_t);
    struct stat st;
    pid_t stale = 0;
    void *p;
    int fd, rc;

    memset(h, 0, sizeof *h);
    if (region_name_ok(name, err, errlen) != 0)
        return -1;
    rc = shm_region_check_existing(name, &stale, err, errlen);
    if (rc < 0)
        return rc;
    if (rc == 1 && shm_unlink(name) != 0 && errno != ENOENT) {
        region_syserr(err, errlen, "shm_unlink", name, errno);
        return SHM_CONFLICT;
    }
    /* O_EXCL: if someone made the name again between unlink and open, fail rather than
     * use an object we did not create. 0600: only processes of our user may attach
     * (the umask cannot widen it; fchmod below states it again). */
    fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        int e = errno;
        region_syserr(err, errlen, "shm_open", name, e);
        return e == EEXIST ? SHM_CONFLICT : -1;
    }
    if (fchmod(fd, 0600) != 0 || fstat(fd, &st) != 0) {
        region_syserr(err, errlen, "fchmod", name, errno);
        close(fd);
        shm_unlink(name);
        return -1;
    }
    h->dev = st.st_dev;
    h->ino = st.st_ino;
    h->reclaimed_pid = rc == 1 ? stale : 0;
    if (ftruncate(fd, (off_t)size) != 0) {
        region_syserr(err, errlen, "ftruncate", name, errno);
        close(fd);
        shm_unlink(name);
        return -1;
    }
    p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        region_syserr(err, errlen, "mmap", name, errno);
        close(fd);
        shm_unlink(name);
        return -1;
    }
    close(fd); /* the mapping keeps the object alive */
    /* a fresh object (O_EXCL) reads as zeros: every counter, ring index and state
     * starts at 0. No memset: pages nobody touches (the slots of gateways that do not
     * run, an unused monitor table) then cost no memory at all (issue 14: the region is
     * 4.9 MB, a match touches about a fifth of it) */
    if (region_init(p, name, err, errlen) != 0) {
        munmap(p, size);
        shm_unlink(name);
        return -1;
    }
    h->r = p;
    h->size = size;
    h->owner = 1;
    snprintf(h->name, sizeof h->name, "%s", name);
    return 0;
}

/* Check a mapped header before trusting anything else in it. The order matters: the
 * size of the mapping first (to read the header at all), then magic and version (whose
 * offsets never move), then the size the writer recorded and the parameter table.
 * Returns 0, or -1 with exactly one line in err. */
int shm_region_verify(const shm_region_sh_t *r, size_t mapped, const char *name,
                      char *err, size_t errlen)
{
    const shm_header_sh_t *hd;
    uint32_t hash;

    if (name == NULL)
        name = "?";
    if (r == NULL || mapped < sizeof(shm_header_sh_t)) {
        region_err(err, errlen, "shm %s: region size %llu, expected %zu", name,
                   (unsigned long long)mapped, sizeof(shm_region_sh_t));
        return -1;
    }
    hd = &r->hdr;
    if (hd->magic != SHM_MAGIC) {
        region_err(err, errlen, "shm %s: bad magic 0x%08x", name, (unsigned)hd->magic);
        return -1;
    }
    if (hd->layout_version != SHM_LAYOUT_VERSION) {
        region_err(err, errlen, "shm %s: layout version %u, expected %u", name,
                   (unsigned)hd->layout_version, (unsigned)SHM_LAYOUT_VERSION);
        return -1;
    }
    if (hd->region_size != sizeof(shm_region_sh_t) || mapped != sizeof(shm_region_sh_t)) {
        unsigned long long got = hd->region_size != sizeof(shm_region_sh_t)
                                 ? (unsigned long long)hd->region_size
                                 : (unsigned long long)mapped;
        region_err(err, errlen, "shm %s: region size %llu, expected %zu", name, got,
                   sizeof(shm_region_sh_t));
        return -1;
    }
    hash = param_table_hash();
    if (hd->params_hash != hash) {
        region_err(err, errlen, "shm %s: parameter table differs (hash 0x%08x, expected 0x%08x)",
                   name, (unsigned)hd->params_hash, (unsigned)hash);
        return -1;
    }
    return 0;
}

/* Map an existing region read-write (gateways fill command rings and the client table)
 * and verify it. Returns 0 with h filled (owner = 0), or -1 with one line in err and
 * nothing left open or mapped. */
int shm_region_attach(shm_handle_t *h, const char *name, char *err, size_t errlen)
{
    struct stat st;
    size_t size;
    void *p;
    int fd;

    memset(h, 0, sizeof *h);
    if (region_name_ok(name, err, errlen) != 0)
        return -1;
    /* read-write: gateways fill command rings, client entries and their proc slot */
    fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        region_syserr(err, errlen, "shm_open", name, errno);
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        region_syserr(err, errlen, "fstat", name, errno);
        close(fd);
        return -1;
    }
    /* only a region made by our own user's sim, readable by nobody else: an object
     * another user created under the name is not the server's */
    int own = shm_owner_ok(fd, name, err, errlen);
    if (own != 0) {
        close(fd);
        return own;
    }
    if (st.st_size < (off_t)sizeof(shm_header_sh_t)) {
        close(fd);
        return shm_region_verify(NULL, (size_t)(st.st_size < 0 ? 0 : st.st_size), name,
                                 err, errlen);
    }
    /* map what is there, not what we expect: verify then compares the two sizes, so a
     * region from a build with another layout is refused instead of half-mapped */
    size = (size_t)st.st_size;
    p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        region_syserr(err, errlen, "mmap", name, errno);
        close(fd);
        return -1;
    }
    close(fd);
    if (shm_region_verify(p, size, name, err, errlen) != 0) {
        munmap(p, size);
        return -1;
    }
    h->r = p;
    h->size = size;
    h->owner = 0;
    h->dev = st.st_dev;
    h->ino = st.st_ino;
    snprintf(h->name, sizeof h->name, "%s", name);
    return 0;
}

/* Unmap; the region itself stays for the other processes. Safe on an empty handle. */
void shm_region_detach(shm_handle_t *h)
{
    if (h == NULL || h->r == NULL)
        return;
    munmap(h->r, h->size);
    h->r = NULL;
    h->size = 0;
}

/* Owner (sim): destroy the semaphores and the lock, unmap and remove the name. Every
 * other process must have stopped using the region (sem_destroy on a semaphore someone
 * waits on is undefined). A non-owner handle is only detached. */
void shm_region_destroy(shm_handle_t *h)
{
    sem_t *sems[REGION_NSEMS];
    int n;

    if (h == NULL || h->r == NULL)
        return;
    if (h->owner) {
        n = region_sems(h->r, sems);
        for (int i = 0; i < n; i++)
            sem_destroy(sems[i]);
        pthread_mutex_destroy(&h->r->hdr.table_lock);
    }
    shm_region_detach(h);
    if (h->owner) {
        shm_unlink(h->name);
        h->owner = 0;
    }
}
