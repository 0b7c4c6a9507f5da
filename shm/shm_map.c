/* shm_map.c -- the POSIX shm mechanics of any region layout: a checked object name, an
 * object created exclusively (mode 0600, sized, mapped; it reads as zeros), an existing
 * one mapped read-write at the size it has (only if it is our user's and nobody else
 * may read it), the one-line checks of the header every layout starts with, and the
 * region's list of semaphores. The layouts' own files (shm_region.c, shm3d_region.c)
 * say what goes in.
 * Never logs: every failure is one line in the caller's err buffer, naming the syscall. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shm.h"

/* Format one error line into err (if the caller gave a buffer). */
static void map_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void map_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Report a failed syscall on the object name: `shm_open("/x") failed: <strerror>`. */
static void map_syserr(char *err, size_t errlen, const char *call, const char *name, int e)
{
    map_err(err, errlen, "%s(\"%s\") failed: %s", call, name, strerror(e));
}

/* A portable POSIX shm name is "/" followed by at least one character and no further
 * slash; it must also fit the header's name field (maxlen with its NUL). Names come from
 * the configuration, so check. */
int shm_map_name_ok(const char *name, size_t maxlen, char *err, size_t errlen)
{
    size_t n;

    if (name == NULL) {
        map_err(err, errlen, "shm name missing");
        return -1;
    }
    n = strlen(name);
    if (n < 2 || n >= maxlen || name[0] != '/' || strchr(name + 1, '/') != NULL) {
        map_err(err, errlen, "shm name \"%.*s\" invalid", (int)maxlen, name);
        return -1;
    }
    return 0;
}

/* Create the object exclusively (O_EXCL: if someone made the name since the caller
 * cleared it, fail rather than use an object we did not create), mode 0600 (only
 * processes of our user may attach; the umask cannot widen it, fchmod states it again),
 * size it and map it (it reads as zeros). Returns 0 with *p and st (the object: device
 * and inode), or -1 / SHM_CONFLICT (the name exists) with one line in err and nothing
 * left behind. */
int shm_map_create(const char *name, size_t size, void **p, struct stat *st, char *err,
                   size_t errlen)
{
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);

    *p = NULL;
    if (fd < 0) {
        int e = errno;
        map_syserr(err, errlen, "shm_open", name, e);
        return e == EEXIST ? SHM_CONFLICT : -1;
    }
    if (fchmod(fd, 0600) != 0 || fstat(fd, st) != 0) {
        map_syserr(err, errlen, "fchmod", name, errno);
        goto fail;
    }
    if (ftruncate(fd, (off_t)size) != 0) {
        map_syserr(err, errlen, "ftruncate", name, errno);
        goto fail;
    }
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        map_syserr(err, errlen, "mmap", name, errno);
        goto fail;
    }
    close(fd); /* the mapping keeps the object alive */
    /* a fresh object (O_EXCL) reads as zeros: every counter, ring index and state
     * starts at 0. No memset: pages nobody touches (the slots of gateways that do not
     * run, an unused monitor table) then cost no memory at all (issue 14: the 2D region
     * is 4.9 MB, a match touches about a fifth of it) */
    *p = m;
    return 0;
fail:
    close(fd);
    shm_unlink(name);
    return -1;
}

/* Map an existing object read-write (gateways fill command rings, tables and their
 * process slot) at the size it has: the layout's verify then compares the sizes, so a
 * region from a build with another layout is refused instead of half-mapped. Only an
 * object of our own user that nobody else may read is taken (shm_owner_ok). Returns 0
 * with *p, *size and st; *p is NULL (nothing mapped) when the object is smaller than
 * min, a header: the caller's verify of (NULL, *size) reports it. -1 / SHM_CONFLICT with
 * one line in err otherwise, nothing left open or mapped. */
int shm_map_attach(const char *name, size_t min, void **p, size_t *size, struct stat *st,
                   char *err, size_t errlen)
{
    int fd = shm_open(name, O_RDWR, 0);

    *p = NULL;
    *size = 0;
    if (fd < 0) {
        map_syserr(err, errlen, "shm_open", name, errno);
        return -1;
    }
    if (fstat(fd, st) != 0) {
        map_syserr(err, errlen, "fstat", name, errno);
        close(fd);
        return -1;
    }
    int own = shm_owner_ok(fd, name, err, errlen);
    if (own != 0) {
        close(fd);
        return own;
    }
    *size = (size_t)(st->st_size < 0 ? 0 : st->st_size);
    if (*size < min) {
        close(fd);
        return 0;
    }
    void *m = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        map_syserr(err, errlen, "mmap", name, errno);
        close(fd);
        return -1;
    }
    close(fd);
    *p = m;
    return 0;
}

/* Check a mapped header before trusting anything else in it. The order matters: the
 * size of the mapping first (to read the header at all), then magic and version (whose
 * offsets never move), then the size the writer recorded and the parameter table.
 * Returns 0, or -1 with exactly one line in err. */
int shm_map_verify(const void *base, size_t mapped, const char *name, const shm_expect_t *want,
                   char *err, size_t errlen)
{
    shm_head_t hd;

    if (name == NULL)
        name = "?";
    if (base == NULL || mapped < want->header_size) {
        map_err(err, errlen, "shm %s: region size %llu, expected %zu", name,
                (unsigned long long)mapped, want->region_size);
        return -1;
    }
    memcpy(&hd, base, sizeof hd);
    if (hd.magic != want->magic) {
        map_err(err, errlen, "shm %s: bad magic 0x%08x%s", name, (unsigned)hd.magic,
                want->magic_note);
        return -1;
    }
    if (hd.layout_version != want->version) {
        map_err(err, errlen, "shm %s: layout version %u, expected %u", name,
                (unsigned)hd.layout_version, (unsigned)want->version);
        return -1;
    }
    if (hd.region_size != want->region_size || mapped != want->region_size) {
        unsigned long long got = hd.region_size != want->region_size
                                 ? (unsigned long long)hd.region_size
                                 : (unsigned long long)mapped;
        map_err(err, errlen, "shm %s: region size %llu, expected %zu", name, got,
                want->region_size);
        return -1;
    }
    if (hd.params_hash != want->params_hash) {
        map_err(err, errlen, "shm %s: parameter table differs (hash 0x%08x, expected 0x%08x)",
                name, (unsigned)hd.params_hash, (unsigned)want->params_hash);
        return -1;
    }
    return 0;
}

/* pshared = 1: the semaphores live in the shared mapping and are posted by one process
 * and waited on by another; value 0: nothing published yet. On failure those already
 * initialised are destroyed again: 0, or -1 with err. */
int shm_sems_init(sem_t **sems, int n, const char *name, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        if (sem_init(sems[i], 1, 0) != 0) {
            int e = errno;
            while (--i >= 0)
                sem_destroy(sems[i]);
            map_syserr(err, errlen, "sem_init", name, e);
            return -1;
        }
    }
    return 0;
}

/* Owner, at the end: nobody may wait on them any more (sem_destroy on a semaphore
 * someone waits on is undefined). */
void shm_sems_destroy(sem_t **sems, int n)
{
    for (int i = 0; i < n; i++)
        sem_destroy(sems[i]);
}
