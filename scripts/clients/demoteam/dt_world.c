/* dt_world.c -- one player's world model: where it is (localised from the landmarks of
 * each see, dead-reckoned between sees from sense_body and its own commands), where the
 * ball is and how it moves, where teammates and opponents were seen, the play mode and
 * the score from the referee. Everything comes from this player's own messages. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "dt.h"

void dt_world_init(dt_world_t *w, const dt_params_t *prm, const char *team, int side,
                   int unum, int goalie)
{
    memset(w, 0, sizeof *w);
    w->prm = prm;
    w->team = team;
    w->side = side;
    w->unum = unum;
    w->goalie = goalie;
    w->pm = DT_PM_BEFORE_KICK_OFF;
    w->prematch = 1;
    w->pos = vec2(-3.0 * unum, -37.0); /* off-pitch until moved (docs/protocol/player.md §1) */
    w->pos_age = DT_UNKNOWN;
    w->ball.age = DT_UNKNOWN;
    for (int i = 0; i <= DT_PLAYERS; i++)
        w->mate[i].age = w->opp[i].age = DT_UNKNOWN;
    w->setplay_kicked = w->sent_tick = w->kicked_tick = -DT_UNKNOWN;
    w->other_touch = w->stop_tick = -DT_UNKNOWN;
    w->last_mate_touch = w->last_opp_touch = -DT_UNKNOWN;
    w->moved_tick = -DT_UNKNOWN;
}

const dt_ptype_t *dt_world_type(const dt_world_t *w)
{
    int t = w->type >= 0 && w->type < w->prm->ntypes ? w->type : 0;
    return &w->prm->type[t];
}

double dt_world_face(const dt_world_t *w) { return angle_norm(w->body + w->neck); }

double dt_world_kickable(const dt_world_t *w)
{
    const dt_ptype_t *t = dt_world_type(w);
    return t->size + t->kick_margin + w->prm->ball_size;
}

int dt_world_may_touch(const dt_world_t *w)
{
    int mine = w->setplay_kicked;
    return mine < w->stop_tick || mine < w->other_touch || w->tick - mine > 100;
}

int dt_world_ball_kickable(const dt_world_t *w)
{
    return w->ball.age <= 1 && vec2_len(vec2_sub(w->ball.pos, w->pos)) < dt_world_kickable(w) - 0.03;
}

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* ---- prediction from sense_body and our own last commands -------------------------- */
static void predict_self(dt_world_t *w, const dt_body_t *b)
{
    const dt_ptype_t *t = dt_world_type(w);
    double speed_before = vec2_len(w->vel);
    w->body = angle_norm(w->body + deg2rad(w->cmd_turn) / (1.0 + t->inertia * speed_before));
    double neck = clampd(rad2deg(w->neck) + w->cmd_neck, w->prm->min_neck_ang,
                         w->prm->max_neck_ang);
    if (fabs(neck - b->head_angle) > 1.5) /* head_angle is truncated: trust it only if far */
        neck = b->head_angle;
    w->neck = deg2rad(neck);
    w->vel = vec2_polar(b->speed, dt_world_face(w) + deg2rad(b->speed_dir));
    if (w->cmd_moved)
        w->pos = w->cmd_move;
    else if (t->decay > 0.0)
        w->pos = vec2_add(w->pos, vec2_scale(w->vel, 1.0 / t->decay));
    w->pos_age++;
}

static void predict_ball(dt_world_t *w)
{
    dt_obj_t *bl = &w->ball;
    if (bl->age >= DT_UNKNOWN)
        return;
    vec2_t v = vec2_add(bl->vel, w->cmd_kick);
    v = vec2_cap(v, w->prm->ball_speed_max);
    if (w->pm != DT_PM_PLAY_ON && !w->cmd_kicked)
        v = vec2(0.0, 0.0); /* set plays: the ball lies still */
    bl->pos = vec2_add(bl->pos, v);
    bl->vel = vec2_scale(v, w->prm->ball_decay);
    if (w->holding)
        bl->pos = vec2_add(w->pos, vec2_polar(0.6, w->body));
    bl->age++;
}

void dt_world_on_body(dt_world_t *w, const dt_body_t *b)
{
    w->tick++;
    w->time = b->time;
    w->sb = *b;
    predict_self(w, b);
    predict_ball(w);
    for (int i = 1; i <= DT_PLAYERS; i++) {
        if (w->mate[i].age < DT_UNKNOWN)
            w->mate[i].age++;
        if (w->opp[i].age < DT_UNKNOWN)
            w->opp[i].age++;
    }
    for (int i = 0; i < w->nanon; i++)
        w->anon[i].age++;
    if (w->catch_ban > 0)
        w->catch_ban--;
    w->cmd_dash = w->cmd_dash_dir = w->cmd_turn = w->cmd_neck = 0.0;
    w->cmd_kick = vec2(0.0, 0.0);
    w->cmd_kicked = w->cmd_caught = w->cmd_moved = 0;
}

/* ---- localisation ----------------------------------------------------------------- */
/* Face direction from pairs of landmarks: the angle between two landmarks' absolute
 * offset and their offset in the face frame, averaged, longer pairs weighing more. */
static int face_from_pairs(const dt_seen_t *f[], int n, double *face)
{
    double sx = 0.0, sy = 0.0;
    for (int i = 0; i < n; i++) {
        vec2_t ri = vec2_polar(f[i]->dist, deg2rad(f[i]->dir));
        for (int j = i + 1; j < n; j++) {
            vec2_t rj = vec2_polar(f[j]->dist, deg2rad(f[j]->dir));
            vec2_t da = vec2_sub(f[j]->at, f[i]->at), dr = vec2_sub(rj, ri);
            double l = vec2_len(da);
            if (l < 3.0)
                continue;
            double th = vec2_angle(da) - vec2_angle(dr);
            double wgt = l * l / ((f[i]->dist + f[j]->dist + 1.0) * (f[i]->dist + f[j]->dist + 1.0));
            sx += wgt * cos(th);
            sy += wgt * sin(th);
        }
    }
    if (sx == 0.0 && sy == 0.0)
        return -1;
    *face = atan2(sy, sx);
    return 0;
}

static vec2_t pos_from_face(const dt_seen_t *f[], int n, double face)
{
    vec2_t sum = vec2(0.0, 0.0);
    double ws = 0.0;
    for (int i = 0; i < n; i++) {
        vec2_t p = vec2_sub(f[i]->at, vec2_polar(f[i]->dist, face + deg2rad(f[i]->dir)));
        double wgt = 1.0 / ((f[i]->dist + 1.0) * (f[i]->dist + 1.0));
        sum = vec2_add(sum, vec2_scale(p, wgt));
        ws += wgt;
    }
    return vec2_scale(sum, 1.0 / ws);
}

static double face_from_pos(const dt_seen_t *f[], int n, vec2_t pos)
{
    double sx = 0.0, sy = 0.0;
    for (int i = 0; i < n; i++) {
        double th = vec2_angle(vec2_sub(f[i]->at, pos)) - deg2rad(f[i]->dir);
        double wgt = f[i]->dist;
        sx += wgt * cos(th);
        sy += wgt * sin(th);
    }
    return atan2(sy, sx);
}

static int localise(dt_world_t *w, const dt_see_t *s)
{
    const dt_seen_t *f[DT_SEE_MAX];
    int n = 0;
    for (int i = 0; i < s->n; i++) {
        if (s->obj[i].kind == DT_OBJ_FLAG && !s->obj[i].close && s->obj[i].dist > 0.0)
            f[n++] = &s->obj[i];
    }
    double face = dt_world_face(w);
    if (n == 0 || (n == 1 && w->pos_age >= DT_UNKNOWN))
        return -1;
    if (n >= 2 && face_from_pairs(f, n, &face) < 0 && w->pos_age >= DT_UNKNOWN)
        return -1;
    vec2_t pos = pos_from_face(f, n, face);
    if (n >= 2) {
        for (int k = 0; k < 2; k++) {
            face = face_from_pos(f, n, pos);
            pos = pos_from_face(f, n, face);
        }
    }
    w->pos = pos;
    w->body = angle_norm(face - w->neck);
    w->pos_age = 0;
    return 0;
}

/* ---- the ball and the players ----------------------------------------------------- */
static vec2_t seen_pos(const dt_world_t *w, const dt_seen_t *o)
{
    return vec2_add(w->pos, vec2_polar(o->dist, dt_world_face(w) + deg2rad(o->dir)));
}

/* velocity from the change values: radial dchg, tangential dirchg, plus our own motion */
static vec2_t seen_vel(const dt_world_t *w, const dt_seen_t *o)
{
    double a = dt_world_face(w) + deg2rad(o->dir);
    vec2_t e = vec2(cos(a), sin(a)), n = vec2(-sin(a), cos(a));
    vec2_t rel = vec2_add(vec2_scale(e, o->dchg), vec2_scale(n, deg2rad(o->dirchg) * o->dist));
    return vec2_add(rel, w->vel);
}

/* Ball filter: the prediction corrected by each observation. Distances are quantised
 * (about 5 %, docs/protocol/player.md §5.4), radial change values too (2 % of the
 * distance), so far balls move the estimate a little; a clear change of course (a kick)
 * resets it. */
static void update_ball(dt_world_t *w, const dt_seen_t *o)
{
    dt_obj_t *b = &w->ball;
    vec2_t z = seen_pos(w, o);
    double err = vec2_len(vec2_sub(z, b->pos));
    double tol = 0.1 * o->dist + 0.3;
    vec2_t v = o->has_chg ? seen_vel(w, o) : b->vel;
    double verr = vec2_len(vec2_sub(v, b->vel));
    int fresh = b->age >= 4 || err > tol || (o->has_chg && verr > 0.25 + 0.03 * o->dist);
    if (fresh && b->age < 4 && w->pm == DT_PM_PLAY_ON)
        w->kicked_tick = w->tick;
    if (fresh) {
        b->pos = z;
        b->vel = o->has_chg ? v : vec2(0.0, 0.0);
    } else {
        double k = o->dist < 4.0 ? 0.9 : o->dist < 15.0 ? 0.5 : 0.3;
        double kv = o->dist < 6.0 ? 0.9 : o->dist < 15.0 ? 0.5 : 0.25;
        b->pos = vec2_add(b->pos, vec2_scale(vec2_sub(z, b->pos), k));
        b->vel = vec2_add(b->vel, vec2_scale(vec2_sub(v, b->vel), kv));
    }
    if (w->pm != DT_PM_PLAY_ON)
        b->vel = vec2(0.0, 0.0);
    b->age = 0;
}

static void update_player(dt_world_t *w, const dt_seen_t *o)
{
    vec2_t p = seen_pos(w, o);
    /* the ball changed its course next to someone: he played it */
    if (vec2_len(vec2_sub(p, w->ball.pos)) < 1.6 && w->kicked_tick == w->tick) {
        w->other_touch = w->tick;
        if (o->team > 0) {
            w->kicker = o->unum;
            w->last_mate_touch = w->tick;
        } else if (o->team < 0) {
            w->last_opp_touch = w->tick;
        }
    }
    dt_obj_t *slot = NULL;
    if (o->team > 0 && o->unum > 0 && o->unum != w->unum)
        slot = &w->mate[o->unum];
    else if (o->team < 0 && o->unum > 0)
        slot = &w->opp[o->unum];
    else if (w->nanon < 2 * DT_PLAYERS)
        slot = &w->anon[w->nanon++];
    if (!slot)
        return;
    slot->pos = p;
    slot->vel = o->team > 0 ? vec2(1.0, 0.0) : o->team < 0 ? vec2(-1.0, 0.0) : vec2(0.0, 0.0);
    slot->age = 0;
    slot->goalie = o->goalie;
}

void dt_world_on_see(dt_world_t *w, const dt_see_t *s)
{
    localise(w, s);
    w->nanon = 0;
    for (int i = 0; i < s->n; i++) {
        const dt_seen_t *o = &s->obj[i];
        if (o->kind == DT_OBJ_BALL && o->dist >= 0.0)
            update_ball(w, o);
    }
    for (int i = 0; i < s->n; i++) {
        if (s->obj[i].kind == DT_OBJ_PLAYER && s->obj[i].dist >= 0.0)
            update_player(w, &s->obj[i]);
    }
}

/* ---- the referee ------------------------------------------------------------------ */
/* The first kick-off in synch mode (dt_play.c, prematch): what the player knows of the
 * others it learnt in the cycles it spent waiting, as many as the wall clock gave it
 * while everyone joined; it starts afresh from the sees of the match (the ball lies on
 * the centre spot, restart_place) with the normal view and the neck scan at its start,
 * so that the same seed plays the same match however long it waited. */
static void first_kick_off(dt_world_t *w)
{
    w->prematch = 0;
    if (!(w->prm->synch_mode > 0))
        return;
    for (int i = 0; i <= DT_PLAYERS; i++) {
        w->mate[i].age = w->opp[i].age = DT_UNKNOWN;
        w->mate[i].goalie = w->opp[i].goalie = 0;
    }
    w->nanon = 0;
    w->scan = 0;
    w->view_back = w->prematch_set;
}

/* the side that takes the next kick: the named side for set plays, the other one for
 * infringements (docs/protocol/referee.md §1: the suffix names the offender) and after a goal */
static int mode_ours(const dt_world_t *w, dt_pm_t pm, char side)
{
    char us = w->side > 0 ? 'l' : 'r';
    switch (pm) {
    case DT_PM_GOAL: case DT_PM_OFFSIDE: case DT_PM_FOUL: case DT_PM_BACK_PASS:
    case DT_PM_FREE_KICK_FAULT: case DT_PM_CATCH_FAULT: case DT_PM_ILLEGAL_DEFENSE:
        return side != us;
    default:
        return side == us;
    }
}

/* The referee has put the ball somewhere for the restart (docs/protocol/referee.md §2-§5):
 * where exactly only for the kick-off; for goal and corner kicks the end and the corner are
 * known (the side of the pitch is a guess from where the ball was); elsewhere it lies about
 * where it was. Until it is seen again the ball counts as not seen lately. */
static void restart_place(dt_world_t *w, dt_pm_t pm)
{
    dt_obj_t *b = &w->ball;
    double sy = b->pos.y >= 0.0 ? 1.0 : -1.0, sx = w->pm_ours ? 1.0 : -1.0;
    if (pm == DT_PM_PLAY_ON || pm == DT_PM_DROP_BALL || pm == DT_PM_GOAL)
        return;
    if (pm == DT_PM_KICK_OFF || pm == DT_PM_BEFORE_KICK_OFF) {
        b->pos = vec2(0.0, 0.0);
        b->age = 0;
        return;
    }
    if (pm == DT_PM_GOAL_KICK)
        b->pos = vec2(-sx * 47.0, sy * 9.16);
    else if (pm == DT_PM_CORNER_KICK)
        b->pos = vec2(sx * 51.5, sy * 33.0);
    else if (pm == DT_PM_KICK_IN)
        b->pos.y = sy * PITCH_HALF_W;
    if (b->age < 8)
        b->age = 8;
}

void dt_world_on_referee(dt_world_t *w, const char *text)
{
    char us = w->side > 0 ? 'l' : 'r', who;
    int n;
    if (sscanf(text, "goal_%c_%d", &who, &n) == 2) {
        if (who == us)
            w->score_ours = n;
        else
            w->score_theirs = n;
    }
    if (w->goalie && sscanf(text, "goalie_catch_ball_%c", &who) == 1 && who == us)
        w->holding = 1;
    if (sscanf(text, "penalty_onfield_%c", &who) == 1)
        w->pen_goal_x = (who == 'l' ? -PITCH_HALF_L : PITCH_HALF_L) * w->side;
    char side;
    dt_pm_t pm = dt_parse_playmode(text, &side);
    if (pm == DT_PM_OTHER)
        return;
    if (w->prematch && pm != DT_PM_BEFORE_KICK_OFF)
        first_kick_off(w);
    if (pm != DT_PM_FREE_KICK || !w->holding || side != us)
        w->holding = 0;
    w->pm = pm;
    w->pm_side = side;
    w->pm_ours = mode_ours(w, pm, side);
    w->pm_tick = w->tick;
    if (pm != DT_PM_PLAY_ON) {
        w->ball.vel = vec2(0.0, 0.0);
        w->stop_tick = w->tick;
        w->last_mate_touch = w->last_opp_touch = -DT_UNKNOWN; /* a new set play */
    }
    restart_place(w, pm);
}
