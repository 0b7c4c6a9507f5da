/* lp.h -- rcss-logplayer: replays a game log of any version (rcg.h) to UDP monitors of
 * every protocol version (1, 2 with its init block, 3-5, JSON; frames encoded by the
 * live encoders, proto/mgw_encode.c) and to browsers (the monitor page of web/ with replay
 * controls), under commands from stdin, the page and the monitors' (dispstart):
 * play, pause, step, back, reverse, faster, slower, speed X, jump CYCLE, first, last,
 * status, quit.
 *   lp_ctl.c   the playback state and its commands (pure)
 *   lp_mon.c   UDP monitors: registration, init blocks, frames, messages
 *   lp_http.c  the page: frames and the playback state as server-sent events, commands
 *   lp_main.c  options, startup, stdin, the timer */
#ifndef RCSS_LP_H
#define RCSS_LP_H

#include <stddef.h>
#include <sys/socket.h>
#include <event2/event.h>
#include "mgw_encode.h"
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

/* ---- lp_ctl.c (pure) ---- */
/* Stopped at the first frame, speed 1, forward. */
void lp_init(lp_play_t *p, int n_frames);
/* Apply one command line (spaces around it ignored). Returns LP_OUT_* flags; reply gets
 * the status line after it, or the error. */
int  lp_command(lp_play_t *p, const rcg_t *g, const char *line, char *reply, size_t len);
/* The timer fired while playing: one frame on in the current direction; at either end
 * playing stops there. Returns LP_OUT_* flags. */
int  lp_tick(lp_play_t *p);
/* "cycle 123 frame 45/6000 playing forward x2 play_on" */
void lp_status(const lp_play_t *p, const rcg_t *g, char *out, size_t len);
/* {"replay":{"cycle":123,"frame":45,"frames":6000,"playing":true,"dir":"forward",
 * "speed":2,"mode":"play_on","first":1,"last":6000,"version":6,"cmd":true}} for the page
 * ("cmd": the state after a command, not after a tick of the timer); its length, -1 if
 * len is too small */
int  lp_status_json(const lp_play_t *p, const rcg_t *g, int after_cmd, char *out, size_t len);
/* Milliseconds between ticks at p's speed. */
int  lp_period_ms(const lp_play_t *p);

/* ---- the process (lp_main.c, lp_mon.c, lp_http.c) ---- */
typedef struct lp_mon {
    int            used;
    int            version;     /* 1..5, -1 */
    int            fd;          /* connected to the monitor */
    struct sockaddr_storage addr;
    struct event  *ev;
    struct lp     *lp;
} lp_mon_t;

typedef struct lp {
    rcg_t               log;
    lp_play_t           play;
    char                bind[64];
    int                 fd;               /* the port monitors send their dispinit to */
    struct event_base  *base;
    struct event       *listen_ev, *stdin_ev, *tick_ev, *sig_ev[2];
    struct sse         *http;             /* NULL without --http-port */
    char                token[64];        /* --http-token: the page's commands need it */
    lp_mon_t            mon[LP_MAX_MONITORS];
    int                 shown;            /* frame last sent */
    int                 enc_frame[MGW_NVER];  /* frame encoded in enc[v] */
    int                 enc_len[MGW_NVER];
    char                enc[MGW_NVER][MGW_FRAME_MAX];
    char                line[4096];       /* stdin bytes of an unfinished line */
    size_t              line_len;
} lp_t;

/* Apply a command line from anywhere (stdin, the page, a monitor's dispstart): frames,
 * timer, and the state to the page (always, even when nothing moved: the page waits for
 * it). reply gets the status line or the error; the flags. */
int  lp_apply(lp_t *lp, const char *cmd, char *reply, size_t len);

/* lp_mon.c */
void lp_mon_listen(evutil_socket_t fd, short what, void *arg);  /* the dispinit port */
/* The current frame to every monitor (played forward by one frame: first the messages
 * that came between the two). */
void lp_mon_frame(lp_t *lp);
void lp_mon_close_all(lp_t *lp);

/* lp_http.c */
/* Serve the page on port (0: none). 0, or -1 with a message on stderr. */
int  lp_http_start(lp_t *lp, int port);
void lp_http_stop(lp_t *lp);
/* the current frame, and the playback state (after_cmd: after a command), to every
 * viewer */
void lp_http_frame(lp_t *lp);
void lp_http_status(lp_t *lp, int after_cmd);

#endif
