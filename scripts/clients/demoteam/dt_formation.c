/* dt_formation.c -- where each role stands: the kick-off formation (all in the own
 * half, outside the centre circle unless we kick off), and the home position during
 * play, which follows the ball (a 4-3-3 that slides with it, forwards kept onside). */
#include <math.h>
#include "dt.h"

/* home positions with the ball on the centre spot (own frame, attacking +x) */
static const double base[DT_PLAYERS + 1][2] = {
    { 0, 0 },
    { -49, 0 },                                   /* 1 goalie */
    { -26, -20 }, { -29, -7 }, { -29, 7 }, { -26, 20 }, /* 2-5 defenders */
    { -8, -14 }, { -10, 0 }, { -8, 14 },          /* 6-8 midfield */
    { 8, -18 }, { 10, 0 }, { 8, 18 },             /* 9-11 forwards */
};

/* x range per line: goalie, defenders, midfield, forwards */
static int line_of(int unum) { return unum == 1 ? 0 : unum <= 5 ? 1 : unum <= 8 ? 2 : 3; }
static const double line_min[4] = { -51, -47, -40, -25 };
static const double line_max[4] = { -40, 15, 36, 46 };
static const double line_follow[4] = { 0.05, 0.6, 0.8, 0.7 };

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

vec2_t dt_formation_kickoff(int unum, int ours)
{
    if (unum < 1 || unum > DT_PLAYERS)
        return vec2(-10.0, 0.0);
    if (ours && unum == 10)
        return vec2(-0.6, 0.0); /* the kicker, the ball within reach */
    double x = fmin(base[unum][0] - 8.0, -1.0), y = base[unum][1];
    if (unum == 1)
        x = -50.0;
    if (ours && (unum == 9 || unum == 11))
        x = -1.0; /* wingers wait on the half-way line */
    if (!ours && vec2_len(vec2(x, y)) < 10.5)
        x = -sqrt(fmax(10.5 * 10.5 - y * y, 0.0)) - 0.5; /* outside the centre circle */
    return vec2(x, y);
}

double dt_formation_offside_x(const dt_world_t *w)
{
    double first = -PITCH_HALF_L, second = -PITCH_HALF_L;
    int n = 0;
    for (int i = 1; i <= DT_PLAYERS; i++) {
        const dt_obj_t *o = &w->opp[i];
        if (o->age > 50)
            continue;
        n++;
        if (o->pos.x > first) {
            second = first;
            first = o->pos.x;
        } else if (o->pos.x > second) {
            second = o->pos.x;
        }
    }
    double line = n >= 2 ? second : PITCH_HALF_L - 15.0;
    if (w->ball.age < DT_UNKNOWN && w->ball.pos.x > line)
        line = w->ball.pos.x;
    return fmax(line, 0.0);
}

vec2_t dt_formation_home(const dt_world_t *w, int unum)
{
    if (unum < 1 || unum > DT_PLAYERS)
        return vec2(0.0, 0.0);
    vec2_t b = w->ball.age < DT_UNKNOWN ? w->ball.pos : vec2(0.0, 0.0);
    int l = line_of(unum);
    double x = base[unum][0] + line_follow[l] * b.x;
    double y = base[unum][1] * (l == 3 ? 0.9 : 0.8) + b.y * (l == 1 ? 0.25 : 0.35);
    x = clampd(x, line_min[l], line_max[l]);
    if (l == 1 && b.x < -30.0 && fabs(b.y) < 25.0)
        y = base[unum][1] * 0.45 + b.y * 0.4; /* defenders close the centre */
    if (l >= 2)
        x = fmin(x, dt_formation_offside_x(w) - 1.0);
    return vec2(x, clampd(y, -31.0, 31.0));
}
