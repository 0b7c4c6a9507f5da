/* dt_parse.c -- the demo team's reading of server messages: see, sense_body, referee
 * hears, change_player_type, and the parameter messages (server_param, player_param,
 * player_type in the v8+ named form). Pure: no I/O, no world state; bad or truncated
 * input gives -1 (or skips the item), never a crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dt.h"
#include "sexp.h"

#define DT_ARENA 4096

static sexp_t arena_nodes[DT_ARENA];

static sexp_t *parse(const char *msg, size_t len)
{
    sexp_arena_t a = { arena_nodes, DT_ARENA, 0 };
    char err[64];
    return sexp_parse(&a, msg, len, NULL, err, sizeof err);
}

static int head_is(const sexp_t *root, const char *word)
{
    return root && root->is_list && root->child && sexp_is(root->child, word);
}

static double num_or(const sexp_t *n, double dflt)
{
    double v;
    return n && !n->is_list && sexp_number(n, &v) == 0 ? v : dflt;
}

void dt_params_defaults(dt_params_t *p)
{
    memset(p, 0, sizeof *p);
    *p = (dt_params_t){ .ball_decay = 0.94, .ball_speed_max = 3.0, .ball_accel_max = 2.7,
                        .ball_size = 0.085, .player_size = 0.3, .kick_power_rate = 0.027,
                        .max_power = 100, .min_power = -100, .catch_l = 1.2, .catch_w = 1.0,
                        .goal_width = 14.02, .stamina_max = 8000, .visible_distance = 3.0,
                        .max_moment = 180, .min_moment = -180, .max_neck_ang = 90,
                        .min_neck_ang = -90, .max_neck_moment = 180, .min_neck_moment = -180,
                        .catch_ban_cycle = 5, .goalie_max_moves = 2, .half_time = 3000,
                        .ntypes = 1, .pt_max = 1, .subs_max = 3 };
    p->type[0] = (dt_ptype_t){ .speed_max = 1.05, .stamina_inc_max = 45, .decay = 0.4,
                               .inertia = 5.0, .dash_rate = 0.006, .size = 0.3,
                               .kick_margin = 0.7, .kick_rand = 0.1, .extra_stamina = 50,
                               .effort_max = 1.0, .effort_min = 0.6,
                               .kick_power_rate = 0.027, .catch_stretch = 1.0 };
    for (int i = 1; i < DT_TYPES_MAX; i++)
        p->type[i] = p->type[0];
}

/* ---- parameters ------------------------------------------------------------------- */
typedef struct dt_pname {
    const char *name;
    size_t      off;
} dt_pname_t;

#define SP(n, f) { n, offsetof(dt_params_t, f) }
static const dt_pname_t server_names[] = {
    SP("ball_decay", ball_decay), SP("ball_speed_max", ball_speed_max),
    SP("ball_accel_max", ball_accel_max), SP("ball_size", ball_size),
    SP("player_size", player_size), SP("kick_power_rate", kick_power_rate),
    SP("maxpower", max_power), SP("minpower", min_power), SP("catchable_area_l", catch_l),
    SP("catchable_area_w", catch_w), SP("goal_width", goal_width),
    SP("stamina_max", stamina_max), SP("visible_distance", visible_distance),
    SP("maxmoment", max_moment), SP("minmoment", min_moment),
    SP("maxneckang", max_neck_ang), SP("minneckang", min_neck_ang),
    SP("maxneckmoment", max_neck_moment), SP("minneckmoment", min_neck_moment),
    SP("catch_ban_cycle", catch_ban_cycle), SP("goalie_max_moves", goalie_max_moves),
    SP("half_time", half_time), SP("synch_mode", synch_mode),
};
#define PT(n, f) { n, offsetof(dt_ptype_t, f) }
static const dt_pname_t type_names[] = {
    PT("player_speed_max", speed_max), PT("stamina_inc_max", stamina_inc_max),
    PT("player_decay", decay), PT("inertia_moment", inertia),
    PT("dash_power_rate", dash_rate), PT("player_size", size),
    PT("kickable_margin", kick_margin), PT("kick_rand", kick_rand),
    PT("extra_stamina", extra_stamina), PT("effort_max", effort_max),
    PT("effort_min", effort_min), PT("kick_power_rate", kick_power_rate),
    PT("catchable_area_l_stretch", catch_stretch),
};

/* (name value) pairs into the double fields of base named in the table */
static void read_pairs(const sexp_t *first, const dt_pname_t *t, size_t nt, void *base)
{
    char name[64];
    for (const sexp_t *n = first; n; n = n->next) {
        if (!n->is_list || sexp_count(n) != 2 || n->child->is_list)
            continue;
        sexp_copy(n->child, name, sizeof name);
        double v;
        if (sexp_number(n->child->next, &v) != 0)
            continue;
        for (size_t i = 0; i < nt; i++) {
            if (strcmp(name, t[i].name) == 0)
                *(double *)((char *)base + t[i].off) = v;
        }
    }
}

static void read_player_param(const sexp_t *first, dt_params_t *p)
{
    char name[64];
    for (const sexp_t *n = first; n; n = n->next) {
        if (!n->is_list || sexp_count(n) != 2 || n->child->is_list)
            continue;
        sexp_copy(n->child, name, sizeof name);
        double v = num_or(n->child->next, -1);
        if (strcmp(name, "player_types") == 0 && v >= 1 && v <= DT_TYPES_MAX)
            p->ntypes = (int)v;
        else if (strcmp(name, "pt_max") == 0 && v >= 0)
            p->pt_max = (int)v;
        else if (strcmp(name, "subs_max") == 0 && v >= 0)
            p->subs_max = (int)v;
    }
}

int dt_parse_params(const char *msg, size_t len, dt_params_t *p)
{
    sexp_t *r = parse(msg, len);
    if (head_is(r, "server_param")) {
        read_pairs(r->child->next, server_names, sizeof server_names / sizeof *server_names, p);
        return 0;
    }
    if (head_is(r, "player_param")) {
        read_player_param(r->child->next, p);
        return 0;
    }
    if (!head_is(r, "player_type"))
        return -1;
    sexp_t *id = r->child->next;
    long n;
    if (!id || !id->is_list || sexp_count(id) != 2 || !sexp_is(id->child, "id") ||
        sexp_int(id->child->next, &n) != 0 || n < 0 || n >= DT_TYPES_MAX)
        return -1;
    read_pairs(id->next, type_names, sizeof type_names / sizeof *type_names, &p->type[n]);
    return 0;
}

/* ---- landmarks -------------------------------------------------------------------- */
/* docs/protocol/player.md §5.7: names and positions in the server frame */
int dt_landmark(const char *const *tok, int ntok, vec2_t *out)
{
    if (ntok < 2)
        return -1;
    if (strcmp(tok[0], "g") == 0 && ntok == 2) {
        *out = vec2(tok[1][0] == 'r' ? PITCH_HALF_L : -PITCH_HALF_L, 0.0);
        return tok[1][0] == 'r' || tok[1][0] == 'l' ? 0 : -1;
    }
    if (strcmp(tok[0], "f") != 0)
        return -1;
    const char *a = tok[1], *b = ntok > 2 ? tok[2] : "", *c = ntok > 3 ? tok[3] : "";
    double sx = 0, sy = 0;
    if (!strcmp(a, "c")) { /* (f c) (f c t) (f c b) */
        *out = vec2(0.0, !strcmp(b, "t") ? -34.0 : !strcmp(b, "b") ? 34.0 : 0.0);
        return 0;
    }
    if ((!strcmp(a, "l") || !strcmp(a, "r")) && ntok == 3 && b[0] != '0') { /* corners */
        *out = vec2(a[0] == 'r' ? 52.5 : -52.5, b[0] == 't' ? -34.0 : 34.0);
        return b[0] == 't' || b[0] == 'b' ? 0 : -1;
    }
    if (!strcmp(a, "g") || !strcmp(a, "p")) { /* (f g r t) (f p l c) */
        sx = b[0] == 'r' ? 1 : -1;
        sy = c[0] == 't' ? -1 : c[0] == 'b' ? 1 : 0;
        *out = a[0] == 'g' ? vec2(52.5 * sx, 7.01 * sy) : vec2(36.0 * sx, 20.16 * sy);
        return (b[0] == 'r' || b[0] == 'l') && ntok == 4 ? 0 : -1;
    }
    if (!strcmp(a, "t") || !strcmp(a, "b")) { /* (f t 0) (f t r 10) */
        double y = a[0] == 't' ? -39.0 : 39.0;
        if (ntok == 3) {
            *out = vec2(0.0, y);
            return 0;
        }
        *out = vec2((b[0] == 'r' ? 1 : -1) * atof(c), y);
        return ntok == 4 ? 0 : -1;
    }
    if (!strcmp(a, "l") || !strcmp(a, "r")) { /* (f r 0) (f l t 20) */
        double x = a[0] == 'r' ? 57.5 : -57.5;
        if (ntok == 3) {
            *out = vec2(x, 0.0);
            return 0;
        }
        *out = vec2(x, (b[0] == 't' ? -1 : 1) * atof(c));
        return ntok == 4 ? 0 : -1;
    }
    return -1;
}

/* ---- see -------------------------------------------------------------------------- */
static int see_name(const sexp_t *name, char tok[4][20], const char *ptr[4])
{
    int n = 0;
    for (const sexp_t *t = name->child; t && n < 4; t = t->next) {
        if (t->is_list)
            return -1;
        sexp_copy(t, tok[n], 20);
        ptr[n] = tok[n];
        n++;
    }
    return n;
}

/* the numbers after the name: dist dir [dchg dirchg [body head]] */
static void see_numbers(const sexp_t *n, dt_seen_t *o)
{
    double v[6];
    int k = 0;
    for (; n && k < 6; n = n->next) {
        if (n->is_list || sexp_number(n, &v[k]) != 0)
            break; /* a flag (t, k) ends the numbers */
        k++;
    }
    if (k == 1) { /* low quality: direction only */
        o->dir = v[0];
        o->dist = -1;
        return;
    }
    o->dist = k >= 2 ? v[0] : -1;
    o->dir = k >= 2 ? v[1] : 0;
    if (k >= 4) {
        o->dchg = v[2];
        o->dirchg = v[3];
        o->has_chg = 1;
    }
}

static int see_player(char tok[4][20], int ntok, const sexp_t *name, const char *our_team,
                      dt_seen_t *o)
{
    o->kind = DT_OBJ_PLAYER;
    if (ntok >= 2) {
        char team[64];
        sexp_copy(name->child->next, team, sizeof team);
        o->team = strcmp(team, our_team) == 0 ? 1 : -1;
    }
    if (ntok >= 3)
        o->unum = atoi(tok[2]);
    if (ntok >= 4 && strcmp(tok[3], "goalie") == 0)
        o->goalie = 1;
    return o->unum >= 0 && o->unum <= DT_PLAYERS ? 0 : -1;
}

static int see_object(const sexp_t *obj, int side, const char *our_team, dt_seen_t *o)
{
    char tok[4][20];
    const char *ptr[4];
    if (!obj->is_list || !obj->child || !obj->child->is_list)
        return -1;
    int ntok = see_name(obj->child, tok, ptr);
    if (ntok < 1)
        return -1;
    memset(o, 0, sizeof *o);
    see_numbers(obj->child->next, o);
    const char *k = tok[0];
    if (!strcmp(k, "b") || !strcmp(k, "B")) {
        o->kind = DT_OBJ_BALL;
        o->close = k[0] == 'B';
        return 0;
    }
    if (!strcmp(k, "p") || !strcmp(k, "P")) {
        o->close = k[0] == 'P';
        return see_player(tok, ntok, obj->child, our_team, o);
    }
    if (!strcmp(k, "l") && ntok == 2) {
        o->kind = DT_OBJ_LINE;
        return 0;
    }
    vec2_t at;
    if ((k[0] == 'f' || k[0] == 'g') && dt_landmark(ptr, ntok, &at) == 0) {
        o->kind = DT_OBJ_FLAG;
        o->at = vec2(at.x * side, at.y * side);
        return 0;
    }
    return -1; /* (F) (G): a landmark felt, but which one is not told */
}

int dt_parse_see(const char *msg, size_t len, int side, const char *our_team, dt_see_t *out)
{
    sexp_t *r = parse(msg, len);
    long t;
    if (!head_is(r, "see") || !r->child->next || sexp_int(r->child->next, &t) != 0)
        return -1;
    out->time = (int)t;
    out->n = 0;
    for (const sexp_t *o = r->child->next->next; o && out->n < DT_SEE_MAX; o = o->next) {
        if (see_object(o, side, our_team, &out->obj[out->n]) == 0 && out->obj[out->n].dist >= 0)
            out->n++;
    }
    return 0;
}

/* ---- sense_body ------------------------------------------------------------------- */
static void body_item(const sexp_t *it, dt_body_t *b)
{
    const sexp_t *a = it->child->next;
    char name[32];
    sexp_copy(it->child, name, sizeof name);
    if (!strcmp(name, "view_mode") && a && a->next) {
        b->narrow = sexp_is(a->next, "narrow");
        b->wide = sexp_is(a->next, "wide");
    } else if (!strcmp(name, "stamina")) {
        b->stamina = num_or(a, b->stamina);
        b->effort = num_or(a ? a->next : NULL, b->effort);
        b->capacity = num_or(a && a->next ? a->next->next : NULL, b->capacity);
    } else if (!strcmp(name, "speed")) {
        b->speed = num_or(a, 0);
        b->speed_dir = num_or(a ? a->next : NULL, 0);
    } else if (!strcmp(name, "head_angle")) {
        b->head_angle = num_or(a, 0);
    } else {
        static const struct { const char *n; size_t off; } cnt[] = {
            { "kick", offsetof(dt_body_t, kick) }, { "dash", offsetof(dt_body_t, dash) },
            { "turn", offsetof(dt_body_t, turn) }, { "catch", offsetof(dt_body_t, catch_) },
            { "move", offsetof(dt_body_t, move) },
            { "turn_neck", offsetof(dt_body_t, turn_neck) },
            { "change_view", offsetof(dt_body_t, change_view) },
        };
        for (size_t i = 0; i < sizeof cnt / sizeof *cnt; i++) {
            if (!strcmp(name, cnt[i].n))
                *(int *)((char *)b + cnt[i].off) = (int)num_or(a, 0);
        }
    }
}

int dt_parse_sense_body(const char *msg, size_t len, dt_body_t *out)
{
    sexp_t *r = parse(msg, len);
    long t;
    if (!head_is(r, "sense_body") || !r->child->next || sexp_int(r->child->next, &t) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->time = (int)t;
    out->effort = 1.0;
    for (const sexp_t *it = r->child->next->next; it; it = it->next) {
        if (it->is_list && it->child && !it->child->is_list)
            body_item(it, out);
    }
    return 0;
}

/* ---- hear, change_player_type ----------------------------------------------------- */
int dt_parse_referee(const char *msg, size_t len, int *time, char *text, size_t textlen)
{
    sexp_t *r = parse(msg, len);
    long t;
    if (!head_is(r, "hear") || sexp_count(r) != 4 || sexp_int(sexp_nth(r, 1), &t) != 0 ||
        !sexp_is(sexp_nth(r, 2), "referee") || sexp_nth(r, 3)->is_list)
        return -1;
    *time = (int)t;
    sexp_copy(sexp_nth(r, 3), text, textlen);
    return 0;
}

int dt_parse_change_type(const char *msg, size_t len, int *unum, int *type)
{
    sexp_t *r = parse(msg, len);
    long u, t = -1;
    if (!head_is(r, "change_player_type") || sexp_int(sexp_nth(r, 1), &u) != 0)
        return -1;
    size_t n = sexp_count(r);
    if (n == 3 && sexp_int(sexp_nth(r, 2), &t) != 0)
        return -1; /* (change_player_type l 1 goalie) and other shapes: not ours */
    if (n != 2 && n != 3)
        return -1;
    *unum = (int)u;
    *type = (int)t;
    return 0;
}

/* ---- play modes ------------------------------------------------------------------- */
dt_pm_t dt_parse_playmode(const char *name, char *side)
{
    static const struct { const char *prefix; dt_pm_t pm; } tab[] = {
        { "before_kick_off", DT_PM_BEFORE_KICK_OFF }, { "time_over", DT_PM_TIME_OVER },
        { "play_on", DT_PM_PLAY_ON }, { "kick_off_", DT_PM_KICK_OFF },
        { "kick_in_", DT_PM_KICK_IN }, { "free_kick_fault_", DT_PM_FREE_KICK_FAULT },
        { "free_kick_", DT_PM_FREE_KICK }, { "corner_kick_", DT_PM_CORNER_KICK },
        { "goal_kick_", DT_PM_GOAL_KICK }, { "goal_", DT_PM_GOAL },
        { "drop_ball", DT_PM_DROP_BALL }, { "offside_", DT_PM_OFFSIDE },
        { "foul_", DT_PM_FOUL }, { "back_pass_", DT_PM_BACK_PASS },
        { "catch_fault_", DT_PM_CATCH_FAULT },
        { "indirect_free_kick_", DT_PM_INDIRECT_FREE_KICK },
        { "illegal_defense_", DT_PM_ILLEGAL_DEFENSE },
        { "penalty_setup_", DT_PM_PENALTY_SETUP }, { "penalty_ready_", DT_PM_PENALTY_READY },
        { "penalty_taken_", DT_PM_PENALTY_TAKEN }, { "penalty_miss_", DT_PM_PENALTY_OVER },
        { "penalty_score_", DT_PM_PENALTY_OVER },
    };
    size_t l = strlen(name);
    *side = 0;
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++) {
        size_t pl = strlen(tab[i].prefix);
        if (strncmp(name, tab[i].prefix, pl) != 0)
            continue;
        if (tab[i].prefix[pl - 1] != '_')
            return l == pl ? tab[i].pm : DT_PM_OTHER;
        /* the side letter ends the name: goal_l, foul_charge_r */
        if (l >= pl + 1 && name[l - 2] == '_' && (name[l - 1] == 'l' || name[l - 1] == 'r')) {
            if (tab[i].pm == DT_PM_GOAL && l != pl + 1)
                return DT_PM_OTHER; /* goal_l_2 is a score message, goalie_catch_... too */
            *side = name[l - 1];
            return tab[i].pm;
        }
    }
    return DT_PM_OTHER;
}
