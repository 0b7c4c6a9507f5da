/* rcg_write.h -- writing the game log (.rcg) in every version: the growable buffer the
 * writers append to (rec_buf.c) and one writer module per format family (rec_fmt.c finds
 * them by version): versions 1, 2, 3 binary structs (rec_fmt_bin.c), 4, 5, 6 text lines
 * (rec_fmt_text.c), -1 one JSON array (rec_fmt_json.c). What is written when is the
 * recorder's (monitorgw/recorder/rec_game.c); reading a log back is rcg.h. */
#ifndef RCSS_RCG_WRITE_H
#define RCSS_RCG_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include "conf.h"
#include "disp.h"
#include "shm.h"

#define REC_BOARD_MSG     1         /* MSG_BOARD */
#define REC_BOARD_LOG     2         /* LOG_BOARD */
#define REC_ITEM_MAX      65536     /* longest single item (a show, the server_param line) */

/* ---- rec_buf.c ---- */
typedef struct rec_buf {
    char   *p;
    size_t  len;
    size_t  cap;
    int     oom;         /* an allocation failed: later appends are dropped */
} rec_buf_t;

/* Room for n more bytes at p + len; NULL (and oom set) if it cannot be had. */
char *rec_buf_room(rec_buf_t *b, size_t n);
void  rec_buf_add(rec_buf_t *b, const void *data, size_t n);
void  rec_buf_printf(rec_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append text with every '\n' turned into ' ' (one item, one line). */
void  rec_buf_add_line(rec_buf_t *b, const char *text, size_t n);
void  rec_buf_clear(rec_buf_t *b);
void  rec_buf_free(rec_buf_t *b);

/* ---- rec_fmt.c: one module per format family ---- */
typedef struct rec_head {
    const conf_t          *conf;
    const shm_ptypes_sh_t *types;
    int64_t                start_time;  /* time_t of the match start (JSON timestamp) */
} rec_head_t;

/* Each member appends one item to b (returns 0, -1 if it could not be encoded). A NULL
 * member means the format has no such item (v1 and v2 have no play-mode or team chunk,
 * v1 no header). msg gets text[0..len) (not necessarily NUL-terminated) and the
 * stoppage-time counter stime (only JSON writes it). tail ends the file after the result
 * message: the final team item of v4+ and JSON (last = the last snapshot), JSON's "]".
 * show_disp writes the show item of a disp_show_t (show converts the snapshot and calls
 * it), so a frame read back is written again exactly as the log has it. */
typedef struct rec_fmt {
    int   version;                                     /* server::game_log_version */
    int   referee_always; /* referee messages even without server::record_messages
                             (the reference's rule for v1 logs) */
    int (*head)(rec_buf_t *b, const rec_head_t *h);    /* magic, parameters, types */
    int (*msg)(rec_buf_t *b, int time, int stime, int board, const char *text, size_t len);
    int (*playmode)(rec_buf_t *b, const shm_snapshot_sh_t *s);
    int (*team)(rec_buf_t *b, const shm_snapshot_sh_t *s);
    int (*show)(rec_buf_t *b, const shm_snapshot_sh_t *s);
    int (*tail)(rec_buf_t *b, const shm_snapshot_sh_t *last);
    int (*show_disp)(rec_buf_t *b, const disp_show_t *d);
} rec_fmt_t;

/* The format of a game_log_version, NULL if this server does not write it. */
const rec_fmt_t *rec_fmt_find(int version);
/* The versions it writes, for error messages ("1, 2, 3, 4, 5, 6, -1"). */
const char *rec_fmt_versions(void);

extern const rec_fmt_t rec_fmt_v1, rec_fmt_v2, rec_fmt_v3;
extern const rec_fmt_t rec_fmt_v4, rec_fmt_v5, rec_fmt_v6;
extern const rec_fmt_t rec_fmt_json;

#endif
