/* sim_referee.c -- the referee's dispatcher (docs/protocol/referee.md): play-mode changes
 * with their announcements, the hooks the physics calls (w->rules: kicks, tackles, failed
 * kicks, ball contacts, catches, punches) and the analysis after each step, each handed to
 * the referees in the order rcssserver 19 runs them (time, ball stuck, offside, set plays,
 * touch line, goalie, fouls, illegal defense, penalty shoot-out), and to the keepaway
 * referee. It reaches them only through the table given to sim_referee_init
 * (sim_ref_table_t: the parts of sim_ref_parts.c, the keepaway referee, the process's
 * part of the first kick-off), never by name: they call sim_referee_set_mode. With
 * server::coach=true and no coach_w_referee there is no referee: modes change only when
 * someone says so. */
#include <math.h>
#include <string.h>
#include "sim_ref.h"
#include "playmode.h"

static double cr(const sim_world_t *w, param_id_t id) { return conf_real(w->conf, id); }
static int    ci(const sim_world_t *w, param_id_t id) { return conf_int(w->conf, id); }

/* seconds of server::half_time / extra_half_time in cycles, rounded as the reference */
static int half_cycles(const sim_world_t *w, param_id_t id)
{
    int step = ci(w, SP_simulator_step);
    return step > 0 ? (int)(cr(w, id) * 1000.0 / step + 0.5) : 0;
}

/* the referees in the reference's order (none without a table) */
static const sim_ref_part_t *const *parts(const sim_world_t *w)
{
    static const sim_ref_part_t *const none[] = { NULL };
    const sim_ref_table_t *t = w->ref.table;
    return t && t->parts ? t->parts : none;
}

/* ---- play modes ------------------------------------------------------------------ */
static int placement_side(int pm, int side)
{
    switch (pm) {
    case PM_KICK_OFF_L: case PM_KICK_IN_L: case PM_FREE_KICK_L: case PM_INDIRECT_FREE_KICK_L:
    case PM_CORNER_KICK_L: case PM_GOAL_KICK_L: case PM_ILLEGAL_DEFENSE_R:
        return SHM_SIDE_LEFT;
    case PM_KICK_OFF_R: case PM_KICK_IN_R: case PM_FREE_KICK_R: case PM_INDIRECT_FREE_KICK_R:
    case PM_CORNER_KICK_R: case PM_GOAL_KICK_R: case PM_ILLEGAL_DEFENSE_L:
        return SHM_SIDE_RIGHT;
    case PM_DROP_BALL:
        return SHM_SIDE_NONE;
    default:
        return side;
    }
}

void sim_referee_set_mode(sim_world_t *w, int pm)
{
    if (pm <= PM_NULL || pm >= PM_MAX)
        return;
    w->play_mode = pm;
    w->mode_wait = 0;
    if (w->ref.enabled) { /* every referee reacts, in the reference's order */
        for (const sim_ref_part_t *const *p = parts(w); *p; p++) {
            if ((*p)->mode)
                (*p)->mode(w, pm);
        }
    }
    w->ref.kick_off_side = placement_side(pm, w->ref.kick_off_side);
    if (pm != PM_PLAY_ON)
        w->last_toucher = -1;
    if (pm != PM_GOAL_L && pm != PM_GOAL_R)
        sim_world_referee_say(w, playmode_name(pm));
    const sim_ref_table_t *t = w->ref.table;
    if (t && t->keepaway_mode)
        t->keepaway_mode(w, pm);
}

/* ---- hooks from the physics ------------------------------------------------------ */
/* the acceleration this kick gave the ball: what the ball's accumulated acceleration
 * grew by since the previous ball event of the same step */
static double kick_accel(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    if (r->acc_step != w->steps) {
        r->acc_step = w->steps;
        r->acc_x = r->acc_y = 0.0;
    }
    double dx = w->ball.ax - r->acc_x, dy = w->ball.ay - r->acc_y;
    r->acc_x = w->ball.ax;
    r->acc_y = w->ball.ay;
    return sqrt(dx * dx + dy * dy);
}

static void sync_toucher(sim_world_t *w)
{
    w->last_toucher = w->ref.touched;
}

static void on_kick(sim_world_t *w, int idx)
{
    double a = kick_accel(w);
    if (!w->ref.enabled)
        return;
    for (const sim_ref_part_t *const *p = parts(w); *p; p++) {
        if ((*p)->kick)
            (*p)->kick(w, idx, a);
    }
    sync_toucher(w);
}

/* a referee without a tackle hook takes a successful tackle as a kick */
static void on_tackle(sim_world_t *w, int idx, int foul)
{
    double a = kick_accel(w);
    if (!w->ref.enabled)
        return;
    for (const sim_ref_part_t *const *p = parts(w); *p; p++) {
        if ((*p)->tackle)
            (*p)->tackle(w, idx, foul);
        else if ((*p)->kick)
            (*p)->kick(w, idx, a);
    }
    sync_toucher(w);
}

static void on_failed(sim_world_t *w, int idx)
{
    if (!w->ref.enabled)
        return;
    for (const sim_ref_part_t *const *p = parts(w); *p; p++) {
        if ((*p)->failed)
            (*p)->failed(w, idx);
    }
}

static void touched(sim_world_t *w, int idx)
{
    for (const sim_ref_part_t *const *p = parts(w); *p; p++) {
        if ((*p)->touch)
            (*p)->touch(w, idx);
    }
    sync_toucher(w);
}

static void on_collide(sim_world_t *w, int idx)
{
    if (w->ref.enabled)
        touched(w, idx);
}

static void on_catch(sim_world_t *w, int idx)
{
    const sim_player_t *pl = &w->pl[idx];
    kick_accel(w); /* the catch stopped the ball */
    if (!sim_ref_is_penalty(w->play_mode))
        sim_world_referee_say(w, pl->sh.side == SHM_SIDE_LEFT ? "goalie_catch_ball_l"
                                                              : "goalie_catch_ball_r");
    if (w->ref.enabled) {
        touched(w, idx);
        for (const sim_ref_part_t *const *p = parts(w); *p; p++) {
            if ((*p)->caught)
                (*p)->caught(w, idx);
        }
    }
    /* the goalie holds the ball only for the free kick he was given */
    w->catcher = w->play_mode == PM_FREE_KICK_L || w->play_mode == PM_FREE_KICK_R ? idx : -1;
    sync_toucher(w);
}

static void on_punch(sim_world_t *w, int idx)
{
    kick_accel(w);
    if (!w->ref.enabled)
        return;
    touched(w, idx);
    for (const sim_ref_part_t *const *p = parts(w); *p; p++) {
        if ((*p)->punched)
            (*p)->punched(w, idx);
    }
    sync_toucher(w);
}

/* what the physics tells the referee (w->rules) */
static const sim_rules_t referee_hooks = {
    .on_kick = on_kick,
    .on_tackle = on_tackle,
    .on_failed = on_failed,
    .on_collide = on_collide,
    .on_catch = on_catch,
    .on_punch = on_punch,
};

void sim_referee_init(sim_world_t *w, const sim_ref_table_t *table)
{
    sim_ref_t *r = &w->ref;
    memset(r, 0, sizeof *r);
    r->table = table;
    w->rules = &referee_hooks;
    r->enabled = !(conf_bool(w->conf, SP_coach) && !conf_bool(w->conf, SP_coach_w_referee));
    r->half_cycles = half_cycles(w, SP_half_time);
    r->extra_cycles = half_cycles(w, SP_extra_half_time);
    r->kick_off_side = SHM_SIDE_LEFT;
    r->off_kick_time = r->off_kick_stoppage = -1;
    r->fk_timer = -1;
    r->fk_taker = r->touched = r->indirect_kicker = -1;
    r->bp_last = r->bp_before = -1;
    r->pen_timer = -1;
    r->pen_last_taker = -1;
    r->ill_kick_time = -1;
    r->kick_off_wait = ci(w, SP_kick_off_wait) > 0 ? ci(w, SP_kick_off_wait) : 0;
    r->connect_wait = ci(w, SP_connect_wait) > 0 ? ci(w, SP_connect_wait) : 0;
    r->game_over_wait = ci(w, SP_game_over_wait);
}

void sim_referee_attach(sim_world_t *w, const sim_ref_table_t *table)
{
    w->ref.table = table;
    w->rules = &referee_hooks;
}

/* ---- analysis after each step ---------------------------------------------------- */
/* who dashed in the step just done (fouls look at the victim's last two cycles) */
static void track_dashes(sim_world_t *w)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        uint32_t n = w->pl[i].sh.count[SHM_CNT_DASH];
        w->ref.dashed_last[i] = n != w->ref.dash_count[i];
        w->ref.dash_count[i] = n;
    }
}

static void referee_rules(sim_world_t *w)
{
    if (!w->ref.enabled)
        return;
    track_dashes(w);
    for (const sim_ref_part_t *const *p = parts(w); *p; p++) {
        if ((*p)->analyse)
            (*p)->analyse(w);
    }
    sync_toucher(w);
}

void sim_referee_analyse(sim_world_t *w)
{
    referee_rules(w);
    const sim_ref_table_t *t = w->ref.table;
    if (t && t->keepaway_analyse)
        t->keepaway_analyse(w); /* last, as the reference's keepaway referee */
}
