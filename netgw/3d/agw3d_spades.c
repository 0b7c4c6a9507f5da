/* agw3d_spades.c -- the SPADES framing the 2004 server's ComServer spoke with the agents
 * it started (docs/protocol/3d.md §7): every message a 4-byte big-endian length and that
 * many bytes, the first byte naming the message. The agent sends I when its
 * initialisation is done, A followed by effector S-expressions to act, and D when it is
 * done thinking; it is sent D (initialisation data), S<send> <arrive> <perception> (a
 * sensation, which starts a thinking cycle) and X (exit). Pure: the connection code
 * (agw3d_conn.c) feeds it the bytes read and sends what it formats. A frame no agent
 * may send is refused with a reason, and the connection is then closed. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "agw3d.h"
#include "frame.h"

int agw3d_spades_next(const uint8_t *buf, size_t have, size_t max, agw3d_sp_msg_t *m,
                      size_t *used, char *err, size_t errlen)
{
    if (have < FRAME_HDR)
        return 0;
    uint32_t n = frame_get_len(buf);
    if (n > max) {
        snprintf(err, errlen, "a message of %" PRIu32 " bytes (at most %zu)", n, max);
        return -1;
    }
    if (n == 0) {
        snprintf(err, errlen, "an empty message (no type)");
        return -1;
    }
    if (have < FRAME_HDR + 1)
        return 0;
    const uint8_t *p = buf + FRAME_HDR;
    char t = (char)p[0];
    /* the type is checked as soon as it is there: a stream of garbage is refused at once */
    if (t != 'A' && t != 'D' && t != 'I') {
        if (t > 32 && t < 127)
            snprintf(err, errlen, "unknown message type '%c'", t);
        else
            snprintf(err, errlen, "unknown message type 0x%02x", (unsigned)p[0]);
        return -1;
    }
    if (have < FRAME_HDR + (size_t)n)
        return 0;
    if (memchr(p, '\0', n)) {
        snprintf(err, errlen, "a NUL byte in a message of type '%c'", t);
        return -1;
    }
    if (t != 'A' && n > 1) {
        snprintf(err, errlen, "a message of type '%c' with %" PRIu32 " bytes of data", t, n - 1);
        return -1;
    }
    m->type = t;
    m->data = (const char *)p + 1;
    m->len = n - 1;
    *used = FRAME_HDR + (size_t)n;
    return 1;
}

void agw3d_spades_cut(const uint8_t *buf, size_t have, char *out, size_t len)
{
    if (have == 0)
        snprintf(out, len, "%s", "");
    else if (have < FRAME_HDR)
        snprintf(out, len, "a message cut short: %zu of %d length bytes", have, FRAME_HDR);
    else
        snprintf(out, len, "a message cut short: %zu of %" PRIu32 " bytes", have - FRAME_HDR,
                 frame_get_len(buf));
}

int agw3d_spades_sense(char *out, size_t len, uint64_t send, uint64_t arrive,
                       const char *errors, size_t elen, const char *percept, size_t plen)
{
    int h = snprintf(out, len, "S%" PRIu64 " %" PRIu64 " ", send, arrive);
    if (h < 0 || (size_t)h + elen + plen >= len)
        return -1;
    memcpy(out + h, errors, elen);
    memcpy(out + h + elen, percept, plen);
    out[(size_t)h + elen + plen] = '\0';
    return h + (int)(elen + plen);
}
