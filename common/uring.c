/* uring.c -- batched datagram sends through io_uring (uring.h): the submission queue,
 * completion queue and entries mapped once; a submission is one io_uring_enter that
 * issues every queued send (each completes at once: MSG_DONTWAIT) and returns with
 * their results. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include "uring.h"

#define URING_MAX 4096u

struct uring {
    int                   fd;
    unsigned              entries;
    void                 *ring;       /* the SQ and CQ rings (one mapping) */
    size_t                ring_len;
    struct io_uring_sqe  *sqes;
    size_t                sqes_len;
    _Atomic unsigned     *sq_head, *sq_tail, *cq_head, *cq_tail;
    unsigned              sq_mask, cq_mask;
    unsigned             *sq_array;
    struct io_uring_cqe  *cqes;
    unsigned              tail;       /* our SQ tail (published at submit) */
    unsigned              pending;    /* queued, not submitted */
};

static int sys_setup(unsigned entries, struct io_uring_params *p)
{
    return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int sys_enter(int fd, unsigned submit, unsigned wait, unsigned flags)
{
    return (int)syscall(__NR_io_uring_enter, fd, submit, wait, flags, NULL, 0);
}

/* 1 if the kernel knows the send operation */
static int have_send(int fd)
{
    size_t len = sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op);
    struct io_uring_probe *pr = calloc(1, len);
    if (!pr)
        return 0;
    int ok = syscall(__NR_io_uring_register, fd, IORING_REGISTER_PROBE, pr, 256) == 0
             && pr->last_op >= IORING_OP_SEND
             && (pr->ops[IORING_OP_SEND].flags & IO_URING_OP_SUPPORTED);
    free(pr);
    return ok;
}

uring_t *uring_open(unsigned entries, char *err, size_t errlen)
{
    const char *off = getenv("RCSS_NO_URING");
    if (off && off[0] && strcmp(off, "0") != 0) {
        snprintf(err, errlen, "io_uring not used (RCSS_NO_URING)");
        return NULL;
    }
    if (entries == 0 || entries > URING_MAX)
        entries = URING_MAX;
    uring_t *u = calloc(1, sizeof *u);
    if (!u) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_SUBMIT_ALL; /* a failed send never holds back the others */
    u->ring = MAP_FAILED;
    u->sqes = MAP_FAILED;
    u->fd = sys_setup(entries, &p);
    if (u->fd < 0) {
        snprintf(err, errlen, "io_uring_setup: %s", strerror(errno));
        goto fail;
    }
    if (!(p.features & IORING_FEAT_SINGLE_MMAP) || !(p.features & IORING_FEAT_NODROP)
        || !have_send(u->fd)) {
        snprintf(err, errlen, "io_uring: this kernel lacks what is needed");
        goto fail;
    }
    size_t sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    size_t cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    u->ring_len = sq_len > cq_len ? sq_len : cq_len;
    u->ring = mmap(NULL, u->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                   u->fd, IORING_OFF_SQ_RING);
    u->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
    u->sqes = mmap(NULL, u->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                   u->fd, IORING_OFF_SQES);
    if (u->ring == MAP_FAILED || u->sqes == MAP_FAILED) {
        snprintf(err, errlen, "io_uring mmap: %s", strerror(errno));
        goto fail;
    }
    char *r = u->ring;
    u->sq_head = (_Atomic unsigned *)(r + p.sq_off.head);
    u->sq_tail = (_Atomic unsigned *)(r + p.sq_off.tail);
    u->sq_mask = *(unsigned *)(r + p.sq_off.ring_mask);
    u->sq_array = (unsigned *)(r + p.sq_off.array);
    u->cq_head = (_Atomic unsigned *)(r + p.cq_off.head);
    u->cq_tail = (_Atomic unsigned *)(r + p.cq_off.tail);
    u->cq_mask = *(unsigned *)(r + p.cq_off.ring_mask);
    u->cqes = (struct io_uring_cqe *)(r + p.cq_off.cqes);
    u->entries = p.sq_entries;
    u->tail = atomic_load_explicit(u->sq_tail, memory_order_relaxed);
    return u;
fail:
    uring_close(u);
    return NULL;
}

void uring_close(uring_t *u)
{
    if (!u)
        return;
    if (u->sqes != MAP_FAILED)
        munmap(u->sqes, u->sqes_len);
    if (u->ring != MAP_FAILED)
        munmap(u->ring, u->ring_len);
    if (u->fd >= 0)
        close(u->fd);
    free(u);
}

unsigned uring_pending(const uring_t *u)
{
    return u->pending;
}

void uring_send(uring_t *u, int fd, const void *data, size_t len, uint64_t tag,
                uring_done_fn done, void *arg)
{
    if (u->pending == u->entries)
        (void)uring_submit(u, done, arg);
    unsigned i = u->tail & u->sq_mask;
    struct io_uring_sqe *e = &u->sqes[i];
    memset(e, 0, sizeof *e);
    e->opcode = IORING_OP_SEND;
    e->fd = fd;
    e->addr = (uint64_t)(uintptr_t)data;
    e->len = (uint32_t)len;
    e->msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL;
    e->user_data = tag;
    u->sq_array[i] = i;
    u->tail++;
    u->pending++;
}

/* pass every completion there is to done; how many */
static unsigned reap(uring_t *u, uring_done_fn done, void *arg)
{
    unsigned head = atomic_load_explicit(u->cq_head, memory_order_relaxed);
    unsigned tail = atomic_load_explicit(u->cq_tail, memory_order_acquire);
    unsigned n = tail - head;
    for (; head != tail; head++) {
        const struct io_uring_cqe *c = &u->cqes[head & u->cq_mask];
        if (done)
            done(arg, c->user_data, c->res);
    }
    atomic_store_explicit(u->cq_head, head, memory_order_release);
    return n;
}

int uring_submit(uring_t *u, uring_done_fn done, void *arg)
{
    unsigned n = u->pending;
    if (n == 0)
        return 0;
    unsigned head0 = atomic_load_explicit(u->sq_head, memory_order_acquire);
    atomic_store_explicit(u->sq_tail, u->tail, memory_order_release);
    u->pending = 0;
    unsigned taken = 0, got = 0;
    while (got < n) {
        unsigned left = n - taken;
        int rc = sys_enter(u->fd, left, n - got, IORING_ENTER_GETEVENTS);
        if (rc < 0 && errno != EINTR && errno != EAGAIN && errno != EBUSY)
            return -1; /* the ring is unusable: the caller closes it */
        taken = atomic_load_explicit(u->sq_head, memory_order_acquire) - head0;
        got += reap(u, done, arg);
    }
    return (int)n;
}
