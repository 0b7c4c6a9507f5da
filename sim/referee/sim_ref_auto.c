/* sim_ref_auto.c -- auto mode (server::auto_mode; docs/protocol/referee.md §13, §12):
 * nobody at the keyboard. Before each kick-off, once all 22 players are connected
 * (or from the second half on) kick_off_wait steps are counted, before that connect_wait
 * steps; either reaching 0 kicks off. In time_over game_over_wait steps are counted, then
 * the process is told to finish. Pure: the process prints and exits (sim_main.c). */
#include "sim_ref.h"
#include "playmode.h"

static int ci(const sim_world_t *w, param_id_t id) { return conf_int(w->conf, id); }

static int before_kick_off(sim_world_t *w, int players)
{
    sim_ref_t *r = &w->ref;
    int say = 0;
    if (players == SHM_MAX_PLAYERS || w->time > 0) {
        if (r->kick_off_wait == ci(w, SP_kick_off_wait))
            say = SIM_AUTO_SAY_KICK_OFF;
        if (r->kick_off_wait > 0)
            r->kick_off_wait--;
    } else {
        if (r->connect_wait == ci(w, SP_connect_wait))
            say = SIM_AUTO_SAY_CONNECT;
        if (r->connect_wait > 0)
            r->connect_wait--;
    }
    if (r->kick_off_wait <= 0 || r->connect_wait <= 0)
        sim_referee_kick_off(w);
    return say;
}

int sim_referee_auto(sim_world_t *w, int players)
{
    sim_ref_t *r = &w->ref;
    int flags = 0;
    if (!conf_bool(w->conf, SP_auto_mode))
        return 0;
    int end = r->half_cycles * ci(w, SP_nr_normal_halfs)
              + r->extra_cycles * ci(w, SP_nr_extra_halfs);
    if (w->play_mode == PM_BEFORE_KICK_OFF && w->time < end) {
        flags |= before_kick_off(w, players);
    } else {
        r->kick_off_wait = ci(w, SP_kick_off_wait) > 0 ? ci(w, SP_kick_off_wait) : 0;
        r->connect_wait = ci(w, SP_connect_wait) > 0 ? ci(w, SP_connect_wait) : 0;
    }
    if (w->play_mode != PM_TIME_OVER) {
        r->game_over_wait = ci(w, SP_game_over_wait);
        return flags;
    }
    if (r->game_over_wait == ci(w, SP_game_over_wait))
        flags |= SIM_AUTO_SAY_END;
    if (r->game_over_wait > 0)
        r->game_over_wait--;
    if (r->game_over_wait <= 0)
        flags |= SIM_AUTO_GAME_OVER;
    return flags;
}
