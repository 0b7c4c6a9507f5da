/* sim_ref_calls.c -- the referee's calls that place the ball (docs/protocol/referee.md):
 * the ball placed for a new mode (Stadium::placeBall), the kick-off at a half boundary
 * (Stadium::kickOff, with the keepaway referee's and the process's part of it through
 * the referee table), drop balls, free kicks and goal kicks awarded, a monitor's foul
 * call, and yellow and red cards. Every mode change goes through sim_referee_set_mode. */
#include <math.h>
#include <stdio.h>
#include "sim_ref.h"
#include "playmode.h"

static int ci(const sim_world_t *w, param_id_t id) { return conf_int(w->conf, id); }

/* ---- ball placement --------------------------------------------------------------- */
void sim_ref_place_ball(sim_world_t *w, int pm, int side, double x, double y)
{
    w->ball.x = x;
    w->ball.y = y;
    w->ball.vx = w->ball.vy = w->ball.ax = w->ball.ay = 0.0;
    w->ref.acc_x = w->ref.acc_y = 0.0;
    w->ref.kick_off_side = side;
    if (pm == PM_NULL)
        return;
    if (sim_ref_is_penalty(w->play_mode) && (pm == PM_PLAY_ON || pm == PM_DROP_BALL))
        return; /* never play_on during a shoot-out */
    sim_referee_set_mode(w, pm);
}

/* ---- kick-off (Stadium::kickOff) ------------------------------------------------- */
static void recover_players(sim_world_t *w)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (w->pl[i].sh.enabled)
            sim_player_reset_stamina(w, &w->pl[i]);
    }
}

static int at_half_boundary(const sim_world_t *w)
{
    int h = w->ref.half_cycles, e = w->ref.extra_cycles, t = w->time;
    int normal = h * ci(w, SP_nr_normal_halfs);
    return h <= 0 || (t <= normal && t % h == 0)
           || (t > normal && e > 0 && (t - normal) % e == 0);
}

int sim_referee_kick_off(sim_world_t *w)
{
    const sim_ref_table_t *t = w->ref.table;
    if (t && t->keepaway_kick_off && t->keepaway_kick_off(w))
        return 0;
    if (!at_half_boundary(w))
        return -1;
    int h = w->ref.half_cycles, normal = h * ci(w, SP_nr_normal_halfs);
    int cur = w->time, len = h;
    if (cur > normal) {
        cur -= normal;
        len = w->ref.extra_cycles;
    }
    int left = len <= 0 || (cur / len) % 2 == 0;
    if (ci(w, SP_nr_normal_halfs) >= 0 && w->time < normal)
        recover_players(w);
    sim_ref_place_ball(w, PM_NULL, left ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT, 0.0, 0.0);
    if (left && w->time == 0 && t && t->first_kick_off)
        t->first_kick_off(w); /* the automatic type assignment (the process's coach) */
    if (w->time == 0 && w->ref.kick_offs == 0 && sim_world_reproducible(w))
        sim_world_first_kick_off(w); /* what the joining took leaves no trace */
    sim_referee_set_mode(w, left ? PM_KICK_OFF_L : PM_KICK_OFF_R);
    w->ref.kick_offs++;
    w->ref.kick_off_last = left ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    return 0;
}

/* ---- drop ball and free kicks ---------------------------------------------------- */
static void drop_ball_at(sim_world_t *w, double x, double y, int out_of_penalty)
{
    w->catcher = -1;
    sim_ref_truncate(&x, &y);
    if (out_of_penalty)
        sim_ref_out_of_penalty(SHM_SIDE_NONE, &x, &y);
    sim_ref_place_ball(w, PM_DROP_BALL, SHM_SIDE_NONE, x, y);
    sim_ref_place_in_field(w);
    if (!sim_ref_is_penalty(w->play_mode))
        sim_referee_set_mode(w, PM_PLAY_ON);
}

void sim_referee_drop_ball(sim_world_t *w, double x, double y)
{
    if (!isfinite(x) || !isfinite(y))
        x = y = 0.0;
    drop_ball_at(w, x, y, 0); /* Stadium::dropBall: no penalty-area rule */
}

void sim_referee_call_foul(sim_world_t *w, int side, double x, double y)
{
    if (sim_ref_is_penalty(w->play_mode) || side == SHM_SIDE_NONE)
        return;
    if (!isfinite(x) || !isfinite(y))
        x = y = 0.0;
    /* the reference names the fouling side "l" only for -side == left, and gives the
     * free kick to the left only for side == left: a monitor's other numbers are the
     * right's free kick after a "foul_r" */
    sim_world_referee_say(w, -side == SHM_SIDE_LEFT ? "foul_l" : "foul_r");
    w->catcher = -1;
    sim_ref_truncate(&x, &y);
    int kick = side == SHM_SIDE_LEFT ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    sim_ref_place_ball(w, kick == SHM_SIDE_LEFT ? PM_FREE_KICK_L : PM_FREE_KICK_R, kick, x, y);
    sim_ref_place_in_field(w);
}

void sim_ref_award_drop_ball(sim_world_t *w, double x, double y)
{
    drop_ball_at(w, x, y, 1);
}

void sim_ref_award_free_kick(sim_world_t *w, int side, double x, double y)
{
    sim_ref_truncate(&x, &y);
    sim_ref_out_of_penalty(-side, &x, &y);
    if (side == SHM_SIDE_LEFT)
        sim_ref_place_ball(w, PM_FREE_KICK_L, SHM_SIDE_LEFT, x, y);
    else if (side == SHM_SIDE_RIGHT)
        sim_ref_place_ball(w, PM_FREE_KICK_R, SHM_SIDE_RIGHT, x, y);
}

void sim_ref_award_goal_kick(sim_world_t *w, int side, double x, double y)
{
    y = y > 0.0 ? PITCH_GOAL_AREA_W / 2.0 : -PITCH_GOAL_AREA_W / 2.0;
    w->catcher = -1;
    x = PITCH_LENGTH / 2.0 - PITCH_GOAL_AREA_L;
    if (side == SHM_SIDE_LEFT)
        sim_ref_place_ball(w, PM_GOAL_KICK_L, SHM_SIDE_LEFT, -x, y);
    else
        sim_ref_place_ball(w, PM_GOAL_KICK_R, SHM_SIDE_RIGHT, x, y);
}

/* ---- cards ----------------------------------------------------------------------- */
static void card_say(sim_world_t *w, int idx, const char *colour)
{
    char msg[40];
    const sim_player_t *p = &w->pl[idx];
    snprintf(msg, sizeof msg, "%s_card_%s_%d", colour, p->sh.side == SHM_SIDE_LEFT ? "l" : "r",
             p->sh.unum);
    sim_world_referee_say(w, msg);
}

void sim_ref_red_card(sim_world_t *w, int idx)
{
    if (!w->pl[idx].sh.enabled)
        return;
    card_say(w, idx, "red");
    w->pl[idx].sh.card = 2;
    sim_player_disable(w, idx); /* the client cannot reconnect (netgw checks the card) */
}

void sim_ref_yellow_card(sim_world_t *w, int idx)
{
    if (!w->pl[idx].sh.enabled)
        return;
    card_say(w, idx, "yellow");
    if (w->pl[idx].sh.card == 1) { /* the second yellow */
        sim_ref_red_card(w, idx);
        return;
    }
    w->pl[idx].sh.card = 1;
}
