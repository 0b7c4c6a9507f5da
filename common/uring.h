/* uring.h -- many sockets' datagrams in one system call: sends through io_uring (raw
 * system calls, no library). sendmmsg batches the messages of one socket; monitorgw's
 * fan-out is one datagram on each of many sockets (every monitor has its own server
 * port), which costs a system call per monitor, and on a machine where a system call is
 * dear (a virtual machine with page-table isolation: 1.2 us each on this project's CI
 * machines) that is most of the frame's cost. Sends carry MSG_DONTWAIT: a full socket
 * buffer fails the send (-EAGAIN), as on the plain path. Where the kernel has no
 * io_uring, or refuses it (seccomp, kernel.io_uring_disabled, a kernel older than 5.18),
 * uring_open fails and the caller keeps its plain path; RCSS_NO_URING=1 in the
 * environment makes it fail on purpose. Never logs. */
#ifndef RCSS_URING_H
#define RCSS_URING_H

#include <stddef.h>
#include <stdint.h>

typedef struct uring uring_t;

/* the result of one send: tag as queued, res bytes sent or -errno */
typedef void (*uring_done_fn)(void *arg, uint64_t tag, int res);

/* A ring for up to entries sends per submission (rounded up to a power of two, at most
 * 4096). NULL with a reason in err when io_uring cannot be had. */
uring_t *uring_open(unsigned entries, char *err, size_t errlen);
void     uring_close(uring_t *u);
/* Queue one datagram on fd; data must stay valid until the next uring_submit returns.
 * When the ring is full it is submitted first (done gets those results). */
void     uring_send(uring_t *u, int fd, const void *data, size_t len, uint64_t tag,
                    uring_done_fn done, void *arg);
/* Submit what is queued, in queue order (a socket's datagrams go out in the order they
 * were queued), wait for every result and pass each to done (NULL: ignored). The number
 * of sends submitted, or -1 with errno when the system call failed and the ring is no
 * use any more (some of the sends may have gone out; close it). */
int      uring_submit(uring_t *u, uring_done_fn done, void *arg);
/* sends queued and not submitted yet */
unsigned uring_pending(const uring_t *u);

#endif
