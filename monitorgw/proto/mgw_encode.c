/* mgw_encode.c -- every datagram a monitor gets, per protocol version (see
 * docs/protocol/monitor.md §2-§5): the snapshot as the monitor protocols see it
 * (disp_show_t), then the binary (v1, v2), text (v3-v5) and JSON (-1) encoders of
 * common/disp_*.c. Pure: monitorgw calls these once per version per cycle. Text and
 * JSON datagrams carry their terminating NUL, binary ones their fixed size. */
#include <stdio.h>
#include <string.h>
#include "disp_bin.h"
#include "disp_json.h"
#include "disp_text.h"
#include "geom.h"
#include "mgw_encode.h"
#include "param_msg.h"

/* view width in degrees, as the reference's visibleAngle() (synch-see: 60/120/180) */
static double view_width_deg(const shm_player_sh_t *p)
{
    if (p->synch_see)
        return p->view_width == SHM_VIEW_NARROW ? 60 : p->view_width == SHM_VIEW_WIDE ? 180 : 120;
    return p->view_width == SHM_VIEW_NARROW ? 45 : p->view_width == SHM_VIEW_WIDE ? 180 : 90;
}

static void player_from_snap(const shm_player_sh_t *p, int idx, disp_player_t *d)
{
    d->side = idx < SHM_TEAM_SIZE ? 1 : -1;
    d->unum = idx % SHM_TEAM_SIZE + 1;
    d->enabled = p->enabled != 0;
    d->type = p->enabled ? p->type : 0;
    d->state = p->state;
    d->x = p->x;
    d->y = p->y;
    d->vx = p->vx;
    d->vy = p->vy;
    d->body = angle_norm(p->body);
    d->neck = angle_norm(p->neck);
    d->view_high = p->view_high != 0;
    d->view_width = view_width_deg(p);
    d->stamina = p->stamina;
    d->effort = p->effort;
    d->recovery = p->recovery;
    d->capacity = p->capacity;
    d->focus_dist = p->focus_dist;
    d->focus_dir = p->focus_dir;
    d->pointing = p->enabled && p->arm_expires > 0;
    d->point_x = p->point_x;
    d->point_y = p->point_y;
    d->focus_side = p->focus_side == SHM_SIDE_LEFT ? 1 : p->focus_side == SHM_SIDE_RIGHT ? -1 : 0;
    d->focus_unum = p->focus_unum;
    for (int k = 0; k < DISP_CNT_N && k < SHM_CNT_N; k++)
        d->count[k] = p->count[k];
}

void mgw_show_from_snap(const shm_snapshot_sh_t *s, disp_show_t *d)
{
    memset(d, 0, sizeof *d);
    d->time = s->time;
    d->stime = s->stoppage;
    d->pmode = s->play_mode;
    for (int k = 0; k < 2; k++) {
        memcpy(d->team[k], s->team[k], strnlen(s->team[k], SHM_TEAM_NAME_LEN));
        d->score[k] = s->score[k];
        d->pen_score[k] = s->pen_score[k];
        d->pen_miss[k] = s->pen_miss[k];
    }
    d->bx = s->ball.x;
    d->by = s->ball.y;
    d->bvx = s->ball.vx;
    d->bvy = s->ball.vy;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++)
        player_from_snap(&s->player[i], i, &d->player[i]);
}

void mgw_ptype_from_shm(const shm_ptype_sh_t *t, int id, disp_ptype_t *out)
{
    /* shm_ptype_sh_t lists the fields in (player_type ...) order */
    _Static_assert(sizeof(shm_ptype_sh_t) >= DISP_PTYPE_FIELDS * sizeof(double), "ptype fields");
    memset(out, 0, sizeof *out);
    out->id = id;
    memcpy(out->v, t, DISP_PTYPE_FIELDS * sizeof(double));
}

/* ---- show frames ------------------------------------------------------------------- */
/* text or JSON of n chars (or -1): the length with the NUL */
static int with_nul(int n)
{
    return n < 0 ? -1 : n + 1;
}

int mgw_encode_show_disp(const disp_show_t *d, int version, char *buf, size_t len)
{
    uint8_t body[DISP_SHOWINFO2_SIZE];
    if (version == 1) {
        if (len < DISP_V1_SIZE)
            return -1;
        disp_bin_showinfo(d, body);
        return (int)disp_bin_v1(DISP_SHOW_MODE, body, DISP_SHOWINFO_SIZE, (uint8_t *)buf);
    }
    if (version == 2) {
        if (len < DISP_V2_SIZE)
            return -1;
        disp_bin_showinfo2(d, body);
        return (int)disp_bin_v2(DISP_SHOW_MODE, body, DISP_SHOWINFO2_SIZE, (uint8_t *)buf);
    }
    if (version < 0)
        return with_nul(disp_json_show(d, 0, buf, len));
    return with_nul(disp_text_show(d, version, 0, buf, len));
}

int mgw_encode_show(const shm_snapshot_sh_t *s, int version, char *buf, size_t len)
{
    static disp_show_t d;
    mgw_show_from_snap(s, &d);
    return mgw_encode_show_disp(&d, version, buf, len);
}

/* ---- messages ---------------------------------------------------------------------- */
int mgw_encode_msg(int time, int board, const char *text, char *buf, size_t len)
{
    return disp_text_msg(time, board, text, buf, len);
}

int mgw_encode_msg_v(int version, int time, int stime, int board, const char *text, char *buf,
                     size_t len)
{
    uint8_t body[DISP_MSGINFO_SIZE];
    if (version == 1 || version == 2) {
        if (len < DISP_V2_SIZE)
            return -1;
        disp_bin_msginfo(board, text, body);
        return version == 1 ? (int)disp_bin_v1(DISP_MSG_MODE, body, sizeof body, (uint8_t *)buf)
                            : (int)disp_bin_v2(DISP_MSG_MODE, body, sizeof body, (uint8_t *)buf);
    }
    if (version < 0)
        return with_nul(disp_json_msg(time, stime, board, text, buf, len));
    return with_nul(disp_text_msg(time, board, text, buf, len));
}

int mgw_encode_tile(int version, int time, int side, int x, int y, const char *lines,
                    char *buf, size_t len)
{
    if (version < 0)
        return with_nul(disp_json_team_graphic(side, x, y, lines, buf, len));
    char text[DISP_MSG_TEXT_MAX];
    if (disp_text_team_graphic(side, x, y, lines, text, sizeof text) < 0)
        return -1;
    return mgw_encode_msg_v(version, time, 0, DISP_MSG_BOARD, text, buf, len);
}

/* ---- init block ---------------------------------------------------------------------- */
static int init_v2(int k, const conf_t *c, const shm_ptypes_sh_t *pt, char *buf, size_t len)
{
    uint8_t body[DISP_SERVER_PARAMS_SIZE];
    if (len < DISP_V2_SIZE)
        return -1;
    if (k == 0) {
        disp_bin_server_params(c, body);
        return (int)disp_bin_v2(DISP_PARAM_MODE, body, DISP_SERVER_PARAMS_SIZE, (uint8_t *)buf);
    }
    if (k == 1) {
        disp_bin_player_params(c, body);
        return (int)disp_bin_v2(DISP_PPARAM_MODE, body, DISP_PLAYER_PARAMS_SIZE, (uint8_t *)buf);
    }
    disp_ptype_t t;
    mgw_ptype_from_shm(&pt->type[k - 2], k - 2, &t);
    disp_bin_player_type(&t, body);
    return (int)disp_bin_v2(DISP_PT_MODE, body, DISP_PLAYER_TYPE_SIZE, (uint8_t *)buf);
}

int mgw_encode_init(int version, int k, const conf_t *c, const shm_ptypes_sh_t *pt,
                    char *buf, size_t len)
{
    uint32_t types = pt->count < SHM_MAX_PTYPES ? pt->count : SHM_MAX_PTYPES;
    if (version == 1 || k < 0 || (k >= 2 && (uint32_t)(k - 2) >= types))
        return 0;
    if (version == 2)
        return init_v2(k, c, pt, buf, len);
    if (version < 0) {
        if (k == 0)
            return with_nul(disp_json_server_param(c, buf, len));
        if (k == 1)
            return with_nul(disp_json_player_param(c, buf, len));
        disp_ptype_t t;
        mgw_ptype_from_shm(&pt->type[k - 2], k - 2, &t);
        return with_nul(disp_json_player_type(&t, buf, len));
    }
    if (k == 0)
        return with_nul(param_msg_server(c, PARAM_MSG_ALL, buf, len));
    if (k == 1)
        return with_nul(param_msg_player(c, PARAM_MSG_ALL, buf, len));
    return with_nul(param_msg_type(&pt->type[k - 2], k - 2, PARAM_MSG_ALL, buf, len));
}
