/* sim_loop.c -- one turn of the process's main loop (sim_main.c), after each wait of its
 * clock: the clients, the commands, the step or a reset, the match flow (team commands,
 * auto mode, the lines the reference prints), publish. What happens while the clock
 * waits is in sim_clock.c (sim_between_steps). */
#include <stdio.h>
#include "sim.h"
#include "log.h"
#include "playmode.h"

static int connected_players(const shm_region_sh_t *r)
{
    int n = 0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (atomic_load_explicit(&r->client[i].state, memory_order_acquire) == CLIENT_ST_ACTIVE
            && r->client[i].kind == CLIENT_KIND_PLAYER)
            n++;
    }
    return n;
}

/* the team commands run while the ball is not in play; the right one once the left
 * team is there (Stadium::startTeams) */
static void start_teams(sim_t *s)
{
    const char *l = conf_str(&s->conf, SP_team_l_start), *r = conf_str(&s->conf, SP_team_r_start);
    if (s->world.play_mode == PM_PLAY_ON)
        return;
    if (!s->team_started[0] && l[0]) {
        s->team_started[0] = 1;
        sim_proc_start_team(&s->proc, 0, l);
    }
    if (!s->team_started[1] && r[0] && s->world.team[0][0]) {
        s->team_started[1] = 1;
        sim_proc_start_team(&s->proc, 1, r);
    }
}

/* after each step: team commands, auto mode, the lines the reference prints */
static void sim_match_flow(sim_t *s)
{
    start_teams(s);
    sim_world_print_notes(&s->world, stdout); /* the players who left, the types changed */
    int f = sim_referee_auto(&s->world, connected_players(s->shm.r));
    if (f & SIM_AUTO_SAY_KICK_OFF)
        puts("Waiting to kick off");
    if (f & SIM_AUTO_SAY_CONNECT)
        puts("Waiting for players to connect");
    sim_world_print_notes(&s->world, stdout); /* before the kick-off that made them */
    if (s->world.ref.kick_offs != s->kick_offs_said) {
        s->kick_offs_said = s->world.ref.kick_offs;
        puts(s->world.ref.kick_off_last == SHM_SIDE_LEFT ? "Kick_off_left" : "Kick_off_right");
    }
    if (f & SIM_AUTO_SAY_END)
        puts("Waiting after end of match");
    if (f & SIM_AUTO_GAME_OVER)
        s->game_over = 1;
    fflush(stdout);
}

/* one cycle: clients, commands, step (or a reset), publish */
void sim_loop_turn(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    int pm = s->world.play_mode;
    sim_proc_tick(&s->proc);
    sim_proc_wait_recorder(&s->proc, r);
    sim_proc_wait_monitors(&s->proc, r); /* every frame to every monitor */
    int64_t t0 = shm_now_ns(); /* the sim's own work from here (metrics) */
    sim_world_sync_clients(&s->world, r->client);
    sim_world_sync_teams(&s->world, r->team);
    sim_cmd_drain(&s->world, r, 1);
    if (sim_reset_pending(s)) {
        sim_reset(s);
    } else {
        sim_step(&s->world);
        sim_match_flow(s);
    }
    if (s->world.play_mode != pm)
        log_debug("time %d: %s", s->world.time, playmode_name(s->world.play_mode));
    sim_publish(&s->world, r, sim_clock_due(s->grid0_ns, s->poll), s->poll);
    sim_world_end_cycle(&s->world);
    s->last_step_ns = shm_now_ns();
    sim_runner_after_turn(s, t0);
}

