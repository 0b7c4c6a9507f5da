/* frame.h -- the 3D server's message framing on TCP and pipes (docs/protocol/3d.md §1: "a length
 * prefixed format"): a 4-byte unsigned big-endian length, then that many bytes of
 * S-expression text. Pure helpers for the gateways (which frame into libevent buffers)
 * and blocking helpers for the clients (the sample agent, the log player, the tests). */
#ifndef RCSS_FRAME_H
#define RCSS_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_HDR 4
#define FRAME_MAX (1u << 20)   /* longest message accepted by default: 1 MiB */

static inline void frame_put_len(uint8_t out[FRAME_HDR], uint32_t len)
{
    out[0] = (uint8_t)(len >> 24);
    out[1] = (uint8_t)(len >> 16);
    out[2] = (uint8_t)(len >> 8);
    out[3] = (uint8_t)len;
}

static inline uint32_t frame_get_len(const uint8_t in[FRAME_HDR])
{
    return (uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 | (uint32_t)in[2] << 8 | in[3];
}

/* A blocking reader of one stream: bytes are buffered between calls. */
typedef struct frame_reader {
    char   *buf;        /* caller's buffer; a message is NUL-terminated in it */
    size_t  cap;        /* its size: messages up to cap - FRAME_HDR - 1 bytes */
    size_t  have;       /* bytes buffered */
    size_t  skip;       /* bytes of the previous message to drop on the next call */
} frame_reader_t;

void frame_reader_init(frame_reader_t *r, char *buf, size_t cap);
/* Next message within timeout_ms (-1: wait forever): 1 with *msg (NUL-terminated, valid
 * until the next call) and *len; 0 timeout; -1 closed or error; -2 a message longer
 * than the buffer (the stream cannot be resynchronised: close it). */
int  frame_read(int fd, frame_reader_t *r, int timeout_ms, const char **msg, size_t *len);
/* Write the prefix and the message, blocking until all is written (a non-blocking fd is
 * waited for with poll). 0, or -1 (errno kept). Callers ignore SIGPIPE. */
int  frame_write(int fd, const char *msg, size_t len);

#endif
