/* test_ref_util.h -- helpers for the referee's unit tests: a world with the referee's
 * messages captured as "msg;" in ref_log, and players placed with a given type size.
 * Header-only (static), next to test_sim_util.h. */
#ifndef RCSS_TEST_REF_UTIL_H
#define RCSS_TEST_REF_UTIL_H

#include <stdio.h>
#include <string.h>
#include "playmode.h"
#include "sim_ref.h"
#include "test_sim_util.h"

static char ref_log[8192];

static inline void ref_capture(void *ctx, const shm_event_sh_t *ev)
{
    (void)ctx;
    if (ev->kind != SHM_EV_REFEREE)
        return;
    size_t n = strlen(ref_log);
    snprintf(ref_log + n, sizeof ref_log - n, "%.*s;", (int)ev->len, ev->text);
}

/* a noise-free world with configuration changes (module, name, value triples, NULL
 * ended), both teams named, messages captured */
static inline void ref_world(sim_world_t *w, const char *const *sets)
{
    test_world(w, 1, 7);
    for (int i = 0; sets && sets[i]; i += 3)
        test_conf_set(sets[i], sets[i + 1], sets[i + 2]);
    test_init(w, &test_conf, NULL, 7);
    strcpy(w->team[0], "L");
    strcpy(w->team[1], "R");
    ref_log[0] = '\0';
    w->emit = ref_capture;
}

static inline void ref_mode(sim_world_t *w, int pm)
{
    sim_referee_set_mode(w, pm);
    ref_log[0] = '\0';
}

static inline void ref_ball(sim_world_t *w, double x, double y, double vx, double vy)
{
    w->ball.x = x;
    w->ball.y = y;
    w->ball.vx = vx;
    w->ball.vy = vy;
    w->ball.ax = w->ball.ay = 0.0;
}

static inline int ref_idx(int side, int unum)
{
    return shm_player_index(side, unum);
}

#endif
