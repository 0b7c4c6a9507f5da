/* rec_fmt_bin.c -- game log versions 1, 2 and 3: binary structs (see
 * docs/protocol/monitor.md §4; docs/protocol/logs.md §1, §2; common/disp_bin.c writes the structs).
 *   v1: no header; each item a whole 2052-byte dispinfo_t (SHOW_MODE + showinfo_t,
 *       MSG_MODE + msginfo_t); referee messages are recorded even without
 *       server::record_messages (the reference's rule for v1).
 *   v2: "ULG" 2, then int16 mode + payload: SHOW_MODE + showinfo_t (316 bytes, play mode
 *       and teams inside), MSG_MODE + int16 board + int16 length + the text without
 *       its NUL (length = strlen capped at 2048; an empty text is written as its NUL).
 *   v3: "ULG" 3, PARAM_MODE + server_params_t, PPARAM_MODE + player_params_t, PT_MODE +
 *       player_type_t per type; PM_MODE + 1 byte and TEAM_MODE + two team_t when they
 *       change; SHOW_MODE + short_showinfo_t2 (1428 bytes); messages as v2.
 * None has a final team item or any other tail (the reference's sendTail is empty). */
#include <string.h>
#include "disp_bin.h"
#include "mgw_encode.h"
#include "rcg_write.h"

static void put16(rec_buf_t *b, int v)
{
    uint8_t p[2] = { (uint8_t)((unsigned)v >> 8), (uint8_t)v };
    rec_buf_add(b, p, 2);
}

/* int16 mode, then the body */
static int chunk(rec_buf_t *b, int mode, const uint8_t *body, size_t len)
{
    put16(b, mode);
    rec_buf_add(b, body, len);
    return b->oom ? -1 : 0;
}

/* ---- version 1 ------------------------------------------------------------------------ */
static int head1(rec_buf_t *b, const rec_head_t *h)
{
    (void)h;
    return b->oom ? -1 : 0;
}

static int msg1(rec_buf_t *b, int time, int stime, int board, const char *text, size_t len)
{
    static uint8_t body[DISP_MSGINFO_SIZE], rec[DISP_V1_SIZE];
    static char t[DISP_MSG_TEXT_MAX];
    (void)time;
    (void)stime;
    if (len >= sizeof t)
        len = sizeof t - 1;
    memcpy(t, text, len);
    t[len] = '\0';
    disp_bin_msginfo(board, t, body);
    disp_bin_v1(DISP_MSG_MODE, body, sizeof body, rec);
    rec_buf_add(b, rec, sizeof rec);
    return b->oom ? -1 : 0;
}

static int show1_disp(rec_buf_t *b, const disp_show_t *d)
{
    uint8_t body[DISP_SHOWINFO_SIZE], rec[DISP_V1_SIZE];
    disp_bin_showinfo(d, body);
    disp_bin_v1(DISP_SHOW_MODE, body, sizeof body, rec);
    rec_buf_add(b, rec, sizeof rec);
    return b->oom ? -1 : 0;
}

static int show1(rec_buf_t *b, const shm_snapshot_sh_t *s)
{
    static disp_show_t d;
    mgw_show_from_snap(s, &d);
    return show1_disp(b, &d);
}

/* ---- versions 2 and 3 ---------------------------------------------------------------- */
static int magic(rec_buf_t *b, int version)
{
    uint8_t m[4] = { 'U', 'L', 'G', (uint8_t)version };
    rec_buf_add(b, m, 4);
    return b->oom ? -1 : 0;
}

static int head2(rec_buf_t *b, const rec_head_t *h)
{
    (void)h;
    return magic(b, 2);
}

static int head3(rec_buf_t *b, const rec_head_t *h)
{
    uint8_t body[DISP_SERVER_PARAMS_SIZE];
    magic(b, 3);
    disp_bin_server_params(h->conf, body);
    chunk(b, DISP_PARAM_MODE, body, DISP_SERVER_PARAMS_SIZE);
    disp_bin_player_params(h->conf, body);
    chunk(b, DISP_PPARAM_MODE, body, DISP_PLAYER_PARAMS_SIZE);
    for (uint32_t i = 0; i < h->types->count && i < SHM_MAX_PTYPES; i++) {
        disp_ptype_t t;
        mgw_ptype_from_shm(&h->types->type[i], (int)i, &t);
        disp_bin_player_type(&t, body);
        chunk(b, DISP_PT_MODE, body, DISP_PLAYER_TYPE_SIZE);
    }
    return b->oom ? -1 : 0;
}

/* board, length, the text without its NUL; an empty text is its NUL alone */
static int msg23(rec_buf_t *b, int time, int stime, int board, const char *text, size_t len)
{
    (void)time;
    (void)stime;
    len = strnlen(text, len);
    if (len > DISP_MSG_TEXT_MAX)
        len = DISP_MSG_TEXT_MAX;
    put16(b, DISP_MSG_MODE);
    put16(b, board);
    put16(b, len ? (int)len : 1);
    rec_buf_add(b, len ? text : "", len ? len : 1);
    return b->oom ? -1 : 0;
}

static int show2_disp(rec_buf_t *b, const disp_show_t *d)
{
    uint8_t body[DISP_SHOWINFO_SIZE];
    disp_bin_showinfo(d, body);
    return chunk(b, DISP_SHOW_MODE, body, sizeof body);
}

static int show2(rec_buf_t *b, const shm_snapshot_sh_t *s)
{
    static disp_show_t d;
    mgw_show_from_snap(s, &d);
    return show2_disp(b, &d);
}

static int playmode3(rec_buf_t *b, const shm_snapshot_sh_t *s)
{
    uint8_t pm = (uint8_t)s->play_mode;
    return chunk(b, DISP_PM_MODE, &pm, 1);
}

static int team3(rec_buf_t *b, const shm_snapshot_sh_t *s)
{
    static disp_show_t d;
    uint8_t body[2 * DISP_TEAM_SIZE];
    mgw_show_from_snap(s, &d);
    disp_bin_teams(&d, body);
    return chunk(b, DISP_TEAM_MODE, body, sizeof body);
}

static int show3_disp(rec_buf_t *b, const disp_show_t *d)
{
    static uint8_t body[DISP_SHORT_SHOWINFO2_SIZE];
    disp_bin_short_showinfo2(d, body);
    return chunk(b, DISP_SHOW_MODE, body, sizeof body);
}

static int show3(rec_buf_t *b, const shm_snapshot_sh_t *s)
{
    static disp_show_t d;
    mgw_show_from_snap(s, &d);
    return show3_disp(b, &d);
}

const rec_fmt_t rec_fmt_v1 = { 1, 1, head1, msg1, NULL, NULL, show1, NULL, show1_disp };
const rec_fmt_t rec_fmt_v2 = { 2, 0, head2, msg23, NULL, NULL, show2, NULL, show2_disp };
const rec_fmt_t rec_fmt_v3 = { 3, 0, head3, msg23, playmode3, team3, show3, NULL, show3_disp };
