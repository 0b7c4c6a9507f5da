/* sim_ref_time.c -- the time keeper and the ball-stuck referee (docs/protocol/referee.md §11,
 * §12): half time, the end of normal time (time_up, time_up_without_a_team, or
 * time_extended into extra halves), the end of each extra half, golden goal, and the
 * hand-over to the penalty shoot-out; a ball that stays within ball_stuck_area for
 * drop_ball_time steps of play_on is dropped. */
#include <math.h>
#include "sim_ref.h"
#include "playmode.h"

static int ci(const sim_world_t *w, param_id_t id) { return conf_int(w->conf, id); }

static int both_teams(const sim_world_t *w)
{
    return w->team[0][0] != '\0' && w->team[1][0] != '\0';
}

/* Stadium::callHalfTime: ball to the centre for the side kicking off next, before_kick_off,
 * the clock put exactly on the boundary, stamina capacity back at the first extra half,
 * wind reversed; then everybody into his own half */
static void half_time(sim_world_t *w, int count)
{
    sim_ref_t *r = &w->ref;
    int side = count % 2 == 0 ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
    int normal = ci(w, SP_nr_normal_halfs);
    w->catcher = -1;
    sim_ref_place_ball(w, PM_NULL, side, 0.0, 0.0);
    sim_referee_set_mode(w, PM_BEFORE_KICK_OFF);
    if (count < normal)
        w->time = r->half_cycles * count;
    else
        w->time = r->half_cycles * normal + r->extra_cycles * (count - normal);
    if (count == normal) {
        for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
            if (w->pl[i].sh.enabled)
                sim_player_refill_capacity(w, &w->pl[i]);
        }
    }
    sim_move_wind_half_time(w);
    sim_ref_place_in_own_half(w);
}

static void time_up(sim_world_t *w, const char *msg)
{
    sim_world_referee_say(w, msg);
    sim_referee_set_mode(w, PM_TIME_OVER);
}

/* after normal time: extra halves, golden goal, the end */
static void extra_time(sim_world_t *w, int normal_time)
{
    sim_ref_t *r = &w->ref;
    int extra_count = r->halves_done + 1 - ci(w, SP_nr_normal_halfs);
    int level = w->score[0] == w->score[1];
    if (!both_teams(w)) {
        time_up(w, "time_up_without_a_team");
    } else if (conf_bool(w->conf, SP_golden_goal) && !level) {
        time_up(w, "time_up");
    } else if (w->time >= normal_time + r->extra_cycles * extra_count) {
        if (extra_count == 0 && !level) {
            time_up(w, "time_up");
        } else {
            r->halves_done++;
            sim_world_referee_say(w, "time_extended");
            half_time(w, r->halves_done);
        }
    }
}

static void sim_ref_time_analyse(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    int pm = w->play_mode;
    if (pm == PM_BEFORE_KICK_OFF || pm == PM_TIME_OVER || sim_ref_stoppage(pm))
        return;
    if (r->half_cycles <= 0) /* a negative half_time: no time limit */
        return;
    int normal = r->half_cycles * ci(w, SP_nr_normal_halfs);
    int max = normal + r->extra_cycles * ci(w, SP_nr_extra_halfs);
    if (w->time >= max) {
        if (conf_bool(w->conf, SP_penalty_shoot_outs) && w->score[0] == w->score[1])
            return; /* the penalty referee takes over */
        time_up(w, "time_up");
    } else if (w->time >= normal) {
        extra_time(w, normal);
    } else if (w->time >= r->half_cycles * (r->halves_done + 1)) {
        r->halves_done++;
        sim_world_referee_say(w, "half_time");
        half_time(w, r->halves_done);
    }
}

/* ---- ball stuck ---------------------------------------------------------------------- */
static void sim_ref_stuck_analyse(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    double area = conf_real(w->conf, SP_ball_stuck_area);
    int limit = ci(w, SP_drop_ball_time);
    if (area <= 0.0 || limit <= 0)
        return;
    double dx = w->ball.x - r->stuck_x, dy = w->ball.y - r->stuck_y;
    if (w->play_mode == PM_PLAY_ON && dx * dx + dy * dy <= area * area) {
        if (++r->stuck_count < limit)
            return;
        r->stuck_x = w->ball.x;
        r->stuck_y = w->ball.y;
        r->stuck_count = 0;
        sim_ref_award_drop_ball(w, w->ball.x, w->ball.y);
        return;
    }
    r->stuck_x = w->ball.x;
    r->stuck_y = w->ball.y;
    r->stuck_count = 0;
}

const sim_ref_part_t sim_ref_time_part = {
    .name = "TimeRef",
    .analyse = sim_ref_time_analyse,
};

const sim_ref_part_t sim_ref_stuck_part = {
    .name = "BallStuckRef",
    .analyse = sim_ref_stuck_analyse,
};
