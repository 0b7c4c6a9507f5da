/* shm_wake.h -- waking a gateway's libevent loop without a thread in between: every
 * gateway binds an abstract unix datagram socket named after the region and its slot
 * (netgw index, or SHM_WAKE_MGW for monitorgw) and watches it; the sim after each
 * publish, and a netgw after handing monitorgw a monitor, send it one byte. The slot's
 * cycle semaphore is posted as well, for a gateway that waits on it instead (its name
 * was taken: shm_gateway.h falls back to a thread). */
#ifndef RCSS_SHM_WAKE_H
#define RCSS_SHM_WAKE_H

#include <sys/socket.h>
#include <sys/un.h>
#include "shm.h"

#define SHM_WAKE_MGW    SHM_MAX_GATEWAYS      /* monitorgw's slot */
#define SHM_WAKE_SLOTS  (SHM_MAX_GATEWAYS + 1)

/* The abstract address of a slot of region (its shm name). 0 or -1 (name too long). */
int  shm_wake_addr(const char *region, int slot, struct sockaddr_un *a, socklen_t *len);
/* A gateway: bind the slot's socket (non-blocking). The fd, or -1 (name in use). */
int  shm_wake_bind(const char *region, int slot);
/* A gateway: take every queued wake-up. */
void shm_wake_drain(int fd);

/* A waker (the sim, a netgw): one unbound socket and every slot's address. */
typedef struct shm_wake {
    shm_region_sh_t       *r;
    int                    fd;
    struct sockaddr_un     addr[SHM_WAKE_SLOTS];
    socklen_t              len[SHM_WAKE_SLOTS];
} shm_wake_t;

/* 0, or -1 (no socket: only the semaphores are posted). */
int  shm_wake_open(shm_wake_t *w, shm_region_sh_t *r);
/* Wake slot: post its semaphore and send it one byte (never blocks; nobody bound, a
 * full queue: nothing happens, the gateway looks at the region on its next wake-up). */
void shm_wake_send(shm_wake_t *w, int slot);
void shm_wake_close(shm_wake_t *w);

#endif
