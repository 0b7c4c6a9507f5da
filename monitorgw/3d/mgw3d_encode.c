/* mgw3d_encode.c -- the monitor protocol's expressions (docs/protocol/3d.md §4), each one
 * line: Init with every game variable and the play-mode list, Info with the time, then
 * only what changed (half, scores, team names, play mode), every robot (team, number,
 * position, the last to touch the ball), the flags and goals once, and the ball. Pure;
 * numbers with 6 significant digits, as the other text protocols. */
#include <string.h>
#include "mgw3d.h"
#include "playmode.h"
#include "playmode3d.h"
#include "strbuf.h"

static const char *const marker_id[4] = { "1_l", "2_l", "1_r", "2_r" };

int mgw3d_encode_init(const conf3d_t *c, char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    strbuf_printf(&o, "(Init ");
    for (int i = 0; i < conf3d_n_game_vars; i++) {
        conf3d_id_t id = conf3d_game_vars[i];
        strbuf_printf(&o, "(%s", conf3d_defs[id].name);
        strbuf_real(&o, conf3d_real(c, id));
        strbuf_printf(&o, ")");
    }
    strbuf_printf(&o, "(play_modes");
    for (int pm = 0; pm < PM3D_COUNT; pm++)
        strbuf_printf(&o, " %s", playmode3d_name(pm));
    strbuf_printf(&o, "))");
    return o.overflow ? -1 : (int)o.pos;
}

static void vec(strbuf_t *o, const char *name, const double v[3])
{
    strbuf_printf(o, "(%s", name);
    strbuf_real(o, v[0]);
    strbuf_real(o, v[1]);
    strbuf_real(o, v[2]);
    strbuf_printf(o, ")");
}

static void statics(strbuf_t *o, const conf3d_t *c)
{
    double hx = conf3d_real(c, P3_FieldLength) / 2, hy = conf3d_real(c, P3_FieldWidth) / 2;
    double gy = conf3d_real(c, P3_GoalWidth) / 2;
    for (int k = 0; k < 8; k++) {
        /* as the robots see them (s3d_percept.c): corners, then goal posts */
        double y = k < 4 ? hy : gy, p[3] = { k % 4 < 2 ? -hx : hx, k % 2 == 0 ? -y : y, 0 };
        strbuf_printf(o, "(%s (id %s)", k < 4 ? "F" : "G", marker_id[k % 4]);
        vec(o, "pos", p);
        strbuf_printf(o, ")");
    }
}

static void game(strbuf_t *o, const shm3d_snapshot_sh_t *s, const mgw3d_state_t *prev)
{
    static const char *const side[2] = { "left", "right" };
    int full = !prev || !prev->valid;
    if (full || prev->half != s->half)
        strbuf_printf(o, "(half %d)", s->half);
    for (int k = 0; k < 2; k++) {
        if (full || prev->score[k] != s->score[k])
            strbuf_printf(o, "(score_%s %d)", side[k], s->score[k]);
    }
    for (int k = 0; k < 2; k++) {
        if (s->team[k][0] && (full || strncmp(prev->team[k], s->team[k], SHM3D_TEAM_NAME_LEN)))
            strbuf_printf(o, "(team_%s %.*s)", side[k], SHM3D_TEAM_NAME_LEN, s->team[k]);
    }
    if (full || prev->play_mode != s->play_mode)
        strbuf_printf(o, "(play_mode %d)", s->play_mode);
}

static void players(strbuf_t *o, const shm3d_snapshot_sh_t *s)
{
    /* left team by number, then right */
    for (int side = 0; side < 2; side++) {
        for (int u = 1; u <= SHM3D_TEAM_SIZE; u++) {
            for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
                const shm3d_robot_sh_t *r = &s->robot[i];
                if (!r->present || r->side != side || r->unum != u)
                    continue;
                strbuf_printf(o, "(P (s %d)(id %d)", side, u);
                vec(o, "pos", r->pos);
                if (r->last_touch)
                    strbuf_printf(o, "(last)");
                strbuf_printf(o, ")");
            }
        }
    }
}

int mgw3d_encode_info(const shm3d_snapshot_sh_t *s, const conf3d_t *c,
                      const mgw3d_state_t *prev, mgw3d_state_t *next, char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    int full = !prev || !prev->valid;
    strbuf_printf(&o, "(Info (time");
    strbuf_real(&o, s->game_time);
    strbuf_printf(&o, ")");
    game(&o, s, prev);
    players(&o, s);
    if (full)
        statics(&o, c);
    strbuf_printf(&o, "(B ");
    vec(&o, "pos", s->ball_pos);
    strbuf_printf(&o, "))");
    if (next) {
        memset(next, 0, sizeof *next);
        next->valid = 1;
        next->half = s->half;
        next->play_mode = s->play_mode;
        next->score[0] = s->score[0];
        next->score[1] = s->score[1];
        memcpy(next->team, s->team, sizeof next->team);
    }
    return o.overflow ? -1 : (int)o.pos;
}

int mgw3d_encode_ack(const char *cookie, size_t n, char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    strbuf_printf(&o, "(Info (ack %.*s))", (int)n, cookie);
    return o.overflow ? -1 : (int)o.pos;
}

/* a JSON string of at most n bytes of s (escaping quotes, backslashes, controls) */
static void json_str(strbuf_t *o, const char *s, size_t n)
{
    strbuf_printf(o, "\"");
    for (size_t i = 0; i < n && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            strbuf_printf(o, "\\%c", c);
        else if (c < 0x20)
            strbuf_printf(o, "\\u%04x", c);
        else
            strbuf_printf(o, "%c", c);
    }
    strbuf_printf(o, "\"");
}

static void json_num(strbuf_t *o, const char *sep, double v)
{
    char tmp[48];
    fmt_real(tmp, sizeof tmp, v);
    strbuf_printf(o, "%s%s", sep, tmp);
}

static void json_vec(strbuf_t *o, const double v[3])
{
    json_num(o, "[", v[0]);
    json_num(o, ",", v[1]);
    json_num(o, ",", v[2]);
    strbuf_printf(o, "]");
}

int mgw3d_encode_json(const shm3d_snapshot_sh_t *s, const conf3d_t *c, char *buf, size_t len)
{
    static const conf3d_id_t field[] = { P3_FieldLength, P3_FieldWidth, P3_GoalWidth,
                                         P3_GoalDepth, P3_GoalHeight, P3_AgentRadius,
                                         P3_BallRadius, P3_FreeKickDistance };
    strbuf_t o = { buf, len, 0, 0 };
    json_num(&o, "{\"time\":", s->game_time);
    strbuf_printf(&o, ",\"half\":%d,\"mode\":\"%s\",\"score\":[%d,%d],\"teams\":[", s->half,
                  playmode3d_name(s->play_mode), s->score[0], s->score[1]);
    json_str(&o, s->team[0], SHM3D_TEAM_NAME_LEN);
    strbuf_printf(&o, ",");
    json_str(&o, s->team[1], SHM3D_TEAM_NAME_LEN);
    strbuf_printf(&o, "],\"field\":");
    for (size_t i = 0; i < sizeof field / sizeof field[0]; i++)
        json_num(&o, i ? "," : "[", conf3d_real(c, field[i]));
    strbuf_printf(&o, "],\"ball\":");
    json_vec(&o, s->ball_pos);
    strbuf_printf(&o, ",\"robots\":[");
    int n = 0;
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        const shm3d_robot_sh_t *r = &s->robot[i];
        if (!r->present)
            continue;
        strbuf_printf(&o, "%s{\"side\":%d,\"unum\":%d,\"pos\":", n++ ? "," : "", r->side, r->unum);
        json_vec(&o, r->pos);
        json_num(&o, ",\"battery\":", r->battery);
        strbuf_printf(&o, ",\"last\":%s}", r->last_touch ? "true" : "false");
    }
    strbuf_printf(&o, "]}");
    return o.overflow ? -1 : (int)o.pos;
}
