/* sim_ref_util.c -- the small facts every referee part uses (docs/protocol/referee.md):
 * the referee's random numbers, the sets of play modes (penalty shoot-out, free-kick
 * modes, goal kicks, the stoppages the referee waits out), ball and player sizes, whether
 * a player can kick the ball, and a state flag raised on a player. Pure: works on a
 * sim_world_t and calls nothing of the referee's. */
#include "sim_ref.h"
#include "playmode.h"

static double cr(const sim_world_t *w, param_id_t id) { return conf_real(w->conf, id); }

static int pm_in(int pm, int a, int b) { return pm >= a && pm <= b; }

rng_t *sim_ref_rng(sim_world_t *w)
{
    return &w->rng_ref;
}

/* ---- play-mode sets --------------------------------------------------------------- */
int sim_ref_is_penalty(int pm)
{
    return pm_in(pm, PM_PENALTY_SETUP_L, PM_PENALTY_SCORE_R);
}

int sim_ref_fk_mode(int pm)
{
    return pm_in(pm, PM_KICK_OFF_L, PM_FREE_KICK_R) || pm == PM_CORNER_KICK_L
           || pm == PM_CORNER_KICK_R || pm == PM_INDIRECT_FREE_KICK_L
           || pm == PM_INDIRECT_FREE_KICK_R;
}

int sim_ref_goal_kick(int pm)
{
    return pm == PM_GOAL_KICK_L || pm == PM_GOAL_KICK_R;
}

int sim_ref_stoppage(int pm)
{
    return pm == PM_GOAL_L || pm == PM_GOAL_R || pm == PM_OFFSIDE_L || pm == PM_OFFSIDE_R
           || pm_in(pm, PM_FOUL_CHARGE_L, PM_FOUL_PUSH_R)
           || pm_in(pm, PM_BACK_PASS_L, PM_CATCH_FAULT_R)
           || pm == PM_ILLEGAL_DEFENSE_L || pm == PM_ILLEGAL_DEFENSE_R;
}

/* ---- sizes and the kickable area ---------------------------------------------------- */
double sim_ref_ball_size(const sim_world_t *w)
{
    return cr(w, SP_ball_size);
}

double sim_ref_player_size(const sim_world_t *w, int idx)
{
    return sim_player_ptype(w, &w->pl[idx])->player_size;
}

int sim_ref_kickable(const sim_world_t *w, int idx)
{
    const sim_player_t *p = &w->pl[idx];
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double ka = t->player_size + cr(w, SP_ball_size) + t->kickable_margin;
    double dx = w->ball.x - p->sh.x, dy = w->ball.y - p->sh.y;
    return dx * dx + dy * dy <= ka * ka;
}

void sim_ref_add_state(sim_world_t *w, int idx, uint32_t st)
{
    if (idx >= 0 && idx < SHM_MAX_PLAYERS && w->pl[idx].sh.enabled)
        w->pl[idx].cycle_state |= st;
}
