/* rcg.h -- reading game logs back: rcss-logplayer and the round-trip tests. A log is
 * read whole (plain or gzip; zlib's gzread takes both, and gzip files of several members)
 * into frames: one shm_snapshot_sh_t per show, with the play mode, team names and
 * scores in force at that show, so the monitor encoders (mgw_encode_show) serve it as
 * they serve a live snapshot. The messages of the log are kept in file order, each
 * frame knowing which ones came before it. Versions read: 4, 5, 6 (text); the binary and
 * JSON versions are recognised and refused with a clear message for now.
 * Malformed or truncated lines are skipped and counted, never fatal. */
#ifndef RCSS_RCG_H
#define RCSS_RCG_H

#include <stddef.h>
#include <stdint.h>
#include "shm_layout.h"

typedef struct rcg_msg {
    int   time;
    int   board;          /* 1 MSG_BOARD, 2 LOG_BOARD */
    char *text;           /* as in the log, NUL-terminated */
} rcg_msg_t;

typedef struct rcg_frame {
    shm_snapshot_sh_t snap;
    int               msg_end;  /* messages [0, msg_end) came before this frame */
} rcg_frame_t;

typedef struct rcg {
    int          version;       /* 4, 5, 6 */
    char        *server_param;  /* "(server_param ...)" as in the log, or NULL */
    char        *player_param;
    char       **player_type;   /* n_types lines "(player_type ...)" */
    int          n_types;
    rcg_frame_t *frame;
    int          n_frames;
    rcg_msg_t   *msg;
    int          n_msgs;
    int          has_seed;      /* this server's note "(rcssserver-shm (random_seed N) ...)" */
    uint64_t     seed;
    int          bad_lines;     /* lines skipped as malformed */
} rcg_t;

/* Read a game log file (plain or gzip). 0, or -1 with a one-line err. */
int  rcg_read_file(const char *path, rcg_t *g, char *err, size_t errlen);
/* The same from memory (uncompressed bytes). */
int  rcg_read_mem(const char *data, size_t len, rcg_t *g, char *err, size_t errlen);
void rcg_free(rcg_t *g);

/* Parse one (show ...) line, in the log form "(show T ((b) ...) ...)" or the monitor
 * form with (pm N) and (tm ...), into s (ball, players, time; play mode and teams only if
 * the line has them). 0, or -1 if malformed. */
int  rcg_parse_show(const char *line, shm_snapshot_sh_t *s);
/* The first frame whose time is >= cycle (n_frames - 1 if none). */
int  rcg_frame_at(const rcg_t *g, int cycle);

#endif
