/* s3d_effect.c -- the effectors of docs/protocol/3d.md §2.1-§2.5 as the world applies them:
 * create, init (team and uniform number), beam (before kick-off only), drive (the
 * omnidrive force with its per-axis error, the battery and the temperature) and kick
 * (a force and a topspin torque on the ball over KickSteps steps, with the manual's
 * noise). Agents are told why a command could not be carried out: "(error init
 * unum_taken)". */
#include <ctype.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include "playmode3d.h"
#include "s3d_world.h"

void s3d_eff_create(s3d_world_t *w, int slot)
{
    /* one robot type: the parameters of (create ...) are ignored (docs/protocol/3d.md §2.1) */
    w->conn[slot].created = 1;
}

static int team_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= SHM3D_TEAM_NAME_LEN)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!isalnum(c) && c != '_' && c != '-' && c != '+' && c != '.')
            return 0;
    }
    return 1;
}

/* The side of a team name: an existing team, else the first free side; -1 if both
 * sides belong to other teams. */
static int team_side(s3d_world_t *w, const char *team)
{
    for (int k = 0; k < 2; k++) {
        if (strcmp(w->team[k], team) == 0)
            return k;
    }
    for (int k = 0; k < 2; k++) {
        if (w->team[k][0] == '\0') {
            snprintf(w->team[k], sizeof w->team[k], "%s", team);
            return k;
        }
    }
    return -1;
}

/* Where a new robot appears: its own half, in rows of four (team frame). */
static vec3_t start_pos(const s3d_params_t *pr, int side, int unum)
{
    double x = -5.0 - 8.0 * ((unum - 1) / 4), y = -15.0 + 10.0 * ((unum - 1) % 4);
    return s3d_from_team(side, vec3(x, y, pr->agent_r));
}

int s3d_eff_init(s3d_world_t *w, int slot, int unum, const char *team)
{
    s3d_robot_t *r = &w->robot[slot];
    if (!w->conn[slot].created) {
        s3d_world_error(w, slot, "init", "create_first");
        return -1;
    }
    if (r->present) {
        s3d_world_error(w, slot, "init", "already_initialised");
        return -1;
    }
    if (!team_name_ok(team)) {
        s3d_world_error(w, slot, "init", "bad_teamname");
        return -1;
    }
    if (unum < 0 || unum > SHM3D_TEAM_SIZE) {
        s3d_world_error(w, slot, "init", "bad_unum");
        return -1;
    }
    int side = team_side(w, team);
    if (side < 0) {
        s3d_world_error(w, slot, "init", "no_free_side");
        return -1;
    }
    if (unum == 0) { /* the lowest free number */
        for (int u = 1; u <= SHM3D_TEAM_SIZE && unum == 0; u++)
            unum = s3d_find_robot(w, side, u) == S3D_NO_ROBOT ? u : 0;
        if (unum == 0) {
            s3d_world_error(w, slot, "init", "team_full");
            return -1;
        }
    } else if (s3d_find_robot(w, side, unum) != S3D_NO_ROBOT) {
        s3d_world_error(w, slot, "init", "unum_taken");
        return -1;
    }
    memset(r, 0, sizeof *r);
    r->b.m = w->pr.agent_m;
    r->b.r = w->pr.agent_r;
    r->b.I = w->pr.agent_I;
    r->b.p = start_pos(&w->pr, side, unum);
    r->present = 1;
    r->side = side;
    r->unum = unum;
    r->generation = w->conn[slot].generation;
    r->calib = s3d_percept_calib(&w->pr, &w->rng_noise);
    r->battery = 100.0;
    r->temp = w->pr.temp_amb;
    r->touching = 1;
    return 0;
}

void s3d_eff_remove(s3d_world_t *w, int slot)
{
    s3d_robot_t *r = &w->robot[slot];
    if (w->last_touch == slot) {
        w->last_touch = S3D_NO_ROBOT;
    }
    if (w->kick.steps_left > 0 && w->kick.robot == slot)
        w->kick.robot = S3D_NO_ROBOT;
    r->present = 0;
    w->conn[slot].created = 0;
}

void s3d_eff_beam(s3d_world_t *w, int slot, vec3_t t)
{
    s3d_robot_t *r = &w->robot[slot];
    const s3d_params_t *pr = &w->pr;
    if (!r->present) {
        s3d_world_error(w, slot, "beam", "init_first");
        return;
    }
    if (w->play_mode != PM3D_BEFORE_KICK_OFF) {
        s3d_world_error(w, slot, "beam", "not_before_kick_off");
        return;
    }
    if (isnan(t.x) || isnan(t.y)) {
        s3d_world_error(w, slot, "beam", "bad_arguments");
        return;
    }
    /* z is forced to the ground (docs/protocol/3d.md §2.3); the whole robot stays in its
     * own half and on the field (its centre a radius inside the lines), and off the
     * ball (on the centre spot before kick-off): a beam onto it would make the robot the
     * last to touch; it goes back (-x) until it is clear */
    double ra = pr->agent_r, hx = pr->field_len / 2 - ra, hy = pr->field_wid / 2 - ra;
    t.x = t.x > -ra ? -ra : t.x < -hx ? -hx : t.x;
    t.y = t.y > hy ? hy : t.y < -hy ? -hy : t.y;
    double clear = ra + pr->ball_r + S3D_BEAM_BALL_GAP;
    vec3_t b = s3d_to_team(r->side, w->ball.p);
    double dx = t.x - b.x, dy = t.y - b.y;
    if (dx * dx + dy * dy < clear * clear)
        t.x = b.x - sqrt(clear * clear - dy * dy);
    t.z = ra;
    r->b.p = s3d_from_team(r->side, t);
    r->b.v = vec3(0, 0, 0);
    r->b.w = vec3(0, 0, 0);
}

void s3d_eff_drive(s3d_world_t *w, int slot, vec3_t t)
{
    s3d_robot_t *r = &w->robot[slot];
    if (!r->present) {
        s3d_world_error(w, slot, "drive", "init_first");
        return;
    }
    double l = vec3_len(t);
    if (l > w->pr.drive_max)
        t = vec3_scale(t, w->pr.drive_max / l);
    r->drive = s3d_from_team(r->side, t);
}

double s3d_drive_error(const s3d_params_t *pr, rng_t *rng)
{
    if (pr->drive_sigma <= 0.0 || pr->drive_errmax <= 0.0)
        return 0.0;
    /* a normal error cut at +-max by drawing again: "normally distributed around 0,
     * each up to 2% of the applied force" (docs/protocol/3d.md §2.4) */
    for (int i = 0; i < 64; i++) {
        double e = rng_normal(rng, 0.0, pr->drive_sigma);
        if (fabs(e) <= pr->drive_errmax)
            return e;
    }
    return 0.0;
}

vec3_t s3d_drive_force(const s3d_params_t *pr, rng_t *rng, vec3_t d)
{
    double k = pr->drive_factor;
    double ex = s3d_drive_error(pr, rng), ey = s3d_drive_error(pr, rng);
    double ez = s3d_drive_error(pr, rng);
    return vec3(k * d.x * (1.0 + ex), k * d.y * (1.0 + ey), k * d.z * (1.0 + ez));
}

void s3d_robot_energy(const s3d_params_t *pr, s3d_robot_t *r)
{
    /* the share of full drive used this step; the drive works (and draws) only on the
     * ground and with charge left */
    double use = 0.0;
    if (r->touching && r->battery > 0.0 && pr->drive_max > 0.0)
        use = vec3_len(r->drive) / pr->drive_max;
    r->battery -= pr->battery_drain * use * pr->dt;
    if (r->battery < 0.0)
        r->battery = 0.0;
    r->temp += (pr->temp_heat * use - pr->temp_cool * (r->temp - pr->temp_amb)) * pr->dt;
}

double s3d_kick_lat_sigma(const s3d_params_t *pr, double lat)
{
    /* 3d.md §2.5: 0.9 at both ends of the range, up to 4.5 towards the middle: a
     * parabola through (0, edge), (max/2, mid), (max, edge) */
    double m = pr->kick_max_angle;
    if (m <= 0.0)
        return pr->kick_lat_edge;
    double u = lat / m;
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    return pr->kick_lat_edge + (pr->kick_lat_mid - pr->kick_lat_edge) * 4.0 * u * (1.0 - u);
}

void s3d_kick_noise(const s3d_params_t *pr, rng_t *rng, double lat, double *dtheta,
                    double *dphi, double *dpower)
{
    *dtheta = rng_normal(rng, 0.0, pr->kick_ang_sigma);
    *dphi = rng_normal(rng, 0.0, s3d_kick_lat_sigma(pr, lat));
    *dpower = rng_normal(rng, 0.0, pr->kick_pow_sigma);
}

int s3d_kickable(const s3d_world_t *w, const s3d_robot_t *r)
{
    double gap = vec3_len(vec3_sub(w->ball.p, r->b.p)) - r->b.r - w->ball.r;
    return gap <= w->pr.kick_margin;
}

void s3d_eff_kick(s3d_world_t *w, int slot, double lat, double power)
{
    s3d_robot_t *r = &w->robot[slot];
    const s3d_params_t *pr = &w->pr;
    if (!r->present) {
        s3d_world_error(w, slot, "kick", "init_first");
        return;
    }
    /* no kick in the air, out of range, or when the rules do not let the side play;
     * these are the game, not errors: the kick just does not happen */
    if (!r->touching || !s3d_kickable(w, r) || !s3d_ref_may_kick(w, r->side))
        return;
    lat = lat < 0.0 ? 0.0 : lat > pr->kick_max_angle ? pr->kick_max_angle : lat;
    power = power < 0.0 ? 0.0 : power > 100.0 ? 100.0 : power;
    double dth, dph, dpw;
    s3d_kick_noise(pr, &w->rng_act, lat, &dth, &dph, &dpw);
    /* radially away from the robot in the x-y plane (the manual: the horizontal angle cannot
     * be chosen) */
    vec3_t d = vec3_sub(w->ball.p, r->b.p);
    double th = atan2(d.y, d.x) + dth * M_PI / 180.0;
    double ph = (lat + dph) * M_PI / 180.0;
    double p = power + dpw;
    if (p < 0.0)
        p = 0.0;
    double f = pr->kick_force * p / 100.0;
    w->kick.force = vec3(f * cos(ph) * cos(th), f * cos(ph) * sin(th), f * sin(ph));
    /* topspin: about z x direction, as the ball rolling that way spins */
    w->kick.torque = vec3(-sin(th) * pr->kick_torque * p / 100.0,
                          cos(th) * pr->kick_torque * p / 100.0, 0.0);
    w->kick.steps_left = pr->kick_steps;
    w->kick.robot = slot;
    r->touched = 1;
}
