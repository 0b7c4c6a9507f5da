/* sim_collide.c -- collisions (docs/protocol/physics.md §8): up to 10 passes, each finding
 * every overlap on the positions the previous pass left (ball against every enabled
 * player but the ball catcher, then player pairs in slot order); each overlap proposes
 * a new position for both objects (about their midpoint, or in modes other than play_on
 * only the player pushed off the ball); an object takes the mean of its proposals.
 * Afterwards every object that collided bounces back: v *= -0.1. A ball contact is told
 * to the referee (its on_collide hook, w->rules). Called after each integration
 * (sim_move.c), legal move, trainer or monitor move and successful catch. */
#include <math.h>
#include <string.h>
#include "sim_phys.h"

#define COLL_PASSES   10
#define COLL_SPREAD   10    /* at most this many 0.01 % widenings of a separation */
#define BALL_SLOT     SHM_MAX_PLAYERS

typedef struct cacc {
    double sx, sy;      /* sum of the positions proposed this pass */
    int    n;           /* proposals this pass */
    int    hit;         /* collided at least once (bounces at the end) */
} cacc_t;

typedef struct cworld {
    sim_world_t *w;
    cacc_t       acc[SHM_MAX_PLAYERS + 1];  /* players, then the ball */
} cworld_t;

static void propose(cacc_t *a, vec2_t p)
{
    a->sx += p.x;
    a->sy += p.y;
    a->n++;
    a->hit = 1;
}

static double dist2(vec2_t a, vec2_t b)
{
    double dx = a.x - b.x, dy = a.y - b.y;
    return dx * dx + dy * dy;
}

static vec2_t with_len(vec2_t v, double len)
{
    return vec2_scale(v, len / fmax(vec2_len(v), SIM_EPS));
}

/* Separate a (size sa) and b (size sb) symmetrically about their midpoint, a random
 * direction if they coincide; widened by 0.01 % steps while rounding leaves them
 * overlapping. */
static void separate(cworld_t *cw, vec2_t a, double sa, cacc_t *ca, vec2_t b, double sb,
                     cacc_t *cb)
{
    vec2_t mid = vec2_add(a, b);
    mid.x /= 2.0;
    mid.y /= 2.0;
    vec2_t ma = vec2_sub(a, mid), mb = vec2_sub(b, mid);
    double half = (sa + sb) / 2.0 + SIM_EPS;
    if ((a.x == b.x && a.y == b.y) || (vec2_len(ma) < SIM_EPS && vec2_len(mb) < SIM_EPS)) {
        double ang = sim_drand(&cw->w->rng_move, -M_PI, M_PI);
        ma = vec2_polar(half, ang);
        mb = vec2_polar(half, angle_norm(ang + M_PI));
    } else {
        ma = with_len(ma, half);
        mb = with_len(mb, half);
    }
    vec2_t pa = vec2_add(mid, ma), pb = vec2_add(mid, mb);
    double need = (sa + sb) * (sa + sb);
    for (int k = 0; k < COLL_SPREAD && dist2(pa, pb) < need; k++) {
        ma = with_len(ma, vec2_len(ma) * 1.0001);
        mb = with_len(mb, vec2_len(mb) * 1.0001);
        pa = vec2_add(mid, ma);
        pb = vec2_add(mid, mb);
    }
    propose(ca, pa);
    propose(cb, pb);
}

static vec2_t ppos(const sim_player_t *p) { return vec2(p->sh.x, p->sh.y); }

/* ball against player i: both move in play_on, otherwise only the player */
static void ball_contact(cworld_t *cw, int i, double bs, double ps)
{
    sim_world_t *w = cw->w;
    sim_player_t *p = &w->pl[i];
    vec2_t b = vec2(w->ball.x, w->ball.y);
    p->sh.collision |= SHM_COLL_BALL;
    p->cycle_state |= SIM_ST_BALL_TO_PLAYER | SIM_ST_BALL_COLLIDE;
    sim_rules_collide(w, i);
    if (w->play_mode == PM_PLAY_ON) {
        separate(cw, b, bs, &cw->acc[BALL_SLOT], ppos(p), ps, &cw->acc[i]);
        return;
    }
    vec2_t off;
    if (b.x == p->sh.x && b.y == p->sh.y)
        off = vec2_polar(bs + ps + SIM_EPS, sim_drand(&w->rng_move, -M_PI, M_PI));
    else
        off = with_len(vec2_sub(ppos(p), b), bs + ps + SIM_EPS);
    propose(&cw->acc[BALL_SLOT], b);
    propose(&cw->acc[i], vec2_add(b, off));
}

static int pass_ball(cworld_t *cw)
{
    sim_world_t *w = cw->w;
    double bs = sim_cr(w, SP_ball_size);
    int any = 0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled || i == w->catcher)
            continue;
        double ps = sim_player_ptype(w, p)->player_size;
        if (dist2(vec2(w->ball.x, w->ball.y), ppos(p)) < pow(bs + ps, 2)) {
            ball_contact(cw, i, bs, ps);
            any = 1;
        }
    }
    return any;
}

static int pass_players(cworld_t *cw)
{
    sim_world_t *w = cw->w;
    int any = 0;
    for (int i = 0; i < SHM_MAX_PLAYERS - 1; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled)
            continue;
        double ps = sim_player_ptype(w, p)->player_size;
        for (int j = i + 1; j < SHM_MAX_PLAYERS; j++) {
            sim_player_t *q = &w->pl[j];
            if (!q->sh.enabled)
                continue;
            double qs = sim_player_ptype(w, q)->player_size;
            if (!(dist2(ppos(p), ppos(q)) < pow(ps + qs, 2)))
                continue;
            p->sh.collision |= SHM_COLL_PLAYER;
            q->sh.collision |= SHM_COLL_PLAYER;
            p->cycle_state |= SIM_ST_PLAYER_COLLIDE;
            q->cycle_state |= SIM_ST_PLAYER_COLLIDE;
            separate(cw, ppos(p), ps, &cw->acc[i], ppos(q), qs, &cw->acc[j]);
            any = 1;
        }
    }
    return any;
}

/* every object with proposals moves to their mean */
static void apply(cworld_t *cw)
{
    sim_world_t *w = cw->w;
    for (int i = 0; i <= BALL_SLOT; i++) {
        cacc_t *a = &cw->acc[i];
        if (a->n > 0) {
            double x = a->sx / a->n, y = a->sy / a->n;
            if (i == BALL_SLOT) {
                w->ball.x = x;
                w->ball.y = y;
            } else {
                w->pl[i].sh.x = x;
                w->pl[i].sh.y = y;
            }
        }
        a->sx = a->sy = 0.0;
        a->n = 0;
    }
}

void sim_collide(sim_world_t *w)
{
    cworld_t cw;
    memset(&cw, 0, sizeof cw);
    cw.w = w;
    for (int pass = 0; pass < COLL_PASSES; pass++) {
        int any = pass_ball(&cw);
        any |= pass_players(&cw);
        apply(&cw);
        if (!any)
            break;
    }
    if (cw.acc[BALL_SLOT].hit) {
        w->ball.vx *= -0.1;
        w->ball.vy *= -0.1;
    }
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (cw.acc[i].hit) {
            w->pl[i].sh.vx *= -0.1;
            w->pl[i].sh.vy *= -0.1;
        }
    }
}
