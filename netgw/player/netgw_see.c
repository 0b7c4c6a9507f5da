/* netgw_see.c -- the (see ...) message of one player (docs/protocol/player.md §5): view cone,
 * landmarks, ball, players and lines with the quantised (or Gaussian) distance noise and
 * the name forms of the client's protocol version. Pure: reads the published snapshot,
 * the client-table entry and the player types; randomness only from the caller's rng.
 * Also the view-angle / see-period table (player.md §5.2) the gateway's timer uses. */
#include <math.h>
#include <string.h>
#include "geom.h"
#include "netgw_landmarks.h"
#include "netgw_proto.h"
#include "strbuf.h"
#include "playmode.h"
#include "pitch.h"

/* pre-v18 visual sender constants (m): change values, unum and team visibility */
#define SEE_UNUM_FAR        20.0
#define SEE_UNUM_TOO_FAR    40.0
#define SEE_TEAM_FAR        40.0
#define SEE_TEAM_TOO_FAR    60.0
#define SEE_OBJECT_VERSION  3     /* lowest client version that sees ball, players, lines */
/* pointing direction noise bounds (deg) */
#define SEE_POINT_SD_MIN    1.25
#define SEE_POINT_SD_MAX    180.0

typedef struct see_ctx {
    const shm_snapshot_sh_t *s;
    const conf_t            *c;
    const shm_ptype_sh_t    *type;     /* observer's type, NULL if unknown */
    rng_t                   *rng;
    int      self;                     /* observer's player index */
    int      ver;                      /* integer protocol version */
    int      high;                     /* high quality */
    int      gaussian;                 /* Gaussian noise mode */
    vec2_t   pos, vel, focus;          /* observer position, velocity, focus point */
    double   face;                     /* rad: body + neck */
    vec2_t   face_u;                   /* unit vector along face */
    double   half;                     /* rad: half view angle */
    double   cos_half;                 /* its cosine less a margin (see_outside) */
    double   vis_dist;                 /* visible_distance */
    double   unum_far, unum_too_far, team_far, team_too_far;
    double   ball_far, ball_too_far, flag_far, flag_too_far;
    double   max_flag, max_ball, max_player; /* observation lengths, 0 = unlimited */
    strbuf_t o;
} see_ctx_t;

/* Quantize(v, q) = rint(v / q) * q; tiny steps leave v alone (docs/protocol/player.md §5.4) */
static double see_quantize(double v, double q)
{
    return q < 1.0e-10 ? v : rint(v / q) * q;
}

/* degrees as sent: rounded from v7, truncated toward zero before */
static int see_deg(const see_ctx_t *x, double deg)
{
    if (!isfinite(deg))
        return 0;
    return x->ver >= 7 ? (int)rint(deg) : (int)deg;
}

/* direction (rad, absolute) as seen from the observer's face, in sent degrees */
static int see_dir(const see_ctx_t *x, double abs_rad)
{
    return see_deg(x, rad2deg(angle_norm(abs_rad - x->face)));
}

/* 1 with probability p (0 below, 1 above the range; rng drawn only in between) */
static int see_chance(see_ctx_t *x, double p)
{
    if (!(p > 0.0))
        return 0;
    if (p >= 1.0)
        return 1;
    return rng_unit(x->rng) < p;
}

/* probability ramp (d - far) / (too_far - far), a step when the range is empty */
static double see_ramp(double d, double far, double too_far)
{
    if (too_far <= far)
        return d >= too_far ? 1.0 : 0.0;
    return (d - far) / (too_far - far);
}

/* observed distance of an object at true distance d, f from the focus point */
static double see_noisy(see_ctx_t *x, vec2_t obj, double d, int land)
{
    double f = x->ver >= 18 ? vec2_len(vec2_sub(obj, x->focus)) : d;
    if (x->gaussian) {
        double r1, r2;
        if (x->type) {
            r1 = land ? x->type->land_dist_noise_rate : x->type->dist_noise_rate;
            r2 = land ? x->type->land_focus_dist_noise_rate : x->type->focus_dist_noise_rate;
        } else {
            r1 = conf_real(x->c, land ? SP_land_dist_noise_rate : SP_dist_noise_rate);
            r2 = conf_real(x->c, land ? SP_land_focus_dist_noise_rate
                                      : SP_focus_dist_noise_rate);
        }
        double sd = d * r1 + f * r2;
        double v = sd > 0.0 ? rng_normal(x->rng, d, sd) : d;
        return v > 0.0 ? v : 0.0;
    }
    double q = conf_real(x->c, land ? SP_quantize_step_l : SP_quantize_step);
    double qd = exp(see_quantize(log(d + 1.0e-10), q));
    double qf = f == d ? qd : exp(see_quantize(log(f + 1.0e-10), q));
    double v = d - ((f - qf) + (d - qd)) / 2.0;
    return see_quantize(v > 0.0 ? v : 0.0, 0.1);
}

/* " DISTCHG DIRCHG" of an object relative to the observer's own motion, computed in the
 * reference's order of operations (the unit vector by division, the direction change
 * exactly 0 left alone) and printed with the sign of a zero: a small negative change
 * quantised to -0 is sent as "-0", as the reference's streams print it */
static void see_changes(see_ctx_t *x, vec2_t rel, vec2_t objvel, double d, double obs)
{
    double distchg = 0.0, dirchg = 0.0;
    if (d != 0.0) {
        vec2_t e = vec2(rel.x / d, rel.y / d);
        vec2_t v = vec2_sub(objvel, x->vel);
        double raw_dist = v.x * e.x + v.y * e.y;
        double raw_dir = v.y * e.x - v.x * e.y;
        raw_dir /= d;
        raw_dir *= 180.0 / M_PI;
        if (x->gaussian)
            distchg = see_quantize(raw_dist * (obs / d), 0.01);
        else
            distchg = obs * see_quantize(raw_dist / d, 0.02);
        dirchg = raw_dir == 0.0 ? 0.0 : see_quantize(raw_dir, 0.1);
    }
    strbuf_putc(&x->o, ' ');
    strbuf_g6(&x->o, distchg);
    strbuf_putc(&x->o, ' ');
    strbuf_g6(&x->o, dirchg);
}

/* in the view cone (strict) and within the observation length */
static int see_in_cone(const see_ctx_t *x, double d, double rel_dir, double max_len)
{
    return fabs(rel_dir) < x->half && (max_len <= 0.0 || d < max_len);
}

/* an object beyond visible_distance that is certainly outside the view cone: nothing to
 * send, found without atan2 (its angle to the face is more than a 1e-9 cosine margin
 * beyond the half angle; anything nearer the edge takes the exact test) */
static int see_outside(const see_ctx_t *x, vec2_t rel, double d)
{
    return d > x->vis_dist && vec2_dot(rel, x->face_u) < x->cos_half * d;
}

/* a landmark or the ball: (NAME DIST DIR [DISTCHG DIRCHG]) or the close form; NAME is
 * "(" kind " " name ")" (kind NULL: name alone) */
static void see_static(see_ctx_t *x, const char *kind, const char *name, const char *close,
                       vec2_t obj, vec2_t vel, int land)
{
    vec2_t rel = vec2_sub(obj, x->pos);
    double d = vec2_len(rel);
    if (see_outside(x, rel, d))
        return;
    double rd = angle_norm(vec2_angle(rel) - x->face);
    int in = see_in_cone(x, d, rd, land ? x->max_flag : x->max_ball);
    if (!in && d > x->vis_dist)
        return;
    double obs = see_noisy(x, obj, d, land);
    int dir = see_deg(x, rad2deg(rd)); /* see_dir of the same angle */
    strbuf_put(&x->o, " (", 2);
    if (!in) {
        strbuf_puts(&x->o, close);
    } else if (kind) {
        strbuf_putc(&x->o, '(');
        strbuf_puts(&x->o, kind);
        strbuf_putc(&x->o, ' ');
        strbuf_puts(&x->o, name);
        strbuf_putc(&x->o, ')');
    } else {
        strbuf_puts(&x->o, name);
    }
    if (x->high)
        strbuf_real(&x->o, obs);
    strbuf_putc(&x->o, ' ');
    strbuf_int(&x->o, dir);
    if (in && x->high) {
        double far = land ? x->flag_far : x->ball_far;
        double too_far = land ? x->flag_too_far : x->ball_too_far;
        if (!see_chance(x, see_ramp(obs, far, too_far)))
            see_changes(x, rel, vel, d, obs);
    }
    strbuf_putc(&x->o, ')');
}

static void see_landmarks(see_ctx_t *x)
{
    int shortn = x->ver >= 6;
    for (int i = 0; i < NETGW_LANDMARK_COUNT; i++) {
        const netgw_landmark_t *lm = &netgw_landmarks[i];
        if (lm->version > x->ver)
            continue;
        int goal = lm->kind == 'g';
        const char *kind = shortn ? (goal ? "g" : "f") : (goal ? "goal" : "flag");
        const char *close = shortn ? (goal ? "(G)" : "(F)") : (goal ? "(Goal)" : "(Flag)");
        see_static(x, kind, lm->name, close, vec2(lm->x, lm->y), vec2(0.0, 0.0), 1);
    }
}

/* team name an observer is shown: fixed_teamname_l/r hides the opponent's real name */
static const char *see_team_name(const see_ctx_t *x, int side)
{
    int t = side == SHM_SIDE_LEFT ? 0 : 1;
    if (side != x->s->player[x->self].side) {
        const char *fixed = conf_str(x->c, t == 0 ? SP_fixed_teamname_l : SP_fixed_teamname_r);
        if (fixed[0])
            return fixed;
    }
    return x->s->team[t];
}

/* (p "TEAM" UNUM goalie) / (p "TEAM") / (p) and the long v<6 forms */
static void see_player_name(see_ctx_t *x, const shm_player_sh_t *p, int team, int unum)
{
    int shortn = x->ver >= 6;
    strbuf_puts(&x->o, shortn ? "(p" : "(player");
    if (team) {
        const char *tn = see_team_name(x, p->side);
        strbuf_puts(&x->o, shortn ? " \"" : " ");
        strbuf_put(&x->o, tn, strnlen(tn, SHM_TEAM_NAME_LEN - 1));
        if (shortn)
            strbuf_putc(&x->o, '"');
    }
    if (team && unum) {
        strbuf_putc(&x->o, ' ');
        strbuf_int(&x->o, (int)p->unum);
        if (shortn && p->goalie)
            strbuf_puts(&x->o, " goalie");
    }
    strbuf_putc(&x->o, ')');
}

/* [POINTDIR] [t|k] after a player's numbers (v8+) */
static void see_player_tail(see_ctx_t *x, const shm_player_sh_t *p, double d)
{
    if (x->ver < 8)
        return;
    if (p->arm_expires > 0) {
        double too_far = x->type ? x->type->team_too_far_length : SEE_TEAM_TOO_FAR;
        double k = too_far > 0.0 ? d / too_far : 1.0;
        double sd = k * k * k * k * (SEE_POINT_SD_MAX - SEE_POINT_SD_MIN) + SEE_POINT_SD_MIN;
        double ang = vec2_angle(vec2(p->point_x - p->x, p->point_y - p->y));
        double deg = rad2deg(angle_norm(ang - x->face)) + rng_normal(x->rng, 0.0, sd);
        strbuf_putc(&x->o, ' ');
        strbuf_int(&x->o, see_deg(x, rad2deg(angle_norm(deg2rad(deg)))));
    }
    if (p->tackle_expires > 0)
        strbuf_put(&x->o, " t", 2);
    else if (x->ver >= 13 && p->kicked)
        strbuf_put(&x->o, " k", 2);
}

static void see_player(see_ctx_t *x, const shm_player_sh_t *p)
{
    vec2_t obj = vec2(p->x, p->y);
    vec2_t rel = vec2_sub(obj, x->pos);
    double d = vec2_len(rel);
    if (see_outside(x, rel, d))
        return;
    double rd = angle_norm(vec2_angle(rel) - x->face);
    int in = see_in_cone(x, d, rd, x->max_player);
    if (!in && d > x->vis_dist)
        return;
    double obs = see_noisy(x, obj, d, 0);
    int dir = see_deg(x, rad2deg(rd)); /* see_dir of the same angle */
    int team = 0, unum = 0;
    strbuf_put(&x->o, " (", 2);
    if (!in) {
        strbuf_puts(&x->o, x->ver >= 6 ? "(P)" : "(Player)");
    } else {
        team = !see_chance(x, see_ramp(obs, x->team_far, x->team_too_far));
        unum = team && !see_chance(x, see_ramp(obs, x->unum_far, x->unum_too_far));
        see_player_name(x, p, team, unum);
    }
    if (x->high)
        strbuf_real(&x->o, obs);
    strbuf_putc(&x->o, ' ');
    strbuf_int(&x->o, dir);
    if (x->high && unum) {
        see_changes(x, rel, vec2(p->vx, p->vy), d, obs);
        if (x->ver >= 4) {
            strbuf_putc(&x->o, ' ');
            strbuf_int(&x->o, see_dir(x, p->body));
        }
        if (x->ver >= 5) {
            strbuf_putc(&x->o, ' ');
            strbuf_int(&x->o, see_dir(x, p->body + p->neck));
        }
    }
    if (x->high && team)
        see_player_tail(x, p, d);
    strbuf_putc(&x->o, ')');
}

/* the direction from the observer towards a line, perpendicular to it (the reference's
 * "normal": outward from inside the pitch, inward from beyond the line) */
static double see_line_normal(const see_ctx_t *x, const netgw_line_t *ln)
{
    if (ln->vertical) {
        if (ln->pos < 0.0)
            return x->pos.x < ln->pos ? 0.0 : M_PI;
        return x->pos.x > ln->pos ? M_PI : 0.0;
    }
    if (ln->pos < 0.0)
        return x->pos.y < ln->pos ? M_PI / 2.0 : -M_PI / 2.0;
    return x->pos.y > ln->pos ? -M_PI / 2.0 : M_PI / 2.0;
}

/* one line if the face ray meets it in front of the observer; 1 if sent */
static int see_line(see_ctx_t *x, const netgw_line_t *ln)
{
    double normal = see_line_normal(x, ln);
    double dn = angle_norm(normal - x->face);
    if (fabs(dn) >= M_PI / 2.0)
        return 0;
    /* |dn| < 90 deg: the face ray is not parallel to this line */
    vec2_t u = vec2(cos(x->face), sin(x->face));
    double t = ln->vertical ? (ln->pos - x->pos.x) / u.x : (ln->pos - x->pos.y) / u.y;
    /* hit point of the face line with this line, must lie on the segment */
    double along = ln->vertical ? x->pos.y + t * u.y : x->pos.x + t * u.x;
    double extent = ln->vertical ? PITCH_HALF_W : PITCH_HALF_L;
    if (!isfinite(along) || fabs(along) > extent)
        return 0;
    double dist = fabs(t);
    double ql = conf_real(x->c, SP_quantize_step_l);
    double obs = see_quantize(exp(see_quantize(log(dist + 1.0e-10), ql)), 0.1);
    double deg = rad2deg(dn);
    deg = deg > 0.0 ? deg - 90.0 : deg + 90.0;
    strbuf_puts(&x->o, x->ver >= 6 ? " ((l " : " ((line ");
    strbuf_putc(&x->o, ln->name);
    strbuf_putc(&x->o, ')');
    if (x->high)
        strbuf_real(&x->o, obs);
    strbuf_putc(&x->o, ' ');
    strbuf_int(&x->o, see_deg(x, deg));
    strbuf_putc(&x->o, ')');
    return 1;
}

/* at most one line from inside the pitch, up to two from outside (docs/protocol/player.md §5.3) */
static void see_lines(see_ctx_t *x)
{
    int inside = fabs(x->pos.x) < PITCH_HALF_L && fabs(x->pos.y) < PITCH_HALF_W;
    int max = inside ? 1 : 2, sent = 0;
    for (int i = 0; i < NETGW_LINE_COUNT && sent < max; i++)
        sent += see_line(x, &netgw_lines[i]);
}

static double see_len(const shm_ptype_sh_t *t, double v, double fallback)
{
    return t && v > 0.0 ? v : fallback;
}

/* distance ranges of the observer's version: constants before v18, type values after;
 * the maximum observation lengths are the type's for every version (the reference's
 * visual sender asks the player type whatever the version: 125.1 m by default, so the
 * far corner flags drop out of a v4+ see from the opposite corner) */
static void see_ranges(see_ctx_t *x)
{
    const shm_ptype_sh_t *t = x->type;
    x->max_flag = see_len(t, t ? t->flag_max_observation_length : 0.0, 0.0);
    x->max_ball = see_len(t, t ? t->ball_max_observation_length : 0.0, 0.0);
    x->max_player = see_len(t, t ? t->player_max_observation_length : 0.0, 0.0);
    if (x->ver < 18 || !t) {
        x->unum_far = x->ball_far = x->flag_far = SEE_UNUM_FAR;
        x->unum_too_far = x->ball_too_far = x->flag_too_far = SEE_UNUM_TOO_FAR;
        x->team_far = SEE_TEAM_FAR;
        x->team_too_far = SEE_TEAM_TOO_FAR;
        return;
    }
    x->unum_far = see_len(t, t->unum_far_length, SEE_UNUM_FAR);
    x->unum_too_far = see_len(t, t->unum_too_far_length, SEE_UNUM_TOO_FAR);
    x->team_far = see_len(t, t->team_far_length, SEE_TEAM_FAR);
    x->team_too_far = see_len(t, t->team_too_far_length, SEE_TEAM_TOO_FAR);
    x->ball_far = see_len(t, t->ball_vel_far_length, SEE_UNUM_FAR);
    x->ball_too_far = see_len(t, t->ball_vel_too_far_length, SEE_UNUM_TOO_FAR);
    x->flag_far = see_len(t, t->flag_chg_far_length, SEE_UNUM_FAR);
    x->flag_too_far = see_len(t, t->flag_chg_too_far_length, SEE_UNUM_TOO_FAR);
}

static void see_init_ctx(see_ctx_t *x, const shm_snapshot_sh_t *s, int idx,
                         const shm_client_sh_t *cl, const conf_t *c,
                         const shm_ptypes_sh_t *pt, rng_t *rng)
{
    const shm_player_sh_t *me = &s->player[idx];
    memset(x, 0, sizeof *x);
    x->s = s;
    x->c = c;
    x->rng = rng;
    x->self = idx;
    x->ver = (int)cl->version;
    x->high = cl->synch_see ? 1 : cl->view_high != 0;
    x->gaussian = cl->gaussian_see != 0;
    if (pt && me->type >= 0 && (uint32_t)me->type < pt->count && me->type < SHM_MAX_PTYPES)
        x->type = &pt->type[me->type];
    x->pos = vec2(me->x, me->y);
    x->vel = vec2(me->vx, me->vy);
    x->face = angle_norm(me->body + me->neck);
    x->half = proto_view_angle(cl, c);
    x->face_u = vec2(cos(x->face), sin(x->face));
    x->cos_half = x->half < M_PI ? cos(x->half) - 1.0e-9 : -2.0;
    x->vis_dist = conf_real(c, SP_visible_distance);
    x->focus = x->pos;
    if (x->ver >= 18)
        x->focus = vec2_add(x->pos, vec2_polar(me->focus_dist, x->face + me->focus_dir));
    see_ranges(x);
}

/* see for player idx; see netgw_proto.h. Returns the length, or -1 (bad arguments or
 * buf too small; buf then holds ""). */
int proto_see(const shm_snapshot_sh_t *s, int idx, const shm_client_sh_t *cl,
              const conf_t *c, const shm_ptypes_sh_t *pt, rng_t *rng, char *buf, size_t len)
{
    if (!s || !cl || !c || !rng || !buf || len == 0 || idx < 0 || idx >= SHM_MAX_PLAYERS)
        return -1;
    see_ctx_t x;
    see_init_ctx(&x, s, idx, cl, c, pt, rng);
    x.o = (strbuf_t){ buf, len, 0, 0 };
    strbuf_puts(&x.o, "(see ");
    strbuf_int(&x.o, (int)s->time);
    see_landmarks(&x);
    /* ball, players and lines are version-3 objects: v1 and v2 clients see nothing at
     * all, "(see T)", as from the reference */
    if (x.ver >= SEE_OBJECT_VERSION) {
        see_static(&x, NULL, x.ver >= 6 ? "(b)" : "(ball)", x.ver >= 6 ? "(B)" : "(Ball)",
                   vec2(s->ball.x, s->ball.y), vec2(s->ball.vx, s->ball.vy), 0);
        for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
            if (i != idx && s->player[i].enabled)
                see_player(&x, &s->player[i]);
        }
        see_lines(&x);
    }
    strbuf_putc(&x.o, ')');
    if (x.o.overflow) {
        buf[0] = '\0';
        return -1;
    }
    return (int)x.o.pos;
}

/* half view angle (rad) from server::visible_angle (90): async x 1/2, 1, 2 (45/90/180
 * deg), synch-see x 2/3, 4/3, 2 (60/120/180 deg) (docs/protocol/player.md §5.2) */
double proto_view_angle(const shm_client_sh_t *cl, const conf_t *c)
{
    static const double async_k[3] = { 0.5, 1.0, 2.0 };
    static const double synch_k[3] = { 2.0 / 3.0, 4.0 / 3.0, 2.0 };
    int w = cl->view_width;
    if (w < SHM_VIEW_NARROW || w > SHM_VIEW_WIDE)
        w = SHM_VIEW_NORMAL;
    double va = c ? conf_real(c, SP_visible_angle) : 90.0;
    return deg2rad(va * (cl->synch_see ? synch_k : async_k)[w]) / 2.0;
}

/* async: quarter send_steps 2/4/8, halved for low quality; synch-see: cycles 1/2/3 */
int proto_see_period(const shm_client_sh_t *cl)
{
    int w = cl->view_width;
    if (w < SHM_VIEW_NARROW || w > SHM_VIEW_WIDE)
        w = SHM_VIEW_NORMAL;
    if (cl->synch_see)
        return w + 1;
    int q = 2 << w;
    return cl->view_high ? q : q / 2;
}
