/* sim_loop.c -- one turn of the process's main loop (sim_main.c), after each wait of its
 * clock: the clients, the commands, the step or a reset, the match flow (team commands,
 * auto mode, the lines the reference prints), publish. What happens while the clock
 * waits is in sim_clock.c (sim_between_steps). */
#include <stdio.h>
#include <string.h>
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

/* The lines of a turn, in the order the reference prints them, as notes printed after
 * the commit (sim_after_commit): a sim that dies before never printed them, its
 * successor prints them once. A line said before the notes the referee just made goes
 * in front of them. */
static void note_before(sim_world_t *w, size_t mark, const char *line)
{
    char tail[SIM_NOTES_LEN];
    size_t n = w->notes_len - mark;
    memcpy(tail, w->notes + mark, n);
    w->notes_len = mark;
    sim_world_note(w, "%s", line);
    if (w->notes_len + n < sizeof w->notes) {
        memcpy(w->notes + w->notes_len, tail, n);
        w->notes_len += n;
        w->notes[w->notes_len] = '\0';
    }
}

/* after each step: auto mode and the lines the reference prints */
static void sim_match_flow(sim_t *s)
{
    sim_world_t *w = &s->world;
    size_t mark = w->notes_len; /* the players who left, the types changed */
    int f = sim_referee_auto(w, connected_players(s->shm.r));
    if (f & SIM_AUTO_SAY_KICK_OFF)
        note_before(w, mark, "Waiting to kick off");
    if (f & SIM_AUTO_SAY_CONNECT)
        note_before(w, mark, "Waiting for players to connect");
    if (w->ref.kick_offs != s->kick_offs_said) {
        s->kick_offs_said = w->ref.kick_offs;
        sim_world_note(w, "%s", w->ref.kick_off_last == SHM_SIDE_LEFT ? "Kick_off_left"
                                                                     : "Kick_off_right");
    }
    if (f & SIM_AUTO_SAY_END)
        sim_world_note(w, "Waiting after end of match");
    if (f & SIM_AUTO_GAME_OVER)
        s->game_over = 1;
}

/* after the commit: the team commands and the turn's lines (stdout) */
void sim_loop_outside(sim_t *s)
{
    s->runner.sink.hold = 0;
    sim_events_flush(&s->runner.sink);
    start_teams(s);
    sim_after_commit(s);
    fflush(stdout);
}

/* one cycle: clients, commands, step (or a reset); the snapshot filled, the turn's
 * events made, all committed, then the snapshot published */
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
    sim_cmd_drain(&s->world, r, &s->taken, 1);
    if (sim_reset_pending(s)) {
        sim_reset(s);
    } else {
        sim_step(&s->world);
        sim_match_flow(s);
    }
    if (s->world.play_mode != pm)
        log_debug("time %d: %s", s->world.time, playmode_name(s->world.play_mode));
    shm_snapshot_sh_t *snap = sim_publish_fill_step(&s->world, r,
                                                    sim_clock_due(s->grid0_ns, s->poll),
                                                    s->poll, s->taken.ev_head);
    sim_world_end_cycle(&s->world);
    s->last_step_ns = shm_now_ns();
    s->pub_pending = 1; /* the events below belong to the next snapshot, after this one */
    s->runner.sink.hold = 1;
    sim_runner_after_turn(s, t0);
    sim_commit(s, SIM_COMMIT_STEP);
    sim_publish_done(r, snap);
    s->pub_pending = 0;
    sim_loop_outside(s);
    sim_resume_progress(s);
}
