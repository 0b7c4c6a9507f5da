/* sim_step.c -- one simulation step in the order of docs/protocol/physics.md §1: pending
 * dashes (stamina and acceleration, the bipedal rotation: world/sim_dash.c), command
 * slots freed, the play-mode dependent move of the objects (world/sim_move.c), time,
 * referee, stamina (physics.md §3), hear capacity and catch ban; and the referee the
 * process runs (sim_step_referees). Pure: works on a sim_world_t. */
#include "sim.h"
#include "sim_phys.h"

/* ---- the step ---------------------------------------------------------------------- */
/* counters run down; the body slot stays taken while frozen by a tackle or a foul */
static void reset_slots(sim_player_t *p)
{
    shm_player_sh_t *s = &p->sh;
    if (s->tackle_expires > 0)
        s->tackle_expires--;
    if (s->foul_charged > 0)
        s->foul_charged--;
    if (s->arm_movable > 0)
        s->arm_movable--;
    if (s->arm_expires > 0)
        s->arm_expires--;
    p->body_used = s->tackle_expires > 0 || s->foul_charged > 0;
    p->neck_used = 0;
    for (int l = 0; l < 2; l++) {
        p->leg[l] = SIM_LEG_NONE;
        p->dash_pow[l] = p->dash_dir[l] = 0.0;
    }
}

static void step_before_kick_off(sim_world_t *w)
{
    sim_move_turn_objects(w);
    w->stoppage++;
    sim_referee_analyse(w);
}

static void step_stoppage(sim_world_t *w)
{
    int before = w->play_mode;
    w->catcher = -1;
    sim_move_objects(w);
    w->stoppage++;
    sim_referee_analyse(w);
    if (w->play_mode != before) {
        w->time++;
        w->stoppage = 0;
    }
}

static void step_end_of_cycle(sim_world_t *w)
{
    int hmax = conf_int(w->conf, SP_hear_max), hinc = conf_int(w->conf, SP_hear_inc);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled)
            continue;
        sim_stamina_step(w, p);
        for (int k = 0; k < 2; k++)
            p->hear_cap[k] = p->hear_cap[k] + hinc > hmax ? hmax : p->hear_cap[k] + hinc;
        if (p->catch_ban > 0)
            p->catch_ban--;
    }
}

void sim_step(sim_world_t *w)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        sim_dash_apply(w, p);
        reset_slots(p);
    }
    if (w->play_mode == PM_BEFORE_KICK_OFF) {
        step_before_kick_off(w);
    } else if (sim_phys_stoppage(w->play_mode)) {
        step_stoppage(w);
    } else if (w->play_mode != PM_TIME_OVER) {
        sim_move_objects(w);
        w->time++;
        w->stoppage = 0;
        sim_referee_analyse(w);
    } else {
        w->stoppage++; /* time_over: nothing moves, turns are not even committed */
    }
    step_end_of_cycle(w);
    w->steps++;
}

/* the referee of the process, given to sim_referee_init: rcssserver 19's referees in its
 * order (referee/sim_ref_parts.c), the keepaway referee, and the coaches' automatic type
 * assignment at the first kick-off (sim_coach.c) */
const sim_ref_table_t sim_step_referees = {
    .parts = sim_ref_parts,
    .keepaway_kick_off = sim_keepaway_kick_off,
    .keepaway_mode = sim_keepaway_mode_change,
    .keepaway_analyse = sim_keepaway_analyse,
    .first_kick_off = sim_coach_kick_off,
};
