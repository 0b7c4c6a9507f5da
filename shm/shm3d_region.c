/* shm3d_region.c -- create, attach, verify and remove the 3D region (shm3d_layout.h).
 * Only the sim creates and finally unlinks it; the gateways attach and refuse, in one
 * line, a region they do not understand. Never logs. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "conf3d.h"
#include "shm3d.h"

static void r3_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void r3_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void shm3d_default_name(int agent_port, char *buf, size_t len)
{
    if (buf && len)
        snprintf(buf, len, "/rcssserver3d-%d", agent_port);
}

/* "/" then at least one character, no further slash, fits hdr.name */
static int r3_name_ok(const char *name, char *err, size_t errlen)
{
    size_t n = name ? strlen(name) : 0;
    if (n < 2 || n >= SHM3D_NAME_LEN || name[0] != '/' || strchr(name + 1, '/')) {
        r3_err(err, errlen, "shm name \"%.*s\" invalid", SHM3D_NAME_LEN, name ? name : "");
        return -1;
    }
    return 0;
}

/* The region's semaphores, in one list so init and destroy agree. */
#define R3_NSEMS (1 + SHM3D_N_GATEWAYS)
static void r3_sems(shm3d_region_sh_t *r, sem_t **out)
{
    out[0] = &r->hdr.done_sem;
    for (int i = 0; i < SHM3D_N_GATEWAYS; i++)
        out[1 + i] = &r->proc[i].cycle_sem;
}

static int r3_init(shm3d_region_sh_t *r, const char *name, char *err, size_t errlen)
{
    sem_t *sems[R3_NSEMS];
    r->hdr.magic = SHM3D_MAGIC;
    r->hdr.layout_version = SHM3D_LAYOUT_VERSION;
    r->hdr.region_size = sizeof(shm3d_region_sh_t);
    r->hdr.header_size = sizeof(shm3d_header_sh_t);
    r->hdr.params_hash = conf3d_hash();
    r->hdr.sim_pid = (int32_t)getpid();
    snprintf(r->hdr.name, sizeof r->hdr.name, "%s", name);
    r3_sems(r, sems);
    for (int i = 0; i < R3_NSEMS; i++) {
        if (sem_init(sems[i], 1, 0) != 0) {
            int e = errno;
            while (--i >= 0)
                sem_destroy(sems[i]);
            r3_err(err, errlen, "sem_init(\"%s\") failed: %s", name, strerror(e));
            return -1;
        }
    }
    return 0;
}

int shm3d_region_create(shm3d_handle_t *h, const char *name, char *err, size_t errlen)
{
    const size_t size = sizeof(shm3d_region_sh_t);
    memset(h, 0, sizeof *h);
    if (r3_name_ok(name, err, errlen) < 0)
        return -1;
    shm_unlink(name); /* a dead sim's region: ENOENT is the normal case */
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        r3_err(err, errlen, "shm_open(\"%s\") failed: %s", name, strerror(errno));
        return -1;
    }
    if (ftruncate(fd, (off_t)size) != 0) {
        r3_err(err, errlen, "ftruncate(\"%s\") failed: %s", name, strerror(errno));
        close(fd);
        shm_unlink(name);
        return -1;
    }
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        r3_err(err, errlen, "mmap(\"%s\") failed: %s", name, strerror(errno));
        shm_unlink(name);
        return -1;
    }
    memset(p, 0, size); /* every counter, ring index and state starts at 0 */
    if (r3_init(p, name, err, errlen) < 0) {
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

/* Mapping size first, then magic and version (fixed offsets), then the recorded size
 * and the parameter table. 0, or -1 with exactly one line in err. */
int shm3d_region_verify(const shm3d_region_sh_t *r, size_t mapped, const char *name,
                        char *err, size_t errlen)
{
    if (!name)
        name = "?";
    if (!r || mapped < sizeof(shm3d_header_sh_t)) {
        r3_err(err, errlen, "shm %s: region size %zu, expected %zu", name, mapped,
               sizeof(shm3d_region_sh_t));
        return -1;
    }
    if (r->hdr.magic != SHM3D_MAGIC) {
        r3_err(err, errlen, "shm %s: bad magic 0x%08x (not a 3D region)", name,
               (unsigned)r->hdr.magic);
        return -1;
    }
    if (r->hdr.layout_version != SHM3D_LAYOUT_VERSION) {
        r3_err(err, errlen, "shm %s: layout version %u, expected %u", name,
               (unsigned)r->hdr.layout_version, (unsigned)SHM3D_LAYOUT_VERSION);
        return -1;
    }
    if (r->hdr.region_size != sizeof(shm3d_region_sh_t) || mapped != sizeof(shm3d_region_sh_t)) {
        r3_err(err, errlen, "shm %s: region size %llu, expected %zu", name,
               (unsigned long long)(r->hdr.region_size != sizeof(shm3d_region_sh_t)
                                    ? r->hdr.region_size : mapped),
               sizeof(shm3d_region_sh_t));
        return -1;
    }
    if (r->hdr.params_hash != conf3d_hash()) {
        r3_err(err, errlen, "shm %s: parameter table differs (hash 0x%08x, expected 0x%08x)",
               name, (unsigned)r->hdr.params_hash, (unsigned)conf3d_hash());
        return -1;
    }
    return 0;
}

int shm3d_region_attach(shm3d_handle_t *h, const char *name, char *err, size_t errlen)
{
    struct stat st;
    memset(h, 0, sizeof *h);
    if (r3_name_ok(name, err, errlen) < 0)
        return -1;
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        r3_err(err, errlen, "shm_open(\"%s\") failed: %s", name, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        r3_err(err, errlen, "fstat(\"%s\") failed: %s", name, strerror(errno));
        close(fd);
        return -1;
    }
    if (st.st_size < (off_t)sizeof(shm3d_header_sh_t)) {
        close(fd);
        return shm3d_region_verify(NULL, (size_t)(st.st_size < 0 ? 0 : st.st_size), name,
                                   err, errlen);
    }
    size_t size = (size_t)st.st_size;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        r3_err(err, errlen, "mmap(\"%s\") failed: %s", name, strerror(errno));
        return -1;
    }
    if (shm3d_region_verify(p, size, name, err, errlen) < 0) {
        munmap(p, size);
        return -1;
    }
    h->r = p;
    h->size = size;
    snprintf(h->name, sizeof h->name, "%s", name);
    return 0;
}

void shm3d_region_detach(shm3d_handle_t *h)
{
    if (!h || !h->r)
        return;
    munmap(h->r, h->size);
    h->r = NULL;
    h->size = 0;
}

void shm3d_region_destroy(shm3d_handle_t *h)
{
    if (!h || !h->r)
        return;
    if (h->owner) {
        sem_t *sems[R3_NSEMS];
        r3_sems(h->r, sems);
        for (int i = 0; i < R3_NSEMS; i++)
            sem_destroy(sems[i]);
    }
    shm3d_region_detach(h);
    if (h->owner) {
        shm_unlink(h->name);
        h->owner = 0;
    }
}

int shm3d_gateway_attach(shm3d_handle_t *h, const char *name, int wait_ms, char *err,
                         size_t errlen)
{
    memset(h, 0, sizeof *h);
    err[0] = '\0';
    for (int waited = 0; waited <= wait_ms; waited += 50) {
        if (h->r || shm3d_region_attach(h, name, err, errlen) == 0) {
            if (atomic_load(&h->r->hdr.ready) == 1)
                return 0;
        }
        struct timespec ts = { 0, 50000000L };
        nanosleep(&ts, NULL);
    }
    if (h->r) {
        snprintf(err, errlen, "shm %s: the sim never marked the region ready", name);
        shm3d_region_detach(h);
    }
    return -1;
}

int shm3d_sim_alive(const shm3d_region_sh_t *r)
{
    if (atomic_load(&r->hdr.shutdown))
        return 0;
    return !(kill(r->hdr.sim_pid, 0) < 0 && errno == ESRCH);
}
