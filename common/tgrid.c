/* tgrid.c -- the reference's timer loop run once, kept as marks per poll (tgrid.h).
 * The loop is simulated as the reference writes it, in doubles: its counters are
 * compared with products such as 37.5 * c, and `floor` decides where a late counter
 * resumes. The real-time loop pulls its clock back to the step when a poll passes
 * one (a step that is not a multiple of 10 ms then lasts whole polls); the synch-mode
 * loop has no such pull and adds (think). The state at each period start decides when
 * the marks repeat: the first period whose start equals the next one's is the steady
 * period, everything before it is kept as the first part. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf.h"
#include "tgrid.h"

#define TGRID_MAX_PERIODS 16

typedef struct loop {
    double lcmt;                          /* ms into the period */
    int c_simt, c_sent, c_sbt, c_svt, c_synch, c_synch_see;
    int sent_synch_see;
} loop_t;

typedef struct steps {                    /* ms, slow_down_factor applied */
    int sim, send, recv, sb, vi, synch, synch_see, lcm;
    int q_simt, q_sent, q_sbt, q_svt;
    int synch_mode;
} steps_t;

static long gcd(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static long lcm2(long a, long b)
{
    return a / gcd(a, b) * b;
}

static int steps_of(const tgrid_param_t *p, steps_t *s, char *err, size_t errlen)
{
    int slow = p->slow_down_factor > 1 ? p->slow_down_factor : 1;
    s->sim = p->simulator_step * slow;
    s->send = p->send_step * slow;
    s->recv = p->recv_step;
    s->sb = p->sense_body_step * slow;
    s->vi = p->send_vi_step * slow;
    s->synch = p->synch_offset * slow;
    s->synch_see = p->synch_see_offset * slow;
    s->synch_mode = p->synch_mode != 0;
    if (s->sim <= 0 || s->send <= 0 || s->recv <= 0 || s->sb <= 0 || s->vi <= 0) {
        snprintf(err, errlen, "timer: every step length must be positive");
        return -1;
    }
    long l = lcm2(s->sim, s->send);
    l = lcm2(l, s->recv);
    l = lcm2(l, s->sb);
    l = lcm2(l, s->vi);
    l = lcm2(l, s->synch_see > 1 ? s->synch_see : 1);
    l = lcm2(l, s->synch_mode && s->synch > 1 ? s->synch : 1);
    if (l / TGRID_POLL_MS > (long)TGRID_MAX_POLLS) {
        snprintf(err, errlen, "timer: the step lengths repeat only every %ld ms "
                 "(at most %u ms are supported)", l, TGRID_MAX_POLLS * TGRID_POLL_MS);
        return -1;
    }
    s->lcm = (int)l;
    s->q_simt = s->lcm / s->sim;
    s->q_sent = s->lcm / s->send * 4;
    s->q_sbt = s->lcm / s->sb;
    s->q_svt = s->lcm / s->vi;
    return 0;
}

/* a counter that fires at multiples of `every`: after firing it resumes at the next
 * multiple past the clock, or at 1 after the period's last */
static int counter_next(double lcmt, double every, int q)
{
    int c = (int)floor(lcmt / every);
    return q <= c ? 1 : c + 1;
}

/* one poll of the loop; returns its marks and says (*reset) whether the period ended */
static unsigned loop_poll(loop_t *L, const steps_t *s, int *reset)
{
    unsigned m = 0;
    L->lcmt += TGRID_POLL_MS;
    if (!s->synch_mode && L->lcmt >= (double)s->sim * L->c_simt) {
        /* the real-time loop's pull back to the step (no short catch-up cycles) */
        L->c_simt = (int)floor(L->lcmt / s->sim);
        L->lcmt = (double)s->sim * L->c_simt;
    }
    if (L->lcmt >= (double)s->sim * L->c_simt) {
        m |= TGRID_STEP;
        L->c_simt = s->q_simt <= L->c_simt ? 1 : L->c_simt + 1;
        L->sent_synch_see = 0;
    }
    if (L->lcmt >= (double)s->sb * L->c_sbt) {
        m |= TGRID_SENSE;
        L->c_sbt = counter_next(L->lcmt, s->sb, s->q_sbt);
    }
    if (L->lcmt >= (s->send * 0.25) * L->c_sent) {
        m |= TGRID_SEE;
        L->c_sent = counter_next(L->lcmt, s->send * 0.25, s->q_sent);
    }
    if (!L->sent_synch_see
        && L->lcmt >= (double)s->sim * (L->c_synch_see - 1) + s->synch_see) {
        m |= TGRID_SYNCH_SEE;
        L->c_synch_see++;
        L->sent_synch_see = 1;
    }
    if (L->lcmt >= (double)s->vi * L->c_svt) {
        m |= TGRID_COACH;
        L->c_svt = counter_next(L->lcmt, s->vi, s->q_svt);
    }
    if (s->synch_mode && L->lcmt >= (double)s->sim * (L->c_synch - 1) + s->synch) {
        m |= TGRID_THINK;
        L->c_synch++;
    }
    *reset = L->lcmt >= s->lcm;
    if (*reset) {
        L->lcmt = 0;
        L->c_synch = 1;
        L->c_synch_see = 1;
    }
    return m;
}

static int loop_equal(const loop_t *a, const loop_t *b)
{
    return a->lcmt == b->lcmt && a->c_simt == b->c_simt && a->c_sent == b->c_sent
           && a->c_sbt == b->c_sbt && a->c_svt == b->c_svt && a->c_synch == b->c_synch
           && a->c_synch_see == b->c_synch_see && a->sent_synch_see == b->sent_synch_see;
}

/* runs one period from L into buf (at most cap polls); its length, or -1 */
static long run_period(loop_t *L, const steps_t *s, uint8_t *buf, long cap)
{
    for (long i = 0; i < cap; i++) {
        int reset = 0;
        buf[i] = (uint8_t)loop_poll(L, s, &reset);
        if (reset)
            return i + 1;
    }
    return -1;
}

void tgrid_param_conf(tgrid_param_t *p, const conf_t *c)
{
    p->simulator_step = conf_int(c, SP_simulator_step);
    p->send_step = conf_int(c, SP_send_step);
    p->recv_step = conf_int(c, SP_recv_step);
    p->sense_body_step = conf_int(c, SP_sense_body_step);
    p->send_vi_step = conf_int(c, SP_send_vi_step);
    p->synch_offset = conf_int(c, SP_synch_offset);
    p->synch_see_offset = conf_int(c, SP_synch_see_offset);
    p->slow_down_factor = conf_int(c, SP_slow_down_factor);
    p->synch_mode = conf_bool(c, SP_synch_mode);
}

int tgrid_init(tgrid_t *t, const tgrid_param_t *p, char *err, size_t errlen)
{
    steps_t s;
    memset(t, 0, sizeof *t);
    if (steps_of(p, &s, err, errlen) < 0)
        return -1;
    /* a period has at most lcm / 10 polls plus the ones the pull back repeats */
    long cap = (long)s.lcm / TGRID_POLL_MS * 4 + 4;
    uint8_t *all = malloc((size_t)cap * (TGRID_MAX_PERIODS + 1));
    uint8_t *period = malloc((size_t)cap);
    if (!all || !period) {
        free(all);
        free(period);
        snprintf(err, errlen, "timer: out of memory");
        return -1;
    }
    loop_t L = { .c_simt = 1, .c_sent = 1, .c_sbt = 1, .c_svt = 1, .c_synch = 1,
                 .c_synch_see = 1 };
    long used = 0;
    for (int k = 0; k < TGRID_MAX_PERIODS; k++) {
        loop_t start = L;
        long n = run_period(&L, &s, period, cap);
        if (n < 0)
            break;
        if (k > 0 && loop_equal(&start, &L)) { /* this period repeats forever */
            t->first = all;
            t->first_n = (uint32_t)used;
            t->ev = period;
            t->n = (uint32_t)n;
            return 0;
        }
        memcpy(all + used, period, (size_t)n);
        used += n;
    }
    free(all);
    free(period);
    snprintf(err, errlen, "timer: the step lengths give no repeating schedule");
    return -1;
}

void tgrid_free(tgrid_t *t)
{
    free(t->first);
    free(t->ev);
    memset(t, 0, sizeof *t);
}

unsigned tgrid_marks(const tgrid_t *t, uint64_t poll)
{
    if (poll == 0 || t->n == 0)
        return 0;
    if (poll <= t->first_n)
        return t->first[poll - 1];
    return t->ev[(poll - t->first_n - 1) % t->n];
}

uint64_t tgrid_next(const tgrid_t *t, uint64_t poll, unsigned mask)
{
    uint64_t limit = poll + (uint64_t)t->first_n + 2u * t->n + 1;
    for (uint64_t p = poll + 1; p <= limit; p++) {
        if (tgrid_marks(t, p) & mask)
            return p;
    }
    return 0;
}
