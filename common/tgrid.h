/* tgrid.h -- when the step and every sensor happen: the reference server's timer as a
 * pure schedule. That timer is a loop that polls a virtual clock every 10 ms
 * (TGRID_POLL_MS); at each poll, in this order, it may step the world, send
 * sense_body, tick the async see counters, send the synchronous see, send the
 * coaches' visuals and, in synch mode, (think). Counters per kind decide which polls
 * carry what (a see tick at the first poll at or after each multiple of send_step / 4,
 * and so on); they start again at every multiple of the lcm of the step lengths, so
 * the marks repeat with that period. tgrid_init runs the loop from the server's start
 * and keeps its first period and its steady one. The sim steps at the polls marked
 * TGRID_STEP (poll p at p * 10 ms on its clock); each gateway sends the other marks
 * relative to the step's poll. docs/ARCHITECTURE.md "Timing" says how it is used. */
#ifndef RCSS_TGRID_H
#define RCSS_TGRID_H

#include <stddef.h>
#include <stdint.h>

#define TGRID_POLL_MS    10            /* the reference's poll (its TIMEDELTA) */
#define TGRID_MAX_POLLS  (1u << 20)    /* longest period kept (an lcm of ~3 hours) */

enum {
    TGRID_STEP      = 1u << 0,         /* the world steps */
    TGRID_SENSE     = 1u << 1,         /* sense_body (+ fullstate, the v8+ hears) */
    TGRID_SEE       = 1u << 2,         /* an async see tick: counters advance */
    TGRID_SYNCH_SEE = 1u << 3,         /* the see of synch_see players */
    TGRID_COACH     = 1u << 4,         /* the coaches' visuals (eye on) */
    TGRID_THINK     = 1u << 5          /* synch mode: (think) */
};

/* the step lengths, in ms, as the parameters give them (slow_down_factor not applied) */
typedef struct tgrid_param {
    int simulator_step, send_step, recv_step, sense_body_step, send_vi_step;
    int synch_offset, synch_see_offset, slow_down_factor;
    int synch_mode;                    /* 1: the synch-mode loop (no receive poll) */
} tgrid_param_t;

typedef struct tgrid {
    uint32_t first_n;                  /* polls of the first period (from the start) */
    uint32_t n;                        /* polls of every later period */
    uint8_t *first;                    /* first[i]: marks of poll i + 1 */
    uint8_t *ev;                       /* ev[i]: marks of poll first_n + k * n + i + 1 */
} tgrid_t;

struct conf;
/* The parameters of a resolved configuration (server::simulator_step and the others). */
void     tgrid_param_conf(tgrid_param_t *p, const struct conf *c);
/* Runs the reference's loop until its period repeats. 0, or -1 with err filled (a
 * period longer than TGRID_MAX_POLLS, no memory, steps that are not positive). */
int      tgrid_init(tgrid_t *t, const tgrid_param_t *p, char *err, size_t errlen);
void     tgrid_free(tgrid_t *t);
/* The marks of poll number `poll` (1 = 10 ms after the start). */
unsigned tgrid_marks(const tgrid_t *t, uint64_t poll);
/* The first poll after `poll` that has any of `mask`; 0 if none within two periods. */
uint64_t tgrid_next(const tgrid_t *t, uint64_t poll, unsigned mask);

#endif
