/* shm_text.c -- texts longer than one command record or event (coach-language messages,
 * team-graphic tiles, raw coach datagrams for the text log): the producer side for
 * command rings and the consumer side that puts the parts back together. The parts are
 * consecutive by construction (one producer per ring; the sim writes an event's parts
 * in one go), so no sequence numbers are needed. */
#include <string.h>

#include "shm.h"

uint32_t shm_cmd_free(const shm_cmd_ring_sh_t *q)
{
    uint32_t h = atomic_load_explicit(&q->head, memory_order_relaxed);
    uint32_t t = atomic_load_explicit(&q->tail, memory_order_acquire);
    uint32_t used = h - t;
    return used >= SHM_CMD_SLOTS ? 0 : SHM_CMD_SLOTS - used;
}

int shm_cmd_push_text(shm_cmd_ring_sh_t *q, const shm_cmd_sh_t *last, const char *text,
                      size_t len)
{
    const size_t part = SHM_CMD_TEXT_LEN - 1;
    if (len > SHM_TEXT_MAX)
        return -1;
    size_t nparts = len == 0 ? 1 : (len + part - 1) / part;
    if (shm_cmd_free(q) < nparts) {
        q->dropped++;
        return -1;
    }
    shm_cmd_sh_t c;
    size_t off = 0;
    for (size_t k = 0; k + 1 < nparts; k++, off += part) {
        memset(&c, 0, sizeof c);
        c.kind = SHM_CMD_CONT;
        c.recv_time = last->recv_time;
        c.len = (uint16_t)part;
        memcpy(c.text, text + off, part);
        if (shm_cmd_push(q, &c) < 0)
            return -1; /* cannot happen: room was checked and we are the only producer */
    }
    c = *last;
    c.len = (uint16_t)(len - off);
    memset(c.text, 0, sizeof c.text);
    memcpy(c.text, text + off, len - off);
    return shm_cmd_push(q, &c);
}

int shm_text_feed(shm_text_t *t, int cont, const char *part, size_t len)
{
    if (t->complete) {
        t->len = 0;
        t->overflow = 0;
        t->complete = 0;
    }
    size_t room = SHM_TEXT_MAX - t->len;
    if (len > room) {
        len = room;
        t->overflow = 1;
    }
    memcpy(t->buf + t->len, part, len);
    t->len += len;
    t->buf[t->len] = '\0';
    if (cont)
        return 0;
    t->complete = 1;
    return 1;
}
