/* sim_reset.c -- (reset) from the trainer or an operator: the match back to its start
 * without restarting any process (RL episodes). The world is built again from the
 * configuration and the original seed, so clock, score, play mode, ball, positions,
 * stamina, cards, player types, wind and every random stream are those of the start;
 * the connected players are put back on the field as when they joined (off the pitch,
 * until they move). The snapshot's episode counter tells the gateways and the recorder
 * (which closes the episode's logs and opens a new pair). Called by sim_main.c's turn
 * after the commands were drained. */
#include <string.h>
#include <jansson.h>
#include "sim.h"
#include "log.h"
#include "playmode.h"

void sim_world_reset(sim_world_t *w, const shm_client_sh_t *cl)
{
    const conf_t *c = w->conf;
    shm_ptypes_sh_t types = w->types;
    uint64_t seed = w->seed;
    uint32_t episode = w->episode + 1;
    const sim_ref_table_t *referees = w->ref.table;
    sim_emit_fn emit = w->emit;
    void *ctx = w->emit_ctx;
    char team[2][SHM_TEAM_NAME_LEN];
    memcpy(team, w->team, sizeof team);
    sim_world_init(w, c, &types, seed);
    sim_referee_init(w, referees);
    w->emit = emit;
    w->emit_ctx = ctx;
    w->episode = episode;
    memcpy(w->team, team, sizeof team);
    if (cl) /* players in index order: every reset gives the same start */
        sim_world_sync_clients(w, cl);
}

int sim_reset_pending(const sim_t *s)
{
    return s->world.reset_req != 0;
}

static void reset_event(sim_t *s, int time, const int score[2])
{
    json_t *o = json_pack("{s:i, s:{s:i, s:[i,i]}}", "episode", (int)s->world.episode,
                          "previous", "time", time, "score", score[0], score[1]);
    sim_events_emit(s, "reset", o);
}

void sim_reset(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    int time = s->world.time, score[2] = { s->world.score[0], s->world.score[1] };
    sim_world_reset(&s->world, r->client);
    /* as at the start the mode is before_kick_off: said, so clients that follow the
     * referee (every real team does) line up again */
    sim_world_referee_say(&s->world, playmode_name(PM_BEFORE_KICK_OFF));
    /* the online coaches' message allowances count per game (the gateways refill a
     * window when the time differs from theirs) */
    memset(r->coach, 0, sizeof r->coach);
    s->kick_offs_said = 0;
    s->game_over = 0;
    r->runner.episode = s->world.episode;
    log_info("reset: episode %u (time was %d, score %d - %d)", s->world.episode, time,
             score[0], score[1]);
    sim_events_base(s);
    reset_event(s, time, score);
}
