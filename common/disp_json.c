/* disp_json.c -- JSON monitor frames and JSON game-log objects (docs/protocol/monitor.md
 * §4, §5; docs/protocol/logs.md §2) with jansson: objects keep their insertion order, which is the
 * reference's key order. Positions quantised to 0.0001, angles to 0.001 degrees. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "disp_json.h"
#include "params.h"
#include "playmode.h"

const char *const disp_ptype_names[DISP_PTYPE_FIELDS] = {
    "player_speed_max", "stamina_inc_max", "player_decay", "inertia_moment",
    "dash_power_rate", "player_size", "kickable_margin", "kick_rand", "extra_stamina",
    "effort_max", "effort_min", "kick_power_rate", "foul_detect_probability",
    "catchable_area_l_stretch", "unum_far_length", "unum_too_far_length", "team_far_length",
    "team_too_far_length", "player_max_observation_length", "ball_vel_far_length",
    "ball_vel_too_far_length", "ball_max_observation_length", "flag_chg_far_length",
    "flag_chg_too_far_length", "flag_max_observation_length", "dist_noise_rate",
    "focus_dist_noise_rate", "land_dist_noise_rate", "land_focus_dist_noise_rate",
};

#define JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(6))

/* v quantised to q (0: as is): an integer when integral, as the reference prints it;
 * also when its 6 significant digits are (130555.97 prints as 130556, not 130556.0) */
static json_t *jnum(double v, double q)
{
    if (!isfinite(v))
        v = 0.0;
    if (q > 0.0)
        v = rint(v / q) * q;
    if (v == rint(v) && fabs(v) < 1e15)
        return json_integer((json_int_t)v);
    char g[32];
    snprintf(g, sizeof g, "%.6g", v);
    if (!strpbrk(g, ".eEni"))
        return json_integer((json_int_t)strtoll(g, NULL, 10));
    return json_real(v);
}

/* serialise and free root; NUL-terminated length or -1 */
static int dump(json_t *root, char *buf, size_t len)
{
    if (!root || len == 0)
        return -1;
    size_t n = json_dumpb(root, buf, len - 1, JSON_FLAGS);
    json_decref(root);
    if (n == 0 || n >= len)
        return -1;
    buf[n] = '\0';
    return (int)n;
}

static json_t *wrap(const char *key, json_t *body)
{
    json_t *o = json_object();
    json_object_set_new(o, key, body);
    return o;
}

static void put_time(json_t *o, int time, int stime)
{
    json_object_set_new(o, "time", json_integer(time));
    if (stime > 0)
        json_object_set_new(o, "stime", json_integer(stime));
}

static json_t *team_obj(const disp_show_t *s, int k)
{
    json_t *t = json_object();
    json_object_set_new(t, "name", s->team[k][0] ? json_string(s->team[k]) : json_null());
    json_object_set_new(t, "score", json_integer(s->score[k]));
    if (s->pen_score[k] + s->pen_miss[k] > 0) {
        json_object_set_new(t, "pen_score", json_integer(s->pen_score[k]));
        json_object_set_new(t, "pen_miss", json_integer(s->pen_miss[k]));
    }
    return t;
}

static json_t *teams_obj(const disp_show_t *s)
{
    json_t *t = json_object();
    json_object_set_new(t, "l", team_obj(s, 0));
    json_object_set_new(t, "r", team_obj(s, 1));
    return t;
}

static void put_counters(json_t *o, const disp_player_t *p)
{
    static const char *const names[DISP_CNT_N] = {
        "kick", "dash", "turn", "catch", "move", "turn_neck", "change_view", "say", "tackle",
        "pointto", "attentionto", "change_focus",
    };
    for (int k = 0; k < DISP_CNT_N; k++)
        json_object_set_new(o, names[k], json_integer(p->count[k]));
}

static json_t *player_obj(const disp_player_t *p, int flags)
{
    json_t *o = json_object();
    json_object_set_new(o, "side", json_string(p->side < 0 ? "r" : "l"));
    json_object_set_new(o, "unum", json_integer(p->unum));
    json_object_set_new(o, "type", json_integer(p->type));
    json_object_set_new(o, "state", json_integer(p->state));
    json_object_set_new(o, "x", jnum(p->x, 0.0001));
    json_object_set_new(o, "y", jnum(p->y, 0.0001));
    json_object_set_new(o, "vx", jnum(p->vx, 0.0001));
    json_object_set_new(o, "vy", jnum(p->vy, 0.0001));
    json_object_set_new(o, "body", jnum(p->body * 180.0 / M_PI, 0.001));
    json_object_set_new(o, "neck", jnum(p->neck * 180.0 / M_PI, 0.001));
    if (p->pointing) {
        json_object_set_new(o, "px", jnum(p->point_x, 0.0001));
        json_object_set_new(o, "py", jnum(p->point_y, 0.0001));
    }
    json_object_set_new(o, "vq", json_string(p->view_high ? "h" : "l"));
    json_object_set_new(o, "vw", jnum(p->view_width, 0.001));
    if (!(flags & DISP_JSON_LOG)) {
        json_object_set_new(o, "fdist", jnum(p->focus_dist, 0.0001));
        json_object_set_new(o, "fdir", jnum(p->focus_dir * 180.0 / M_PI, 0.001));
    }
    json_object_set_new(o, "stamina", jnum(p->stamina, 0.0));
    json_object_set_new(o, "effort", jnum(p->effort, 0.0));
    json_object_set_new(o, "recovery", jnum(p->recovery, 0.0));
    json_object_set_new(o, "capacity", jnum(p->capacity, 0.0));
    if (p->enabled && p->focus_side != 0) {
        json_object_set_new(o, "fside", json_string(p->focus_side < 0 ? "r" : "l"));
        json_object_set_new(o, "fnum", json_integer(p->focus_unum));
    }
    if (flags & DISP_JSON_LOG)
        put_counters(o, p);
    return o;
}

int disp_json_show(const disp_show_t *s, int flags, char *buf, size_t len)
{
    json_t *b = json_object();
    put_time(b, s->time, s->stime);
    if (!(flags & DISP_JSON_LOG)) {
        json_object_set_new(b, "mode", json_string(playmode_name(s->pmode)));
        json_object_set_new(b, "team", teams_obj(s));
    }
    json_t *ball = json_object();
    json_object_set_new(ball, "x", jnum(s->bx, 0.0001));
    json_object_set_new(ball, "y", jnum(s->by, 0.0001));
    json_object_set_new(ball, "vx", jnum(s->bvx, 0.0001));
    json_object_set_new(ball, "vy", jnum(s->bvy, 0.0001));
    json_object_set_new(b, "ball", ball);
    json_t *players = json_array();
    for (int i = 0; i < DISP_PLAYERS; i++)
        json_array_append_new(players, player_obj(&s->player[i], flags));
    json_object_set_new(b, "players", players);
    return dump(wrap("show", b), buf, len);
}

int disp_json_msg(int time, int stime, int board, const char *text, char *buf, size_t len)
{
    json_t *b = json_object();
    put_time(b, time, stime);
    json_object_set_new(b, "board", json_integer(board));
    json_t *m = json_string(text);
    if (!m) /* not UTF-8: keep what can be shown */
        m = json_stringn_nocheck(text, strlen(text));
    json_object_set_new(b, "message", m);
    return dump(wrap("msg", b), buf, len);
}

/* "a" "b c" ... -> ["a","b c",...] (no escapes inside XPM lines) */
static json_t *xpm_lines(const char *t)
{
    json_t *a = json_array();
    while ((t = strchr(t, '"')) != NULL) {
        const char *end = strchr(t + 1, '"');
        if (!end)
            break;
        json_t *line = json_stringn(t + 1, (size_t)(end - t - 1));
        if (line)
            json_array_append_new(a, line);
        t = end + 1;
    }
    return a;
}

int disp_json_team_graphic(int side, int x, int y, const char *lines, char *buf, size_t len)
{
    json_t *b = json_object();
    json_object_set_new(b, "side", json_string(side < 0 ? "r" : "l"));
    json_object_set_new(b, "x", json_integer(x));
    json_object_set_new(b, "y", json_integer(y));
    json_object_set_new(b, "xpm", xpm_lines(lines));
    return dump(wrap("team_graphic", b), buf, len);
}

static json_t *param_value(const conf_t *c, int id)
{
    switch (param_defs[id].type) {
    case PARAM_INT:
        return json_integer((json_int_t)conf_real(c, (param_id_t)id));
    case PARAM_BOOL:
        return json_boolean(conf_bool(c, (param_id_t)id));
    case PARAM_REAL:
        return jnum(conf_real(c, (param_id_t)id), 0.0);
    default: {
        json_t *s = json_string(conf_str(c, (param_id_t)id));
        return s ? s : json_string("");
    }
    }
}

static int params_obj(const conf_t *c, const char *module, const char *key, char *buf,
                      size_t len)
{
    json_t *b = json_object();
    for (int i = 0; i < PARAM_COUNT; i++) {
        const param_def_t *d = &param_defs[i];
        if (d->tag == PARAM_TAG_EXTENSION || strcmp(d->module, module) != 0)
            continue;
        json_object_set_new(b, d->name, param_value(c, i));
    }
    return dump(wrap(key, b), buf, len);
}

int disp_json_server_param(const conf_t *c, char *buf, size_t len)
{
    return params_obj(c, "server", "server_param", buf, len);
}

int disp_json_player_param(const conf_t *c, char *buf, size_t len)
{
    return params_obj(c, "player", "player_param", buf, len);
}

int disp_json_player_type(const disp_ptype_t *t, char *buf, size_t len)
{
    json_t *b = json_object();
    json_object_set_new(b, "id", json_integer(t->id));
    for (int i = 0; i < DISP_PTYPE_FIELDS; i++)
        json_object_set_new(b, disp_ptype_names[i], jnum(t->v[i], 0.0));
    return dump(wrap("player_type", b), buf, len);
}

int disp_json_playmode(const disp_show_t *s, char *buf, size_t len)
{
    json_t *b = json_object();
    put_time(b, s->time, s->stime);
    json_object_set_new(b, "mode", json_string(playmode_name(s->pmode)));
    return dump(wrap("playmode", b), buf, len);
}

int disp_json_team(const disp_show_t *s, char *buf, size_t len)
{
    json_t *b = json_object();
    put_time(b, s->time, s->stime);
    json_object_set_new(b, "l", team_obj(s, 0));
    json_object_set_new(b, "r", team_obj(s, 1));
    return dump(wrap("team", b), buf, len);
}
