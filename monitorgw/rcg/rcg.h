/* rcg.h -- reading game logs back, for rcss-logplayer and the round-trip tests (writing
 * them: rcg_write.h in the same folder). A log of any version (docs/protocol/logs.md §1,
 * §2), plain or gzip (zlib's gzread takes both, and gzip files of several members), is
 * read whole into
 *   - frames: one disp_show_t per show, with the play mode, team names, scores and
 *     penalties in force at that show (from the show itself or from the log's play-mode
 *     and team items), so the monitor encoders serve it as they serve a live cycle;
 *   - messages in file order, each frame knowing which ones came before it;
 *   - the parameters and player types the log gives (v3 and later), over the defaults.
 *   rcg_read.c  files, version detection, then the version's reader
 *   rcg_store.c frames, messages and types as the readers add them (the builder), lookups
 *   rcg_text.c  versions 4-6: one item per line
 *   rcg_show.c  a (show ...) line of a text log or a v3-v5 monitor
 *   rcg_bin.c   versions 1-3: binary structs (common/disp_bin.c reads them)
 *   rcg_json.c  the JSON log (an array of objects)
 * Malformed items are skipped and counted, never fatal. A file cut inside an item (a
 * killed writer, a cut download) reads up to the last whole item, and says so in note. */
#ifndef RCSS_RCG_H
#define RCSS_RCG_H

#include <stddef.h>
#include <stdint.h>
#include "conf.h"
#include "disp.h"
#include "shm_layout.h"

#define RCG_JSON_VERSION (-1)

typedef struct rcg_msg {
    int   time;
    int   board;          /* 1 MSG_BOARD, 2 LOG_BOARD */
    char *text;           /* as in the log, NUL-terminated */
} rcg_msg_t;

typedef struct rcg_frame {
    disp_show_t show;
    int         msg_end;  /* messages [0, msg_end) came before this frame */
} rcg_frame_t;

typedef struct rcg {
    int             version;      /* 1..6, or RCG_JSON_VERSION */
    int             has_params;   /* the log gave its server parameters (v3+) */
    conf_t          conf;         /* the log's parameters over the defaults */
    shm_ptypes_sh_t types;        /* the log's player types (count 0: none given) */
    rcg_frame_t    *frame;
    int             n_frames;
    rcg_msg_t      *msg;
    int             n_msgs;
    int             has_seed;     /* the note "(rcssserver-shm (random_seed N) ...)" that this
                                     server's earlier versions wrote first */
    uint64_t        seed;
    int             bad_items;    /* items (lines, records, objects) skipped as malformed */
    int             truncated;    /* the file ends inside an item (or its gzip stream is cut) */
    char            note[256];    /* what the reader has to say about the file, "" if nothing */
    /* the builder's state while reading */
    int             cap_frames, cap_msgs;
    disp_show_t     cur;          /* play mode, teams, scores in force */
} rcg_t;

/* Read a game log file (plain or gzip). 0, or -1 with a one-line err (not a game log, an
 * unknown version, unreadable). The log is usable after 0 even when note says it is cut. */
int  rcg_read_file(const char *path, rcg_t *g, char *err, size_t errlen);
/* The same from memory (uncompressed bytes). */
int  rcg_read_mem(const char *data, size_t len, rcg_t *g, char *err, size_t errlen);
void rcg_free(rcg_t *g);

/* The first frame whose time is >= cycle (n_frames - 1 if none). */
int  rcg_frame_at(const rcg_t *g, int cycle);

/* Parse one (show ...) line, in the log form "(show T ((b) ...) ...)" or the monitor form
 * with (pm N) and (tm ...), into s (ball, players, time; play mode and teams only if the
 * line has them: s keeps its own otherwise). 0, or -1 if malformed. */
int  rcg_parse_show(const char *line, disp_show_t *s);

/* The same for a JSON show object {"show":{...}} (a JSON monitor's frame, or a line of a
 * JSON log without its comma). 0, or -1 if malformed. */
int  rcg_json_show(const char *text, size_t len, disp_show_t *s);

/* ---- the builder, for the format readers ---- */
/* A frame, d as it is (a reader whose format gives the play mode and teams apart fills
 * them from g->cur first). 0 or -1 (out of memory). */
int  rcg_add_frame(rcg_t *g, const disp_show_t *d);
/* A message text[0..n) (cut at a NUL); the random-seed note is recognised. 0 or -1. */
int  rcg_add_msg(rcg_t *g, int time, int board, const char *text, size_t n);
/* A player type (id within SHM_MAX_PTYPES; a later one of the same id replaces it). */
void rcg_add_ptype(rcg_t *g, const disp_ptype_t *t);
/* Note why the file ends early: printf-style, kept if a note is there already. */
void rcg_note(rcg_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The readers: data[0..len) after the version's header. 0, or -1 on out of memory. */
int  rcg_text_read(rcg_t *g, const char *data, size_t len);
int  rcg_bin_read(rcg_t *g, const uint8_t *data, size_t len);
int  rcg_json_read(rcg_t *g, const char *data, size_t len);
/* The (server_param ...), (player_param ...) and (player_type ...) lines of a text log:
 * values set on g->conf / a type added. 0, or -1 if the line is not one of them. */
int  rcg_text_params(rcg_t *g, const char *line, size_t n);

#endif
