/* shm_wake.c -- waking a gateway's event loop directly (shm_wake.h). Each gateway binds
 * an abstract unix datagram socket named after the region and its slot; a waker sends
 * it one byte, so the gateway's epoll wakes on the socket itself: no thread between the
 * post and the loop. The slot's semaphore is posted too (no system call when nobody
 * waits on it), for a gateway that could not bind its name and waits the old way. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "shm_wake.h"

int shm_wake_addr(const char *region, int slot, struct sockaddr_un *a, socklen_t *len)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    /* abstract name: a leading NUL, then "rcssserver-shm:<region>:<slot>" */
    int n = snprintf(a->sun_path + 1, sizeof a->sun_path - 1, "rcssserver-shm:%s:%d",
                     region, slot);
    if (n < 0 || (size_t)n >= sizeof a->sun_path - 1)
        return -1;
    *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
    return 0;
}

int shm_wake_bind(const char *region, int slot)
{
    struct sockaddr_un a;
    socklen_t len;
    if (shm_wake_addr(region, slot, &a, &len) < 0)
        return -1;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (bind(fd, (struct sockaddr *)&a, len) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

void shm_wake_drain(int fd)
{
    char b[16][1];
    struct iovec iov[16];
    struct mmsghdr m[16];
    memset(m, 0, sizeof m);
    for (int i = 0; i < 16; i++) {
        iov[i].iov_base = b[i];
        iov[i].iov_len = 1;
        m[i].msg_hdr.msg_iov = &iov[i];
        m[i].msg_hdr.msg_iovlen = 1;
    }
    /* one call takes what is queued (a wake-up is only "look at the region") */
    while (recvmmsg(fd, m, 16, MSG_DONTWAIT, NULL) == 16)
        ;
}

int shm_wake_open(shm_wake_t *w, shm_region_sh_t *r)
{
    w->r = r;
    w->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    for (int s = 0; s < SHM_WAKE_SLOTS; s++)
        if (shm_wake_addr(r->hdr.name, s, &w->addr[s], &w->len[s]) < 0)
            w->len[s] = 0;
    return w->fd < 0 ? -1 : 0;
}

static sem_t *shm_wake_sem(shm_region_sh_t *r, int slot)
{
    return slot == SHM_WAKE_MGW ? &r->monitorgw.cycle_sem : &r->netgw[slot].cycle_sem;
}

void shm_wake_send(shm_wake_t *w, int slot)
{
    if (slot < 0 || slot >= SHM_WAKE_SLOTS)
        return;
    shm_sem_post(shm_wake_sem(w->r, slot));
    if (w->fd >= 0 && w->len[slot] > 0) /* nobody bound (yet, or the old way): refused */
        (void)sendto(w->fd, "", 1, MSG_DONTWAIT, (struct sockaddr *)&w->addr[slot], w->len[slot]);
}

void shm_wake_close(shm_wake_t *w)
{
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
}
