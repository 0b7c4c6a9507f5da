/* sim_move.c -- moving the objects in a step (docs/protocol/physics.md §1 "move objects" and
 * 3.2): the objects are shuffled, each enabled one is integrated (acceleration capped,
 * speed capped, angles committed, polar noise, wind, goal posts, position, decay), then
 * collisions are resolved and a caught ball is carried in front of its goalie. Before
 * the kick-off the players only commit their angles and stand still. All draws come
 * from w->rng_move. Called by sim_step.c. */
#include <math.h>
#include "sim_phys.h"

#define POST_LOOP_MAX 64   /* bounds the post loop should a value be garbage (NaN) */

/* one movable object seen through its fields */
typedef struct mobj {
    double *x, *y, *vx, *vy, *ax, *ay;
    double  size, decay, randp, weight, max_speed, max_accel;
    sim_player_t *p;                /* NULL for the ball */
} mobj_t;

typedef struct circ {
    double cx, cy, r;
} circ_t;

/* ---- wind (docs/protocol/physics.md §2 step 4) --------------------------------------- */
void sim_move_wind_init(sim_world_t *w)
{
    if (conf_bool(w->conf, SP_wind_none)) {
        w->wind_x = w->wind_y = w->wind_rand = 0.0;
    } else if (conf_bool(w->conf, SP_wind_random)) {
        double force = sim_drand(&w->rng_move, 0.0, 100.0);
        double dir = sim_drand(&w->rng_move, -M_PI, M_PI);
        w->wind_x = force * cos(dir);
        w->wind_y = force * sin(dir);
        w->wind_rand = sim_drand(&w->rng_move, 0.0, 0.5);
    } else {
        double force = sim_cr(w, SP_wind_force), dir = sim_deg2rad(sim_cr(w, SP_wind_dir));
        w->wind_x = force * cos(dir);
        w->wind_y = force * sin(dir);
        w->wind_rand = sim_cr(w, SP_wind_rand);
    }
}

void sim_move_wind_half_time(sim_world_t *w)
{
    w->wind_x *= -1.0;
    w->wind_y *= -1.0;
}

static void add_wind(sim_world_t *w, const mobj_t *o)
{
    if (w->wind_rand < SIM_EPS) {
        /* no wind still adds a zero vector, as the reference does: a velocity of -0
         * (a resting object that collided: 0 * -0.1) becomes +0 here, and prints "0" */
        *o->vx += 0.0;
        *o->vy += 0.0;
        return;
    }
    double speed = sqrt(*o->vx * *o->vx + *o->vy * *o->vy);
    double k = o->weight * SIM_WIND_WEIGHT;
    double ex = sim_drand(&w->rng_move, -w->wind_rand, w->wind_rand);
    double ey = sim_drand(&w->rng_move, -w->wind_rand, w->wind_rand);
    *o->vx += speed * (w->wind_x + ex) / k;
    *o->vy += speed * (w->wind_y + ey) / k;
}

/* ---- goal posts (docs/protocol/physics.md §2 step 5) --------------------------------- */
/* the post of the quarter (x, y) lies in, grown by the object's size */
static circ_t nearest_post(const sim_world_t *w, double x, double y, double size)
{
    double px = PITCH_LENGTH * 0.5 - PITCH_POST_R;
    double py = sim_cr(w, SP_goal_width) * 0.5 + PITCH_POST_R;
    circ_t c = { x > 0.0 ? px : -px, y > 0.0 ? py : -py, PITCH_POST_R + size };
    return c;
}

static int circ_eq(circ_t a, circ_t b)
{
    return a.cx == b.cx && a.cy == b.cy && a.r == b.r;
}

/* p inside the box spanned by segment a-b (edges included) */
static int between(vec2_t p, vec2_t a, vec2_t b)
{
    if (a.x > b.x) {
        vec2_t t = a;
        a = b;
        b = t;
    }
    if (p.x < a.x || p.x > b.x)
        return 0;
    return a.y < b.y ? (a.y <= p.y && p.y <= b.y) : (a.y >= p.y && p.y >= b.y);
}

/* First point where the segment a-b enters the circle of radius r centred at the
 * origin; 0 when it does not (or only grazes it, or leaves it from a). */
static int cross_origin_circle(vec2_t a, vec2_t b, double r, vec2_t *hit)
{
    double dx = b.x - a.x, dy = b.y - a.y;
    double dr = sqrt(dx * dx + dy * dy), dd = dr * dr;
    double det = a.x * b.y - b.x * a.y;
    double disc = r * r * dr * dr - det * det;
    if (disc <= 0.0)
        return 0;
    disc = sqrt(disc);
    double x1 = (det * dy + dx * disc) / dd, x2 = (det * dy - dx * disc) / dd;
    double y1 = (-det * dx + fabs(dy) * disc) / dd, y2 = (-det * dx - fabs(dy) * disc) / dd;
    vec2_t p = dy < 0.0 ? vec2(x2, y1) : vec2(x1, y1);
    vec2_t q = dy < 0.0 ? vec2(x1, y2) : vec2(x2, y2);
    int pin = between(p, a, b), qin = between(q, a, b);
    vec2_t other = q;
    if (!pin && !qin)
        return 0;
    if (!pin) {
        *hit = q;
        other = p;
    } else if (!qin || vec2_len(vec2_sub(a, p)) < vec2_len(vec2_sub(a, q))) {
        *hit = p;
    } else {
        *hit = q;
        other = p;
    }
    /* touching at the start and moving away: no collision */
    return !(hit->x == a.x && hit->y == a.y && !between(other, a, b));
}

/* the same for any circle (checked again in coordinates centred on it, as the
 * reference does) */
static int cross_circle(vec2_t a, vec2_t b, circ_t c, vec2_t *hit)
{
    if (a.x == b.x && a.y == b.y)
        return 0;
    vec2_t ctr = vec2(c.cx, c.cy);
    if (vec2_len(vec2_sub(a, b)) < vec2_len(vec2_sub(a, ctr)) - c.r)
        return 0; /* too short to reach it */
    if (c.cx == 0.0 && c.cy == 0.0)
        return cross_origin_circle(a, b, c.r, hit);
    circ_t o = { 0.0, 0.0, c.r };
    if (!cross_circle(vec2_sub(a, ctr), vec2_sub(b, ctr), o, hit))
        return 0;
    *hit = vec2_add(*hit, ctr);
    return 1;
}

static vec2_t rotate(vec2_t v, double ang)
{
    double c = cos(ang), s = sin(ang);
    return vec2(v.x * c - v.y * s, v.x * s + v.y * c);
}

/* v mirrored at the line through the origin perpendicular to direction th */
static vec2_t mirror(vec2_t v, double th)
{
    v = rotate(v, -th);
    v.x = -v.x;
    return rotate(v, th);
}

static vec2_t with_len(vec2_t v, double len)
{
    return vec2_scale(v, len / fmax(vec2_len(v), SIM_EPS));
}

static void post_hit(mobj_t *o)
{
    if (!o->p)
        return;
    o->p->sh.collision |= SHM_COLL_POST;
    o->p->cycle_state |= SIM_ST_POST_COLLIDE;
}

/* an object already inside a post is pushed out radially, its velocity reflected */
static circ_t leave_post(sim_world_t *w, mobj_t *o, circ_t post)
{
    vec2_t ctr = vec2(post.cx, post.cy);
    for (int n = 0; n < POST_LOOP_MAX; n++) {
        vec2_t pos = vec2(*o->x, *o->y), diff = vec2_sub(pos, ctr);
        if (!(vec2_len(diff) < post.r))
            break;
        if (diff.x == 0.0 && diff.y == 0.0)
            diff = vec2_polar(post.r, sim_drand(&w->rng_move, -M_PI, M_PI));
        else
            diff = with_len(diff, post.r);
        pos = vec2_add(ctr, diff);
        for (int k = 0; k < POST_LOOP_MAX && vec2_len(vec2_sub(pos, ctr)) < post.r; k++) {
            diff = with_len(diff, vec2_len(diff) * 1.01);
            pos = vec2_add(ctr, diff);
        }
        *o->x = pos.x;
        *o->y = pos.y;
        if (*o->vx != 0.0 || *o->vy != 0.0) {
            vec2_t v = mirror(vec2(*o->vx, *o->vy), vec2_angle(vec2_sub(ctr, pos)));
            *o->vx = v.x;
            *o->vy = v.y;
        }
        post = nearest_post(w, pos.x, pos.y, o->size);
        ctr = vec2(post.cx, post.cy);
        post_hit(o);
    }
    return post;
}

/* The straight path pos -> pos + v against the nearest posts: at a contact the rest of
 * the path is mirrored at the contact normal, the speed kept (elastic), until free. */
static void bounce_posts(sim_world_t *w, mobj_t *o)
{
    circ_t post = leave_post(w, o, nearest_post(w, *o->x, *o->y, o->size));
    vec2_t pos = vec2(*o->x, *o->y), v = vec2(*o->vx, *o->vy);
    vec2_t end = vec2_add(pos, v), hit = pos;
    circ_t post2 = nearest_post(w, end.x, end.y, o->size);
    int second = 0;
    for (int n = 0; n < POST_LOOP_MAX; n++) {
        if (pos.x == end.x && pos.y == end.y)
            break;
        if (!cross_circle(pos, end, post, &hit)
            && !(!circ_eq(post, post2) && (second = cross_circle(pos, end, post2, &hit))))
            break;
        pos = hit;
        vec2_t rem = vec2_sub(end, pos);
        circ_t c = second ? post2 : post;
        double th = vec2_angle(vec2_sub(vec2(c.cx, c.cy), pos));
        pos = vec2_add(pos, vec2_polar(SIM_EPS, th + 180.0)); /* (the reference adds 180
                                                                 radians here) */
        rem = mirror(rem, th);
        end = vec2_add(pos, rem);
        post = nearest_post(w, pos.x, pos.y, o->size);
        post2 = nearest_post(w, end.x, end.y, o->size);
        v = vec2_polar(vec2_len(v), vec2_angle(rem));
        second = 0;
        post_hit(o);
    }
    *o->x = end.x;
    *o->y = end.y;
    *o->vx = v.x;
    *o->vy = v.y;
}

/* ---- one object (docs/protocol/physics.md §2) ---------------------------------------- */
static void integrate(sim_world_t *w, mobj_t *o)
{
    if (*o->ax != 0.0 || *o->ay != 0.0) {
        double a = sqrt(*o->ax * *o->ax + *o->ay * *o->ay);
        if (a > o->max_accel) {
            *o->ax *= o->max_accel / a;
            *o->ay *= o->max_accel / a;
        }
        *o->vx += *o->ax;
        *o->vy += *o->ay;
        double v = sqrt(*o->vx * *o->vx + *o->vy * *o->vy);
        if (v > o->max_speed) {
            *o->vx *= o->max_speed / v;
            *o->vy *= o->max_speed / v;
        }
    }
    if (o->p) {
        o->p->sh.body = o->p->body_next;
        o->p->sh.neck = o->p->neck_next;
    }
    double m = o->randp * sqrt(*o->vx * *o->vx + *o->vy * *o->vy);
    double len = sim_drand(&w->rng_move, 0.0, m), th = sim_drand(&w->rng_move, -M_PI, M_PI);
    *o->vx += len * cos(th);
    *o->vy += len * sin(th);
    add_wind(w, o);
    bounce_posts(w, o);
    *o->vx *= o->decay;
    *o->vy *= o->decay;
    *o->ax = *o->ay = 0.0;
}

static void integrate_ball(sim_world_t *w)
{
    sim_ball_t *b = &w->ball;
    mobj_t o = { &b->x, &b->y, &b->vx, &b->vy, &b->ax, &b->ay,
                 sim_cr(w, SP_ball_size), sim_cr(w, SP_ball_decay), sim_cr(w, SP_ball_rand),
                 sim_cr(w, SP_ball_weight), sim_cr(w, SP_ball_speed_max),
                 sim_cr(w, SP_ball_accel_max), NULL };
    w->ball_px = b->x;
    w->ball_py = b->y;
    integrate(w, &o);
}

static void integrate_player(sim_world_t *w, sim_player_t *p)
{
    const shm_ptype_sh_t *t = sim_player_ptype(w, p);
    double sl = sim_phys_slowness(w, p);
    mobj_t o = { &p->sh.x, &p->sh.y, &p->sh.vx, &p->sh.vy, &p->ax, &p->ay,
                 t->player_size, t->player_decay, sim_phys_randp(w, p),
                 sim_cr(w, SP_player_weight), t->player_speed_max * sl,
                 sim_cr(w, SP_player_accel_max) * sl, p };
    integrate(w, &o);
}

/* ---- the set of objects ----------------------------------------------------------- */
void sim_move_add_player(sim_world_t *w, int idx)
{
    for (int i = 0; i < w->n_movable; i++) {
        if (w->movable[i] == idx)
            return;
    }
    if (w->n_movable < SHM_MAX_PLAYERS + 1)
        w->movable[w->n_movable++] = (int8_t)idx;
}

/* the reference moves its objects in a random order every step */
static void shuffle(sim_world_t *w)
{
    for (int i = w->n_movable - 1; i > 0; i--) {
        int j = (int)(rng_next(&w->rng_move) % (uint64_t)(i + 1));
        int8_t t = w->movable[i];
        w->movable[i] = w->movable[j];
        w->movable[j] = t;
    }
}

/* the goalie holding the ball carries it in front of him (position only) */
static void carry_ball(sim_world_t *w)
{
    if (w->catcher < 0)
        return;
    const sim_player_t *g = &w->pl[w->catcher];
    double r = sim_player_ptype(w, g)->player_size + sim_cr(w, SP_ball_size);
    w->ball.x = g->sh.x + r * cos(g->sh.body);
    w->ball.y = g->sh.y + r * sin(g->sh.body);
}

void sim_move_objects(sim_world_t *w)
{
    shuffle(w);
    for (int i = 0; i < w->n_movable; i++) {
        int id = w->movable[i];
        if (id < 0)
            integrate_ball(w);
        else if (w->pl[id].sh.enabled)
            integrate_player(w, &w->pl[id]);
    }
    sim_collide(w);
    carry_ball(w);
}

void sim_move_turn_objects(sim_world_t *w)
{
    shuffle(w);
    for (int i = 0; i < w->n_movable; i++) {
        int id = w->movable[i];
        if (id < 0)
            continue;
        sim_player_t *p = &w->pl[id];
        p->sh.body = p->body_next;
        p->sh.neck = p->neck_next;
        p->sh.vx = p->sh.vy = 0.0;
        p->ax = p->ay = 0.0;
    }
}
