/* lp.h -- rcss-logplayer: replays a game log (rcg.h) to UDP monitors (text protocol
 * versions 3-5, frames encoded by mgw_encode_show as live ones), under control of
 * commands read from stdin (lp_ctl.c, pure) -- play, pause, step, back, reverse, faster,
 * slower, jump CYCLE, first, last, status, quit. A monitor sends (dispinit version V) to
 * the player's port and is then served from a socket of its own (as the server does);
 * its (dispstart) plays, (dispbye) leaves. */
#ifndef RCSS_LP_H
#define RCSS_LP_H

#include <stddef.h>
#include "rcg.h"

#define LP_STEP_MS      100        /* one frame per 100 ms at speed 1, as the match ran */
#define LP_SPEED_MIN    (1.0 / 16.0)
#define LP_SPEED_MAX    64.0
#define LP_MAX_MONITORS 64

typedef struct lp_play {
    int    n;          /* frames */
    int    cur;        /* frame shown */
    int    dir;        /* +1 forward, -1 backwards */
    int    playing;    /* 1 while the timer moves cur */
    double speed;      /* frames per LP_STEP_MS */
} lp_play_t;

/* what a command or tick asks of the process */
enum {
    LP_OUT_FRAME = 1,  /* cur changed: send it (and, going forward by one, its messages) */
    LP_OUT_TIMER = 2,  /* playing or speed changed: re-arm the timer */
    LP_OUT_QUIT  = 4,
    LP_OUT_ERROR = 8   /* reply holds the error */
};

/* Stopped at the first frame, speed 1, forward. */
void lp_init(lp_play_t *p, int n_frames);
/* Apply one command line (spaces around it ignored). Returns LP_OUT_* flags; reply gets
 * the status line after it, or the error. */
int  lp_command(lp_play_t *p, const rcg_t *g, const char *line, char *reply, size_t len);
/* The timer fired while playing: one frame on in the current direction; at either end
 * playing stops there. Returns LP_OUT_* flags. */
int  lp_tick(lp_play_t *p);
/* "cycle 123 frame 45/6000 playing forward x2" */
void lp_status(const lp_play_t *p, const rcg_t *g, char *out, size_t len);
/* Milliseconds between ticks at p's speed. */
int  lp_period_ms(const lp_play_t *p);

#endif
