/* sim_phys.c -- the helpers the physics files share (sim_phys.h): the play-mode sets of
 * the physics (the stoppages, the modes in which a kick has no effect, the penalty
 * shoot-out) and the per-player rates (player_rand, kick_rand, kickable area,
 * slowness_on_top). Pure: works on a sim_world_t. */
#include <math.h>
#include "sim_phys.h"

int sim_phys_stoppage(int pm)
{
    switch (pm) {
    case PM_GOAL_L: case PM_GOAL_R: case PM_OFFSIDE_L: case PM_OFFSIDE_R:
    case PM_ILLEGAL_DEFENSE_L: case PM_ILLEGAL_DEFENSE_R:
    case PM_FOUL_CHARGE_L: case PM_FOUL_CHARGE_R: case PM_FOUL_PUSH_L: case PM_FOUL_PUSH_R:
    case PM_BACK_PASS_L: case PM_BACK_PASS_R:
    case PM_FREE_KICK_FAULT_L: case PM_FREE_KICK_FAULT_R:
    case PM_CATCH_FAULT_L: case PM_CATCH_FAULT_R:
        return 1;
    default:
        return 0;
    }
}

int sim_phys_kick_forbidden(int pm)
{
    return pm == PM_BEFORE_KICK_OFF || pm == PM_TIME_OVER || sim_phys_stoppage(pm);
}

int sim_phys_penalty_shootout(int pm)
{
    return pm >= PM_PENALTY_SETUP_L && pm <= PM_PENALTY_SCORE_R;
}

double sim_phys_randp(const sim_world_t *w, const sim_player_t *p)
{
    double r = sim_cr(w, SP_player_rand);
    if (conf_bool(w->conf, SP_team_actuator_noise))
        r *= p->sh.side == SHM_SIDE_LEFT ? sim_cr(w, SP_prand_factor_l) : sim_cr(w, SP_prand_factor_r);
    return r;
}

double sim_phys_kick_rand(const sim_world_t *w, const sim_player_t *p)
{
    double r = sim_player_ptype(w, p)->kick_rand;
    if (conf_bool(w->conf, SP_team_actuator_noise))
        r *= p->sh.side == SHM_SIDE_LEFT ? sim_cr(w, SP_kick_rand_factor_l)
                                         : sim_cr(w, SP_kick_rand_factor_r);
    return r;
}

double sim_phys_kickable_area(const sim_world_t *w, const sim_player_t *p)
{
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    return t->player_size + sim_cr(w, SP_ball_size) + t->kickable_margin;
}

int sim_phys_ball_kickable(const sim_world_t *w, const sim_player_t *p)
{
    double dx = p->sh.x - w->ball.x, dy = p->sh.y - w->ball.y;
    return dx * dx + dy * dy <= pow(sim_phys_kickable_area(w, p), 2);
}

/* (a factor <= 0 would make the reference divide by zero; it is taken as 1) */
double sim_phys_slowness(const sim_world_t *w, const sim_player_t *p)
{
    if (!(p->sh.y < 0.0))
        return 1.0;
    double f = p->sh.side == SHM_SIDE_LEFT ? sim_cr(w, SP_slowness_on_top_for_left_team)
                                           : sim_cr(w, SP_slowness_on_top_for_right_team);
    return f > 0.0 ? f : 1.0;
}
