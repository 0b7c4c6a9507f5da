/* rec.h -- rcss-recorder: the game log (.rcg), the text log (.rcl) and the keepaway log
 * (.kwy), written from the region's snapshot and event rings in a process of its own, so
 * the sim never waits on a disk and a crashed gateway loses nothing (see
 * docs/protocol/logs.md §6; docs/protocol/referee.md §14).
 * The game log formats themselves (writers and readers) are monitorgw/rcg/ (rcg_write.h,
 * rcg.h).
 *   rec_game.c      what the game log says when (shows, play modes, teams, messages,
 *                   result), independent of the format
 *   rec_text.c      text log lines
 *   rec_file.c      files: buffered, flushed once a second as whole lines (gzip: one
 *                   complete member per flush), truncated back on a resume, renamed
 *   rec_kwy.c       the keepaway log (.kwy): header and one row per episode, written
 *                   through, resumed from its own rows
 *   rec_runner.c    the runner interface: finish on request, final names published,
 *                   episodes (resets) named apart
 *   rec_main.c      the process: follow the rings, flush, resume, finish */
#ifndef RCSS_REC_H
#define RCSS_REC_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "conf.h"
#include "disp.h"
#include "logpath.h"
#include "shm.h"
#include "rcg_write.h"

#define REC_FLUSH_MS      1000      /* a kill -9 loses at most this much */
#define REC_FLUSH_BYTES   (4u << 20) /* or this much buffered */
#define REC_FLUSH_SNAPS   (SHM_SNAP_SLOTS / 2) /* or this many snapshots: in synch mode the
                                                  sim keeps what is not on disk in its ring */
#define REC_FLUSH_EVENTS  (SHM_EVENT_SLOTS / 8)
#define REC_ATTACH_WAIT_MS 5000


/* ---- rec_game.c: what is written when (docs/protocol/logs.md §3) ---- */
typedef struct rec_game {
    const rec_fmt_t     *fmt;
    int                  record_messages; /* server::record_messages */
    rec_buf_t           *out;
    shm_rec_state_sh_t  *st;              /* writer state: last play mode, team line, ... */
} rec_game_t;

/* The file's head (nothing else: the seed is on stdout and in result.json, not in the
 * log, as the reference writes none). */
void rec_game_start(rec_game_t *g, const rec_head_t *h);
/* One complete event (text assembled from its parts); snap is the snapshot it belongs
 * to (published after it; st->prev_pm is the play mode before that snapshot's step). */
void rec_game_event(rec_game_t *g, const shm_event_sh_t *ev, const char *text, size_t len,
                    const shm_snapshot_sh_t *snap);
/* One published snapshot: (playmode) and (team) when changed, then the show; nothing
 * before the kick-off and a single show once time is over. */
void rec_game_snapshot(rec_game_t *g, const shm_snapshot_sh_t *s);
/* Snapshots the recorder could not read: a board-2 note so readers of the log know. */
void rec_game_lost(rec_game_t *g, int time, uint64_t snaps, uint64_t events);
/* End of match: (result YYYYMMDDHHMM TEAMINFO) on board 1, then the format's tail (the
 * final team item, JSON's closing bracket). */
void rec_game_finish(rec_game_t *g, const shm_snapshot_sh_t *last, int64_t start_time,
                     const char *teaminfo);

/* The team info of the final file names for snapshot s and the coach names seen. */
int  rec_teaminfo(const shm_snapshot_sh_t *s, const char coach[2][SHM_TEAM_NAME_LEN],
                  char *out, size_t len);

/* ---- rec_text.c: text log lines (docs/protocol/logs.md §6) ---- */
/* "TIME,STOPPAGE\tRecv TEAM_UNUM: raw" (players), "Recv Coach: raw" (trainer),
 * "Recv TEAM_Coach: raw" (online coaches), "(referee msg)"; other kinds write nothing.
 * team holds the names of the snapshot the event belongs to. Returns 1 if a line was
 * appended. */
int  rec_text_line(rec_buf_t *b, const shm_event_sh_t *ev, const char *text, size_t len,
                   const char team[2][SHM_TEAM_NAME_LEN]);
/* server::log_times: "TIME,STOPPAGE<TAB>CYCLE_TIMES: MS" with the milliseconds between
 * the publication of prev and of s, at prev's time (the reference writes the time since
 * the previous step when a step begins). */
void rec_text_times(rec_buf_t *b, const shm_snapshot_sh_t *prev, const shm_snapshot_sh_t *s);
/* "Recv ..." as in the text log, without time (the game log's board-2 copies). */
int  rec_text_recv(char *out, size_t cap, const shm_event_sh_t *ev, const char *text,
                   size_t len, const char team[2][SHM_TEAM_NAME_LEN]);

/* ---- rec_file.c ---- */
typedef struct rec_file {
    int        fd;            /* -1 closed */
    int        level;         /* gzip level 1..9, 0 plain */
    char       path[LOGPATH_MAX];
    rec_buf_t  buf;           /* bytes not on disk yet (whole items only) */
    uint64_t   bytes;         /* bytes on disk */
    int        failed;        /* a write failed: reported once, data dropped since */
} rec_file_t;

/* Open path for writing. resume_bytes < 0: a new file (truncated). Otherwise an existing
 * file of a previous recorder cut back to resume_bytes (what that recorder had flushed
 * as whole items), to be continued. 0, or -1 with err. */
int  rec_file_open(rec_file_t *f, const char *path, int level, int64_t resume_bytes,
                   char *err, size_t errlen);
/* Put the buffered bytes on disk with one write: as they are, or (level > 0) as one
 * complete gzip member, so the file is valid gzip after every flush. 0, or -1 with err
 * (the buffer is dropped, f->failed set). */
int  rec_file_flush(rec_file_t *f, char *err, size_t errlen);
/* Flush, sync and close. */
int  rec_file_close(rec_file_t *f, char *err, size_t errlen);
/* Rename the (closed or open) file to path; 0 or -1 with err. */
int  rec_file_rename(rec_file_t *f, const char *path, char *err, size_t errlen);
/* Compress data as one gzip member at level into out (tests and the flush). 0 or -1. */
int  rec_gzip_member(const void *data, size_t len, int level, rec_buf_t *out);

/* ---- rec_kwy.c: the keepaway log (docs/protocol/referee.md §14) ---- */
typedef struct rec_kwy {
    rec_file_t file;
    int        header;        /* the "#" header is in the file */
    int        last;          /* number of the last episode row in the file, 0 none */
} rec_kwy_t;

/* The header the first play_on writes: keepers, takers, the region (%g, as the
 * reference streams reals), the field descriptions. */
void   rec_kwy_header(rec_buf_t *b, int keepers, int takers, double length, double width);
/* One finished episode: "EPISODE\tSTART\tEND\tDURATION\tWHY\n", why "o" or "t". */
void   rec_kwy_row(rec_buf_t *b, int episode, int start, int end, const char *why);
/* The keepaway log's name in dir (as logpath_dir gives it). Running (final 0): FIXED.kwy
 * with keepaway_log_fixed (keepaway_log_fixed_name, "-rN" added after a reset), else
 * incomplete.kwy. Final: [DATE][rN-]TEAMINFO.kwy, DATE the log_date_format of start when
 * keepaway_log_dated (the reference's rule for every log). 0, or -1 if it does not fit. */
int    rec_kwy_name(const conf_t *c, const char *dir, uint32_t episode, int final,
                    time_t start, const char *teaminfo, char *out, size_t len);
/* What a file's text holds: sets *header (a "# Keepers:" line) and *last (the number of
 * its last row, 0 none); returns the length of its whole lines (a last line without its
 * newline was cut by a kill and is not counted). */
size_t rec_kwy_scan(const char *text, size_t len, int *header, int *last);
/* Open path: truncated, or (resume) an existing file cut back to its whole lines, its
 * header and last row remembered so they are not written again. 0, or -1 with err. */
int    rec_kwy_open(rec_kwy_t *k, const char *path, int resume, char *err, size_t errlen);
/* One SHM_EV_KEEPAWAY event (others are ignored): the header (arg 0) or episode arg's row,
 * unless the file has it already, put on disk at once. 0, or -1 with err. */
int    rec_kwy_event(rec_kwy_t *k, const shm_event_sh_t *ev, const char *text, size_t len,
                     const conf_t *c, char *err, size_t errlen);

/* ---- rec_runner.c ---- */
/* 1 once the sim said the match is over (finish the logs now). */
int  rec_runner_finish_asked(const shm_region_sh_t *r);
/* The final paths of the logs of episode ("" for one not written), for result.json. */
void rec_runner_names(shm_region_sh_t *r, uint32_t episode, const char *game, const char *text);
/* The date format of the final names of episode (episode 0: date_fmt as it is; N >= 1:
 * date_fmt + "rN-", or "rN-" alone when undated) into fmt; returns whether to date. */
int  rec_runner_date(const char *date_fmt, int dated, uint32_t episode, char *fmt, size_t len);
/* The fixed log name of episode: name, or name + "-rN". */
void rec_runner_fixed(const char *name, uint32_t episode, char *out, size_t len);

#endif
