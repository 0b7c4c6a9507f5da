/* sim_ref_offside.c -- offside as rcssserver 19 decides it (docs/protocol/referee.md §7): at
 * every kick, tackle or ball contact the candidates are fixed (the kicker's teammates
 * beyond max(second-last opponent, ball), no candidates after goal kicks, kick-ins and
 * corners; two ball contacts in one cycle cancel them); the next contact by a candidate,
 * or his failed kick/tackle within offside_active_area_size of the ball, is offside.
 * The call, the 30-step wait with the offenders kept away from the free-kick point, the
 * free kick for the other side; and the kick-off relocation (forbid_kick_off_offside). */
#include <math.h>
#include "sim_ref.h"
#include "playmode.h"

#define HALF_L  (PITCH_LENGTH / 2.0)
#define HALF_W  (PITCH_WIDTH / 2.0)

static int use_offside(const sim_world_t *w)
{
    return conf_bool(w->conf, SP_use_offside);
}

/* where the free kick is taken for an offside at (ox, oy) */
static void offside_point(const sim_world_t *w, double ox, double oy, double *x, double *y)
{
    double m = conf_real(w->conf, SP_ckick_margin);
    double gx = HALF_L - PITCH_GOAL_AREA_L, gy = PITCH_GOAL_AREA_W / 2.0;
    double px = (PITCH_LENGTH - 2.0 * m) / 2.0, py = (PITCH_WIDTH - 2.0 * m) / 2.0;
    int in_gr = ox >= gx && ox <= HALF_L && fabs(oy) <= gy;
    int in_gl = ox <= -gx && ox >= -HALF_L && fabs(oy) <= gy;
    *x = ox;
    *y = oy;
    if (ox > HALF_L || in_gr || ox < -HALF_L || in_gl) {
        *x = ox > 0.0 ? gx : -gx;
        *y = oy > 0.0 ? gy : -gy;
    } else if (fabs(ox) > px || fabs(oy) > py) { /* to the nearest edge of the inner pitch */
        double dx = fmin(fabs(ox + px), fabs(ox - px)), dy = fmin(fabs(oy + py), fabs(oy - py));
        if (dx < dy) {
            *x = fabs(ox + px) < fabs(ox - px) ? -px : px;
            *y = fmax(-py, fmin(py, oy));
        } else {
            *x = fmax(-px, fmin(px, ox));
            *y = fabs(oy + py) < fabs(oy - py) ? -py : py;
        }
    }
}

static void call_offside(sim_world_t *w)
{
    sim_ref_t *r = &w->ref;
    if (sim_ref_is_penalty(w->play_mode) || r->off_kicker_side == SHM_SIDE_NONE)
        return;
    double x, y;
    offside_point(w, r->off_x, r->off_y, &x, &y);
    if (r->off_kicker_side == SHM_SIDE_LEFT)
        sim_ref_place_ball(w, PM_OFFSIDE_L, SHM_SIDE_RIGHT, x, y);
    else
        sim_ref_place_ball(w, PM_OFFSIDE_R, SHM_SIDE_LEFT, x, y);
    w->catcher = -1;
    r->ncand = 0;
    sim_ref_place_in_field(w);
    r->off_wait = 0;
}

/* the offside line for a kick by side: the second-last opponent (0 at least) or the
 * ball, whichever is further forward for side */
static double offside_line(const sim_world_t *w, int side)
{
    double first = 0.0, second = 0.0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled || p->sh.side != -side)
            continue;
        double x = p->sh.x * side; /* mirrored: the attacking direction is +x */
        if (x > second) {
            second = x;
            if (second > first) {
                double t = first;
                first = second;
                second = t;
            }
        }
    }
    double bx = w->ball.x * side;
    return (second > bx ? second : bx) * side;
}

static void mark_candidates(sim_world_t *w, int kicker)
{
    sim_ref_t *r = &w->ref;
    int side = w->pl[kicker].sh.side;
    double line = offside_line(w, side);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled || p->sh.side != side || i == kicker || p->sh.x * side <= line * side)
            continue;
        r->cand[r->ncand].idx = i;
        r->cand[r->ncand].x = line;
        r->cand[r->ncand].y = p->sh.y;
        r->ncand++;
    }
}

static int find_candidate(const sim_ref_t *r, int idx)
{
    for (int k = 0; k < r->ncand; k++) {
        if (r->cand[k].idx == idx)
            return k;
    }
    return -1;
}

/* OffsideRef::setOffsideMark: a kick, a tackle (accel: what it gave the ball) or a
 * ball contact (accel 0) by idx */
static void sim_ref_offside_kick(sim_world_t *w, int idx, double accel)
{
    sim_ref_t *r = &w->ref;
    if (!use_offside(w))
        return;
    if (r->off_kick_time == w->time && r->off_kick_stoppage == w->stoppage) {
        r->off_kicker_side = SHM_SIDE_NONE; /* a second contact in the same cycle */
        r->ncand = 0;
        return;
    }
    if (r->off_kick_time != w->time)
        r->off_kick_accel = 0.0;
    r->off_kick_time = w->time;
    r->off_kick_stoppage = w->stoppage;
    if (r->off_kick_accel < accel) {
        r->off_kicker_side = w->pl[idx].sh.side;
        r->off_kick_accel = accel;
    }
    int k = find_candidate(r, idx);
    if (k >= 0) {
        r->off_x = r->cand[k].x;
        r->off_y = r->cand[k].y;
        call_offside(w);
        return;
    }
    r->ncand = 0;
    int pm = w->play_mode;
    if (sim_ref_goal_kick(pm) || pm == PM_KICK_IN_L || pm == PM_KICK_IN_R
        || pm == PM_CORNER_KICK_L || pm == PM_CORNER_KICK_R)
        return;
    mark_candidates(w, idx);
}

/* a failed kick or tackle by a candidate close to the ball */
static void sim_ref_offside_failed(sim_world_t *w, int idx)
{
    sim_ref_t *r = &w->ref;
    if (!use_offside(w))
        return;
    int k = find_candidate(r, idx);
    if (k < 0)
        return;
    const sim_player_t *p = &w->pl[idx];
    double area = conf_real(w->conf, SP_offside_active_area_size);
    double dx = p->sh.x - w->ball.x, dy = p->sh.y - w->ball.y;
    if (dx * dx + dy * dy >= area * area)
        return;
    r->off_x = r->cand[k].x;
    r->off_y = r->cand[k].y;
    call_offside(w);
}

/* during the wait: the offenders out of 2.5 m around the offside point and back behind
 * it by offside_kick_margin (OffsideRef::checkPlayerAfterOffside) */
static void keep_offenders_back(sim_world_t *w, int side)
{
    sim_ref_t *r = &w->ref;
    double lo = side == SHM_SIDE_LEFT ? -HALF_L : r->off_x;
    double hi = side == SHM_SIDE_LEFT ? r->off_x : HALF_L;
    double margin = conf_real(w->conf, SP_offside_kick_margin);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled || p->sh.side != side)
            continue;
        double x = p->sh.x, y = p->sh.y, dx = x - r->off_x, dy = y - r->off_y;
        if (sqrt(dx * dx + dy * dy) <= 2.5) {
            sim_ref_circle_edge(r->off_x, r->off_y, 2.5, &x, &y);
            sim_ref_move_player(w, i, x, y, 0);
        }
        x = p->sh.x;
        y = p->sh.y;
        if (x >= lo && x <= hi && y >= -HALF_W && y <= HALF_W)
            continue;
        x = fabs(x - lo) < fabs(x - hi) ? lo : hi; /* nearest vertical edge */
        y = fmax(-HALF_W, fmin(HALF_W, y));
        sim_ref_move_player(w, i, x + (side == SHM_SIDE_LEFT ? -margin : margin), y, 0);
    }
}

static void offside_wait(sim_world_t *w, int side)
{
    if (++w->ref.off_wait > SIM_REF_STOP_WAIT - SIM_REF_CLEAR_TIME)
        sim_ref_clear_from_ball(w, side);
    keep_offenders_back(w, side);
    if (w->ref.off_wait > SIM_REF_STOP_WAIT)
        sim_referee_set_mode(w, side == SHM_SIDE_LEFT ? PM_FREE_KICK_R : PM_FREE_KICK_L);
}

static void sim_ref_offside_analyse(sim_world_t *w)
{
    int pm = w->play_mode;
    if (!use_offside(w) || sim_ref_is_penalty(pm))
        return;
    if (pm == PM_BEFORE_KICK_OFF || pm == PM_KICK_OFF_L || pm == PM_KICK_OFF_R) {
        if (conf_bool(w->conf, SP_forbid_kick_off_offside))
            sim_ref_place_in_own_half(w);
        return;
    }
    if (pm == PM_OFFSIDE_L || pm == PM_OFFSIDE_R) {
        offside_wait(w, pm == PM_OFFSIDE_L ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT);
        return;
    }
    if (pm != PM_PLAY_ON)
        w->ref.ncand = 0;
}

static void sim_ref_offside_mode(sim_world_t *w, int pm)
{
    if (pm != PM_PLAY_ON)
        w->ref.ncand = 0;
}

/* a ball contact: a kick that gave the ball nothing */
static void sim_ref_offside_touch(sim_world_t *w, int idx)
{
    sim_ref_offside_kick(w, idx, 0.0);
}

const sim_ref_part_t sim_ref_offside_part = {
    .name = "OffsideRef",
    .kick = sim_ref_offside_kick,
    .failed = sim_ref_offside_failed,
    .touch = sim_ref_offside_touch,
    .analyse = sim_ref_offside_analyse,
    .mode = sim_ref_offside_mode,
};
