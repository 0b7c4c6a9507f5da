/* e2e_rcg.h -- helpers for the game-log version tests (test_074..079): a short match
 * recorded by the server in a given log version, with a live monitor of the protocol
 * that shows exactly what that log version keeps, its frames taken in lockstep with the
 * match (so none is skipped); monitor datagrams of every version back into frames; the
 * comparison of a log frame with a monitor frame.
 *
 *     e2e_rec_t r;
 *     e2e_rec_match(&r, 3, 0, NULL);          // a version 3 log, a v2 monitor watching
 *     rcg_read_file(r.path, &g, ...);
 *     e2e_rec_compare(&r, &g);                // every log frame = the monitor's frame
 *     e2e_rec_free(&r);                       // and the log directory removed */
#ifndef RCSS_E2E_RCG_H
#define RCSS_E2E_RCG_H

#include <stddef.h>
#include "disp.h"
#include "e2e.h"
#include "e2e_logs.h"
#include "rcg.h"

typedef struct e2e_frames {
    disp_show_t *f;
    int          n, cap;
} e2e_frames_t;

typedef struct e2e_rec {
    e2e_logdir_t       d;
    int                version;     /* server::game_log_version */
    int                mv;          /* the monitor's protocol version */
    char               path[512];   /* the log written */
    unsigned long long seed;        /* the server's random seed */
    e2e_frames_t       mon;         /* every show the monitor got, in order */
    int                msgs;        /* messages the monitor got */
} e2e_rec_t;

/* The monitor protocol that shows what game log version v keeps: v1 and v2 logs hold
 * showinfo_t (monitor 1), v3 the player_t of showinfo_t2 (monitor 2), v4-6 the text
 * show of monitor v-1, JSON the JSON monitor's. */
int  e2e_monitor_for_log(int version);

/* Record a match in log version (gzip level gz, 0 plain): two players (Red, Blue with a
 * goalie), Red's online coach "Coachy" uploading a team-graphic tile, the trainer's
 * kick-off, play_on and a shot into the right goal, one half of 30 cycles in synch mode,
 * a few cycles of time_over, a clean stop; extra server arguments (NULL-terminated, may
 * be NULL). A monitor of e2e_monitor_for_log(version) watches from before the kick-off.
 * Asserts on failure. */
void e2e_rec_match(e2e_rec_t *r, int version, int gz, const char *const *extra);
void e2e_rec_free(e2e_rec_t *r);

/* One monitor datagram of protocol version (binary ones of their fixed size, text and
 * JSON NUL-terminated) into out if it is a show: 1; 0 if it is something else; -1 if a
 * show that does not read. */
int  e2e_mon_show(const char *data, size_t len, int version, disp_show_t *out);

/* Log frame a and monitor frame m are the same cycle as monitor protocol mv shows it
 * (both encoded by mgw_encode_show_disp; what the log version lacks -- the JSON log's
 * focus point, the JSON monitor's counters -- left out of both). 1 same; 0 with why. */
int  e2e_same_frame(const disp_show_t *a, const disp_show_t *m, int mv, char *why, size_t len);

/* The log's frames against the monitor's: the monitor's shows after the kick-off (not
 * before_kick_off, a single time_over) one to one, each the same. Asserts. */
void e2e_rec_compare(const e2e_rec_t *r, const rcg_t *g);

#endif
