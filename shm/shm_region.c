/* shm_region.c -- create, attach, verify and remove the POSIX shared-memory region of
 * shm_layout.h. Only the sim creates (and finally unlinks) the region; netgw and
 * monitorgw attach to it and refuse, in one line, a region they do not understand.
 * The mechanics (exclusive create, attach, header checks, semaphores) are shm_map.c's.
 * Never logs: every failure is one line in the caller's err buffer, naming the syscall. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "params.h"
#include "shm.h"

void shm_default_name(int port, char *buf, size_t len)
{
    if (buf != NULL && len > 0)
        snprintf(buf, len, "/rcssserver-%d", port);
}

/* What attach expects of a header (shm_map_verify). */
static shm_expect_t region_expect(void)
{
    return (shm_expect_t){ SHM_MAGIC, SHM_LAYOUT_VERSION, param_table_hash(),
                           sizeof(shm_region_sh_t), sizeof(shm_header_sh_t), "" };
}

_Static_assert(offsetof(shm_header_sh_t, region_size) == offsetof(shm_head_t, region_size)
               && offsetof(shm_header_sh_t, params_hash) == offsetof(shm_head_t, params_hash),
               "the header starts as every region's does");

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

    if (shm_sems_init(sems, n, name, err, errlen) != 0)
        return -1;
    rc = region_init_lock(&r->hdr.table_lock);
    if (rc != 0) {
        shm_sems_destroy(sems, n);
        snprintf(err, errlen, "pthread_mutex_init(\"%s\") failed: %s", name, strerror(rc));
        return -1;
    }
    atomic_store_explicit(&r->hdr.table_lock_owner, 0, memory_order_relaxed);
    return 0;
}

/* Create the region: an object left under this name by a dead sim of our user is
 * removed first (another user's, or a live sim's, is refused), then a fresh one is made
 * exclusively (shm_map_create), initialised. The caller holds the name's instance lock.
 * Returns 0 with h filled (owner = 1; reclaimed_pid says whether a stale region was
 * replaced), or -1 / SHM_CONFLICT with one line in err. */
int shm_region_create(shm_handle_t *h, const char *name, char *err, size_t errlen)
{
    const size_t size = sizeof(shm_region_sh_t);
    struct stat st;
    pid_t stale = 0;
    void *p;
    int rc;

    memset(h, 0, sizeof *h);
    if (shm_map_name_ok(name, SHM_NAME_LEN, err, errlen) != 0)
        return -1;
    rc = shm_region_check_existing(name, &stale, err, errlen);
    if (rc < 0)
        return rc;
    if (rc == 1 && shm_unlink(name) != 0 && errno != ENOENT) {
        snprintf(err, errlen, "shm_unlink(\"%s\") failed: %s", name, strerror(errno));
        return SHM_CONFLICT;
    }
    int made = shm_map_create(name, size, &p, &st, err, errlen);
    if (made != 0)
        return made;
    if (region_init(p, name, err, errlen) != 0) {
        munmap(p, size);
        shm_unlink(name);
        return -1;
    }
    h->dev = st.st_dev;
    h->ino = st.st_ino;
    h->reclaimed_pid = rc == 1 ? stale : 0;
    h->r = p;
    h->size = size;
    h->owner = 1;
    snprintf(h->name, sizeof h->name, "%s", name);
    return 0;
}

/* Check a mapped header before trusting anything else in it (shm_map_verify: size of
 * the mapping, magic, version, recorded size, parameter table). Returns 0, or -1 with
 * exactly one line in err. */
int shm_region_verify(const shm_region_sh_t *r, size_t mapped, const char *name,
                      char *err, size_t errlen)
{
    shm_expect_t want = region_expect();
    return shm_map_verify(r, mapped, name, &want, err, errlen);
}

/* Map an existing region read-write (shm_map_attach: our user's object only) and verify
 * it. Returns 0 with h filled (owner = 0), or -1 / SHM_CONFLICT with one line in err and
 * nothing left open or mapped. */
int shm_region_attach(shm_handle_t *h, const char *name, char *err, size_t errlen)
{
    struct stat st;
    size_t size;
    void *p;

    memset(h, 0, sizeof *h);
    if (shm_map_name_ok(name, SHM_NAME_LEN, err, errlen) != 0)
        return -1;
    int rc = shm_map_attach(name, sizeof(shm_header_sh_t), &p, &size, &st, err, errlen);
    if (rc != 0)
        return rc;
    if (shm_region_verify(p, size, name, err, errlen) != 0) {
        if (p)
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
        shm_sems_destroy(sems, n);
        pthread_mutex_destroy(&h->r->hdr.table_lock);
    }
    shm_region_detach(h);
    if (h->owner) {
        shm_unlink(h->name);
        h->owner = 0;
    }
}
