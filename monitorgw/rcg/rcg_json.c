/* rcg_json.c -- the JSON game log (docs/protocol/logs.md §2), the inverse of
 * monitorgw/rcg/rec_fmt_json.c, with jansson: after "[", one object at a time
 * (JSON_DISABLE_EOF_CHECK gives where each ends), each {"KIND":{...}}: version and
 * timestamp (skipped), server_param / player_param (the parameters), player_type,
 * playmode and team (the state later shows carry), show (log form, or the monitor form
 * with mode and team), msg, team_graphic (kept as the message monitors get). An object
 * that does not read is skipped up to the next line that starts one; a file without its
 * closing "]" (a killed server) or cut inside an object reads up to the last whole one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "playmode.h"
#include "rcg.h"

/* ---- values ------------------------------------------------------------------------------ */
static double num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : 0.0;
}

static int inum(const json_t *o, const char *key)
{
    double v = num(o, key);
    return v > -2147483648.0 && v < 2147483647.0 ? (int)v : 0;
}

static int side(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s && s[0] == 'r' ? -1 : s && s[0] == 'l' ? 1 : 0;
}

static double rad(double deg)
{
    return deg * M_PI / 180.0;
}

/* ---- show --------------------------------------------------------------------------------- */
static void read_player(const json_t *o, disp_show_t *s)
{
    static const char *const counters[DISP_CNT_N] = {
        "kick", "dash", "turn", "catch", "move", "turn_neck", "change_view", "say", "tackle",
        "pointto", "attentionto", "change_focus",
    };
    int sd = side(o, "side"), unum = inum(o, "unum");
    if (sd == 0 || unum < 1 || unum > DISP_PLAYERS / 2)
        return;
    disp_player_t *p = &s->player[(sd > 0 ? 0 : DISP_PLAYERS / 2) + unum - 1];
    memset(p, 0, sizeof *p);
    p->side = sd;
    p->unum = unum;
    p->type = inum(o, "type");
    p->state = (uint32_t)num(o, "state");
    p->enabled = p->state != 0;
    p->x = num(o, "x");
    p->y = num(o, "y");
    p->vx = num(o, "vx");
    p->vy = num(o, "vy");
    p->body = rad(num(o, "body"));
    p->neck = rad(num(o, "neck"));
    if ((p->pointing = json_object_get(o, "px") != NULL)) {
        p->point_x = num(o, "px");
        p->point_y = num(o, "py");
    }
    const char *vq = json_string_value(json_object_get(o, "vq"));
    p->view_high = vq && vq[0] == 'h';
    p->view_width = num(o, "vw");
    p->focus_dist = num(o, "fdist");
    p->focus_dir = rad(num(o, "fdir"));
    p->stamina = num(o, "stamina");
    p->effort = num(o, "effort");
    p->recovery = num(o, "recovery");
    p->capacity = num(o, "capacity");
    p->focus_side = side(o, "fside");
    p->focus_unum = inum(o, "fnum");
    for (int k = 0; k < DISP_CNT_N; k++)
        p->count[k] = (uint32_t)num(o, counters[k]);
}

/* {"l":{"name":..,"score":..[,"pen_score","pen_miss"]},"r":{..}} into s */
static void read_teams(const json_t *o, disp_show_t *s)
{
    for (int k = 0; k < 2; k++) {
        const json_t *t = json_object_get(o, k ? "r" : "l");
        const char *name = json_string_value(json_object_get(t, "name"));
        memset(s->team[k], 0, DISP_NAME_LEN);
        if (name)
            snprintf(s->team[k], DISP_NAME_LEN, "%s", name);
        s->score[k] = inum(t, "score");
        s->pen_score[k] = inum(t, "pen_score");
        s->pen_miss[k] = inum(t, "pen_miss");
    }
}

static int read_show(rcg_t *g, const json_t *o)
{
    static disp_show_t d;
    d = g->cur;
    d.time = inum(o, "time");
    d.stime = inum(o, "stime");
    const char *mode = json_string_value(json_object_get(o, "mode"));
    if (mode && playmode_lookup(mode) >= 0)
        d.pmode = playmode_lookup(mode);
    if (json_is_object(json_object_get(o, "team")))
        read_teams(json_object_get(o, "team"), &d);
    const json_t *b = json_object_get(o, "ball"), *pl = json_object_get(o, "players");
    if (!json_is_object(b) || !json_is_array(pl))
        return 1;
    d.bx = num(b, "x");
    d.by = num(b, "y");
    d.bvx = num(b, "vx");
    d.bvy = num(b, "vy");
    memset(d.player, 0, sizeof d.player);
    for (int i = 0; i < DISP_PLAYERS; i++) {
        d.player[i].side = i < DISP_PLAYERS / 2 ? 1 : -1;
        d.player[i].unum = i % (DISP_PLAYERS / 2) + 1;
    }
    size_t i;
    const json_t *p;
    json_array_foreach(pl, i, p)
        read_player(p, &d);
    return rcg_add_frame(g, &d);
}

int rcg_json_show(const char *text, size_t len, disp_show_t *s)
{
    rcg_t *g = calloc(1, sizeof *g);  /* a builder of one frame (rcg_t is large) */
    int rc = -1;
    json_error_t e;
    json_t *root = g ? json_loadb(text, strnlen(text, len), 0, &e) : NULL;
    const json_t *o = json_object_get(root, "show");
    if (json_is_object(o)) {
        g->cur = *s;
        if (read_show(g, o) == 0 && g->n_frames == 1) {
            *s = g->frame[0].show;
            rc = 0;
        }
    }
    json_decref(root);
    if (g)
        rcg_free(g);
    free(g);
    return rc;
}

/* ---- the other objects ------------------------------------------------------------------- */
static void read_params(rcg_t *g, const char *module, const json_t *o)
{
    const char *key;
    const json_t *v;
    char text[CONF_STR_LEN], err[128];
    json_object_foreach((json_t *)o, key, v) {
        if (json_is_string(v))
            snprintf(text, sizeof text, "%s", json_string_value(v));
        else if (json_is_boolean(v))
            snprintf(text, sizeof text, "%s", json_is_true(v) ? "true" : "false");
        else if (json_is_integer(v))
            snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
        else if (json_is_real(v))
            snprintf(text, sizeof text, "%.17g", json_real_value(v));
        else
            continue;
        conf_set(&g->conf, module, key, text, err, sizeof err); /* unknown ones left out */
    }
    if (module[0] == 's')
        g->has_params = 1;
}

static void read_type(rcg_t *g, const json_t *o)
{
    disp_ptype_t t;
    memset(&t, 0, sizeof t);
    t.id = json_is_integer(json_object_get(o, "id")) ? inum(o, "id") : -1;
    for (int i = 0; i < DISP_PTYPE_FIELDS; i++)
        t.v[i] = num(o, disp_ptype_names[i]);
    rcg_add_ptype(g, &t);
}

/* {"side":"l","x":X,"y":Y,"xpm":[..]} -> (team_graphic_l (X Y "line" ...) */
static int read_tile(rcg_t *g, const json_t *o)
{
    char text[8192];
    const json_t *xpm = json_object_get(o, "xpm"), *line;
    size_t i;
    int n = snprintf(text, sizeof text, "(team_graphic_%c (%d %d", side(o, "side") < 0 ? 'r' : 'l',
                     inum(o, "x"), inum(o, "y"));
    json_array_foreach(xpm, i, line) {
        if (json_is_string(line) && n > 0 && (size_t)n < sizeof text)
            n += snprintf(text + n, sizeof text - (size_t)n, " \"%s\"", json_string_value(line));
    }
    if (n < 0 || (size_t)n + 2 > sizeof text)
        return 1;
    memcpy(text + n, ")", 2);
    return rcg_add_msg(g, g->n_frames ? g->frame[g->n_frames - 1].show.time : 0, 1, text,
                       (size_t)n + 1);
}

/* one {"KIND":{...}}: 0 read, 1 malformed, -1 out of memory */
static int read_object(rcg_t *g, const json_t *root)
{
    const char *kind;
    const json_t *o;
    if (!json_is_object(root) || json_object_size(root) != 1)
        return 1;
    json_object_foreach((json_t *)root, kind, o) {
        if (!strcmp(kind, "version") || !strcmp(kind, "timestamp"))
            return 0;
        if (!json_is_object(o))
            return 1;
        if (!strcmp(kind, "show"))
            return read_show(g, o);
        if (!strcmp(kind, "msg")) {
            const char *m = json_string_value(json_object_get(o, "message"));
            return m ? rcg_add_msg(g, inum(o, "time"), inum(o, "board"), m, strlen(m)) : 1;
        }
        if (!strcmp(kind, "playmode")) {
            const char *name = json_string_value(json_object_get(o, "mode"));
            int pm = name ? playmode_lookup(name) : -1;
            g->cur.pmode = pm >= 0 ? pm : g->cur.pmode;
            return pm >= 0 ? 0 : 1;
        }
        if (!strcmp(kind, "team")) {
            read_teams(o, &g->cur);
            return 0;
        }
        if (!strcmp(kind, "server_param") || !strcmp(kind, "player_param")) {
            read_params(g, kind[1] == 'e' ? "server" : "player", o);
            return 0;
        }
        if (!strcmp(kind, "player_type")) {
            read_type(g, o);
            return 0;
        }
        if (!strcmp(kind, "team_graphic"))
            return read_tile(g, o);
    }
    return 1;
}

/* ---- the array ------------------------------------------------------------------------------ */
static size_t skip_ws(const char *d, size_t len, size_t p)
{
    while (p < len && (d[p] == ' ' || d[p] == '\n' || d[p] == '\r' || d[p] == '\t'))
        p++;
    return p;
}

/* past a malformed object: the next line that starts one, or len */
static size_t resync(const char *d, size_t len, size_t p)
{
    for (size_t i = p + 1; i + 1 < len; i++) {
        if (d[i] == '\n' && d[i + 1] == '{')
            return i + 1;
    }
    return len;
}

int rcg_json_read(rcg_t *g, const char *d, size_t len)
{
    size_t p = skip_ws(d, len, 0);
    int closed = 0;
    while (p < len && !closed) {
        json_error_t e;
        json_t *v = json_loadb(d + p, len - p, JSON_DISABLE_EOF_CHECK, &e);
        if (!v) {
            size_t next = resync(d, len, p);
            if (next >= len) { /* the last object, cut */
                g->truncated = 1;
                rcg_note(g, "the file ends inside an object (%zu bytes after frame %d, cycle %d): "
                         "read up to there", len - p, g->n_frames,
                         g->n_frames ? g->frame[g->n_frames - 1].show.time : 0);
                return 0;
            }
            g->bad_items++;
            p = next;
            continue;
        }
        int rc = read_object(g, v);
        json_decref(v);
        if (rc < 0)
            return -1;
        g->bad_items += rc;
        p = skip_ws(d, len, p + (size_t)e.position);
        if (p < len && d[p] == ',')
            p = skip_ws(d, len, p + 1);
        else if (p < len && d[p] == ']')
            closed = 1;
    }
    if (!closed)
        rcg_note(g, "the JSON array is not closed (a log of a server that did not stop cleanly): "
                 "%d frames read", g->n_frames);
    return 0;
}
