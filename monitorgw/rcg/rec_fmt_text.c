/* rec_fmt_text.c -- game log versions 4, 5 and 6: one text line per item (see
 * docs/protocol/logs.md §1, §2). The header line "ULGn", the parameter messages of a
 * v3+ monitor, (msg T B "text") with newlines turned into spaces, (playmode T name),
 * (team T L R SL SR [penalties]) and (show T ...) as the monitor show of version n - 1
 * without its (pm) and (tm) parts (disp_text_show with DISP_TEXT_LOG). */
#include <string.h>
#include "disp_text.h"
#include "mgw_encode.h"
#include "param_msg.h"
#include "playmode.h"
#include "rcg_write.h"

/* a parameter message of length n just written at the buffer's end, then a newline */
static int add_param(rec_buf_t *b, int n)
{
    if (n < 0)
        return -1;
    b->len += (size_t)n;
    rec_buf_add(b, "\n", 1);
    return 0;
}

static int text_head(rec_buf_t *b, const rec_head_t *h, int version)
{
    char *d;
    rec_buf_printf(b, "ULG%d\n", version);
    if (!(d = rec_buf_room(b, REC_ITEM_MAX))
        || add_param(b, param_msg_server(h->conf, PARAM_MSG_ALL, d, REC_ITEM_MAX)) < 0)
        return -1;
    if (!(d = rec_buf_room(b, REC_ITEM_MAX))
        || add_param(b, param_msg_player(h->conf, PARAM_MSG_ALL, d, REC_ITEM_MAX)) < 0)
        return -1;
    for (uint32_t i = 0; i < h->types->count && i < SHM_MAX_PTYPES; i++) {
        if (!(d = rec_buf_room(b, REC_ITEM_MAX))
            || add_param(b, param_msg_type(&h->types->type[i], (int)i, PARAM_MSG_ALL, d,
                                           REC_ITEM_MAX)) < 0)
            return -1;
    }
    return b->oom ? -1 : 0;
}

static int head4(rec_buf_t *b, const rec_head_t *h) { return text_head(b, h, 4); }
static int head5(rec_buf_t *b, const rec_head_t *h) { return text_head(b, h, 5); }
static int head6(rec_buf_t *b, const rec_head_t *h) { return text_head(b, h, 6); }

static int text_msg(rec_buf_t *b, int time, int stime, int board, const char *text, size_t len)
{
    (void)stime;
    rec_buf_printf(b, "(msg %d %d \"", time, board);
    rec_buf_add_line(b, text, len);
    rec_buf_add(b, "\")\n", 3);
    return b->oom ? -1 : 0;
}

static int text_playmode(rec_buf_t *b, const shm_snapshot_sh_t *s)
{
    rec_buf_printf(b, "(playmode %d %s)\n", s->time, playmode_name(s->play_mode));
    return b->oom ? -1 : 0;
}

static int text_team(rec_buf_t *b, const shm_snapshot_sh_t *s)
{
    rec_buf_printf(b, "(team %d %s %s %d %d", s->time, s->team[0][0] ? s->team[0] : "null",
                   s->team[1][0] ? s->team[1] : "null", s->score[0], s->score[1]);
    if (s->pen_score[0] + s->pen_miss[0] > 0 || s->pen_score[1] + s->pen_miss[1] > 0)
        rec_buf_printf(b, " %d %d %d %d", s->pen_score[0], s->pen_miss[0], s->pen_score[1],
                       s->pen_miss[1]);
    rec_buf_add(b, ")\n", 2);
    return b->oom ? -1 : 0;
}

static int text_show_disp(rec_buf_t *b, const disp_show_t *d, int monitor_version)
{
    char *out = rec_buf_room(b, REC_ITEM_MAX);
    if (!out)
        return -1;
    int n = disp_text_show(d, monitor_version, DISP_TEXT_LOG, out, REC_ITEM_MAX - 1);
    if (n < 0)
        return -1;
    b->len += (size_t)n;
    rec_buf_add(b, "\n", 1);
    return b->oom ? -1 : 0;
}

static int text_show(rec_buf_t *b, const shm_snapshot_sh_t *s, int monitor_version)
{
    static disp_show_t d;
    mgw_show_from_snap(s, &d);
    return text_show_disp(b, &d, monitor_version);
}

static int show4(rec_buf_t *b, const shm_snapshot_sh_t *s) { return text_show(b, s, 3); }
static int show5(rec_buf_t *b, const shm_snapshot_sh_t *s) { return text_show(b, s, 4); }
static int show6(rec_buf_t *b, const shm_snapshot_sh_t *s) { return text_show(b, s, 5); }
static int disp4(rec_buf_t *b, const disp_show_t *d) { return text_show_disp(b, d, 3); }
static int disp5(rec_buf_t *b, const disp_show_t *d) { return text_show_disp(b, d, 4); }
static int disp6(rec_buf_t *b, const disp_show_t *d) { return text_show_disp(b, d, 5); }

/* after the result message: the final team line (the reference's sendTail) */
static int text_tail(rec_buf_t *b, const shm_snapshot_sh_t *last)
{
    return text_team(b, last);
}

const rec_fmt_t rec_fmt_v4 = { 4, 0, head4, text_msg, text_playmode, text_team, show4,
                                text_tail, disp4 };
const rec_fmt_t rec_fmt_v5 = { 5, 0, head5, text_msg, text_playmode, text_team, show5,
                                text_tail, disp5 };
const rec_fmt_t rec_fmt_v6 = { 6, 0, head6, text_msg, text_playmode, text_team, show6,
                                text_tail, disp6 };
