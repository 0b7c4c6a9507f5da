/* rec_fmt_json.c -- the JSON game log (server::game_log_version=-1;
 * docs/protocol/logs.md §1, §2), as the reference 19 lays it out: one JSON array, one
 * compact object per line, each line after the first ended by its comma:
 *   [
 *   {"version":"19.0.0"},
 *   {"timestamp":"2026-11-22T10:22:00+0000"},        start time, strftime %FT%T%z
 *   {"server_param":{..}}, {"player_param":{..}}, {"player_type":{..}} x N,
 *   {"playmode":..}, {"team":..}, {"show":..}, {"msg":..} as they come,
 *   {"msg":{.. "(result ..)"}}, the final {"team":..}, then "\n]\n".
 * Every item is written as ",\n" + object, so the file written so far is a valid JSON
 * array once "\n]" is added (what a reader does with a killed server's log). Shows are
 * the log form of common/disp_json.c (counters, no mode/team/focus point). */
#include <string.h>
#include <time.h>
#include "disp_json.h"
#include "mgw_encode.h"
#include "rcg_write.h"

#define REC_JSON_VERSION "19.0.0"   /* the reference version whose layout this is */

/* room for an object of up to REC_ITEM_MAX bytes after ",\n"; fill writes it (length or
 * -1). The separator is dropped with an object that could not be encoded. */
static char *item_room(rec_buf_t *b)
{
    char *d = rec_buf_room(b, REC_ITEM_MAX + 2);
    if (!d)
        return NULL;
    memcpy(d, ",\n", 2);
    return d + 2;
}

static int item_done(rec_buf_t *b, int n)
{
    if (n < 0)
        return -1;
    b->len += (size_t)n + 2;
    return b->oom ? -1 : 0;
}

static int head(rec_buf_t *b, const rec_head_t *h)
{
    char stamp[64] = "";
    time_t t = (time_t)h->start_time;
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%FT%T%z", &tm);
    rec_buf_printf(b, "[\n{\"version\":\"%s\"},\n{\"timestamp\":\"%s\"}", REC_JSON_VERSION, stamp);
    char *d;
    if (!(d = item_room(b)) || item_done(b, disp_json_server_param(h->conf, d, REC_ITEM_MAX)) < 0)
        return -1;
    if (!(d = item_room(b)) || item_done(b, disp_json_player_param(h->conf, d, REC_ITEM_MAX)) < 0)
        return -1;
    for (uint32_t i = 0; i < h->types->count && i < SHM_MAX_PTYPES; i++) {
        disp_ptype_t pt;
        mgw_ptype_from_shm(&h->types->type[i], (int)i, &pt);
        if (!(d = item_room(b)) || item_done(b, disp_json_player_type(&pt, d, REC_ITEM_MAX)) < 0)
            return -1;
    }
    return b->oom ? -1 : 0;
}

static int msg(rec_buf_t *b, int time, int stime, int board, const char *text, size_t len)
{
    static char t[REC_ITEM_MAX / 2]; /* escaped, it may take twice that */
    len = strnlen(text, len);
    if (len >= sizeof t)
        len = sizeof t - 1;
    memcpy(t, text, len);
    t[len] = '\0';
    char *d = item_room(b);
    return d ? item_done(b, disp_json_msg(time, stime, board, t, d, REC_ITEM_MAX)) : -1;
}

typedef int (*json_show_fn)(const disp_show_t *s, char *buf, size_t len);

static int show_item(rec_buf_t *b, const shm_snapshot_sh_t *s, json_show_fn fn)
{
    static disp_show_t d;
    mgw_show_from_snap(s, &d);
    char *out = item_room(b);
    return out ? item_done(b, fn(&d, out, REC_ITEM_MAX)) : -1;
}

static int show_log(const disp_show_t *s, char *buf, size_t len)
{
    return disp_json_show(s, DISP_JSON_LOG, buf, len);
}

static int playmode(rec_buf_t *b, const shm_snapshot_sh_t *s)
{
    return show_item(b, s, disp_json_playmode);
}

static int team(rec_buf_t *b, const shm_snapshot_sh_t *s)
{
    return show_item(b, s, disp_json_team);
}

static int show(rec_buf_t *b, const shm_snapshot_sh_t *s)
{
    return show_item(b, s, show_log);
}

static int show_disp(rec_buf_t *b, const disp_show_t *d)
{
    char *out = item_room(b);
    return out ? item_done(b, show_log(d, out, REC_ITEM_MAX)) : -1;
}

/* the final team object, then the array's end */
static int tail(rec_buf_t *b, const shm_snapshot_sh_t *last)
{
    int rc = team(b, last);
    rec_buf_add(b, "\n]\n", 3);
    return rc < 0 || b->oom ? -1 : 0;
}

const rec_fmt_t rec_fmt_json = { -1, 0, head, msg, playmode, team, show, tail, show_disp };
