/* s3d_world.h -- the 3D world (docs/protocol/3d.md): sphere robots, the ball, goals and borders, a
 * rigid-body integrator (s3d_phys.c, s3d_collide.c), the effectors (s3d_effect.c), the
 * vision perceptor's noisy measurements (s3d_percept.c) and the referee
 * (s3d_referee.c). Pure: no shm access but the record and snapshot types, no I/O, no
 * clock; everything random comes from the world's three streams, so a seed and the same
 * commands replay the same game. Frames: absolute (+x to the right goal, +z up); a
 * robot's team frame is the absolute one for the left team and turned by 180 degrees
 * about z for the right team, so +x always points at the opponent goal. */
#ifndef RCSS_S3D_WORLD_H
#define RCSS_S3D_WORLD_H

#include <stdint.h>
#include "conf3d.h"
#include "rng.h"
#include "shm3d_layout.h"
#include "vec3.h"

#define S3D_MAX_SHAPES    24
#define S3D_CONTACT_EPS   0.005    /* m: a sphere this close to the ground touches it */
#define S3D_NO_ROBOT      (-1)
#define S3D_BEAM_BALL_GAP 0.01     /* m: a beamed robot stays this far from the ball */

/* the parameters the step uses, resolved once from conf3d_t */
typedef struct s3d_params {
    double field_len, field_wid, field_h, goal_w, goal_d, goal_h, post_r, border;
    double ball_r, ball_m, ball_I, g;
    double agent_m, agent_r, agent_I, agent_vmax, agent_drag;  /* drag: N s/m */
    double fk_dist, wait_kickoff, goal_pause, kickin_pause, half_time, drop_time;
    double goalkick_dist, gameover_wait;
    int    halves, offside;
    double dt;
    int    mon_interval, sense_interval, substeps;
    double drive_max, drive_factor, drive_sigma, drive_errmax;
    double battery_drain, temp_amb, temp_heat, temp_cool;
    double kick_margin, kick_max_angle, kick_force, kick_torque;
    int    kick_steps;
    double kick_ang_sigma, kick_lat_edge, kick_lat_mid, kick_pow_sigma;
    double cal_err, vis_dist_sigma, vis_ang_sigma, vis_lat_sigma;
    double ball_bounce, ball_slide, ball_roll, ball_drag;
    double agent_bounce, ab_bounce, ab_friction, goal_bounce, net_bounce, wall_bounce;
} s3d_params_t;

/* a rigid sphere */
typedef struct s3d_body {
    vec3_t p;          /* m, centre */
    vec3_t v;          /* m/s */
    vec3_t w;          /* rad/s, angular velocity */
    double m;          /* kg */
    double r;          /* m */
    double I;          /* kg m^2, about any axis through the centre */
} s3d_body_t;

/* static geometry: goal posts and crossbars (capsules), nets (boxes), borders (planes) */
enum { S3D_SHAPE_CAPSULE, S3D_SHAPE_BOX, S3D_SHAPE_PLANE };
typedef struct s3d_shape {
    int    kind;
    vec3_t a, b;       /* capsule: segment ends; box: min and max corner; plane: point, normal */
    double r;          /* capsule radius */
    double bounce;     /* restitution */
    double damp;       /* share of the tangential velocity lost at an impact */
} s3d_shape_t;

typedef struct s3d_robot {
    s3d_body_t b;
    int      present;      /* on the field (after init) */
    int      side;         /* 0 left, 1 right */
    int      unum;         /* 1..11 */
    uint32_t generation;   /* connection generation it belongs to */
    vec3_t   drive;        /* drive vector, absolute frame, drive units (|d| <= max) */
    vec3_t   force;        /* drive force applied this step, N (error included) */
    vec3_t   calib;        /* camera calibration error, m (constant) */
    double   battery;      /* % */
    double   temp;         /* deg C */
    int      touching;     /* touching the ground */
    int      touched;      /* touched the ball during this step */
    int      offside_cand; /* in an offside position when a team mate last played the ball */
} s3d_robot_t;

/* a connection slot's state as the world knows it */
typedef struct s3d_conn {
    uint32_t generation;   /* of the records accepted */
    int      active;
    int      created;      /* (create) done */
} s3d_conn_t;

typedef struct s3d_kick {
    int    steps_left;     /* steps the force still acts */
    int    robot;          /* the kicker */
    vec3_t force;          /* N */
    vec3_t torque;         /* N m */
} s3d_kick_t;

typedef struct s3d_world {
    s3d_params_t pr;
    s3d_body_t   ball;
    s3d_kick_t   kick;
    s3d_robot_t  robot[SHM3D_MAX_AGENTS];     /* indexed by connection slot */
    s3d_conn_t   conn[SHM3D_MAX_AGENTS];
    s3d_shape_t  shape[S3D_MAX_SHAPES];
    int          nshapes;
    rng_t        rng_act;                     /* drive and kick errors */
    rng_t        rng_noise;                   /* vision noise and calibration */
    rng_t        rng_ref;                     /* the referee's coin */
    uint64_t     step;                        /* steps simulated */
    uint64_t     game_steps;                  /* steps the game clock ran */
    double       sim_time;                    /* s */
    double       game_time;                   /* s */
    int          half;                        /* 1, 2 */
    int          play_mode;                   /* PM3D_* */
    int          score[2];
    char         team[2][SHM3D_TEAM_NAME_LEN];
    int          kickoff_side;                /* next kick-off; -1: toss a coin */
    int          first_kickoff;               /* who kicked off the first half, -1 */
    double       mode_time;                   /* s of simulation in this play mode */
    double       bko_wait;                    /* s before kick-off with both teams present */
    int          pending_mode;                /* decided set play, -1 none */
    double       pending_at;                  /* sim_time it starts */
    vec3_t       pending_ball;                /* where the ball goes then */
    vec3_t       offside_spot;                /* free kick position after offside */
    int          last_touch;                  /* robot, S3D_NO_ROBOT */
    int          last_touch_side;             /* -1 none */
    int          shutdown;                    /* the game is over and the wait ran out */
    void       (*emit)(void *ctx, const shm3d_event_sh_t *ev);
    void        *emit_ctx;
} s3d_world_t;

/* ---- s3d_world.c ---- */
void   s3d_params_load(s3d_params_t *pr, const conf3d_t *c);
/* A fresh world: field, goals, ball at the centre, BeforeKickOff, first half. */
void   s3d_world_init(s3d_world_t *w, const conf3d_t *c, uint64_t seed);
/* team frame <-> absolute (a rotation: the same for points and vectors) */
vec3_t s3d_to_team(int side, vec3_t a);
vec3_t s3d_from_team(int side, vec3_t t);
/* Robots of a side on the field. */
int    s3d_team_count(const s3d_world_t *w, int side);
/* The robot of side/unum, or S3D_NO_ROBOT. */
int    s3d_find_robot(const s3d_world_t *w, int side, int unum);
/* Put the ball at p at rest; a running kick stops. */
void   s3d_ball_place(s3d_world_t *w, vec3_t p, vec3_t v);
/* One step: physics, energy, referee; the caller drains the effectors before and
 * computes percepts after. */
void   s3d_world_step(s3d_world_t *w);
/* Send "(error EFFECTOR REASON)" to the connection of slot. */
void   s3d_world_error(s3d_world_t *w, int slot, const char *effector, const char *reason);
void   s3d_world_emit(s3d_world_t *w, const shm3d_event_sh_t *ev);

/* ---- s3d_phys.c: the integrator ---- */
/* Advance every body by one step (PhysicsSubsteps substeps). */
void   s3d_phys_step(s3d_world_t *w);
/* One substep of length h: forces, velocities, positions, contacts. */
void   s3d_phys_substep(s3d_world_t *w, double h);
/* Ground contact of one body: 1 if it touches. ball = 1 adds friction and rolling. */
int    s3d_phys_ground(const s3d_params_t *pr, s3d_body_t *b, double h, int ball);

/* ---- s3d_collide.c ---- */
/* Impulse between two touching spheres along n (from a to b) at their contact point:
 * restitution e, Coulomb friction mu. Momentum and angular momentum are conserved
 * exactly; kinetic energy too for e = 1, mu = 0. Returns the normal impulse (N s),
 * 0 if they separate. */
double s3d_collide_impulse(s3d_body_t *a, s3d_body_t *b, vec3_t n, double e, double mu);
/* Overlap of two spheres resolved (positions by inverse mass, then the impulse).
 * 1 if they were in contact. */
int    s3d_collide_spheres(s3d_body_t *a, s3d_body_t *b, double e, double mu);
/* Contact of a sphere with one static shape. 1 if in contact. */
int    s3d_collide_static(s3d_body_t *b, const s3d_shape_t *s);
/* Every pair and every shape, once per substep; marks robots that touched the ball. */
void   s3d_collide_all(s3d_world_t *w);
/* The goals, borders and ceiling for the parameters. */
int    s3d_collide_build_shapes(const s3d_params_t *pr, s3d_shape_t *out, int max);

/* ---- s3d_effect.c: the effectors (docs/protocol/3d.md §2.1-§2.5) ---- */
void   s3d_eff_create(s3d_world_t *w, int slot);
/* 0, or -1 after telling the agent why. */
int    s3d_eff_init(s3d_world_t *w, int slot, int unum, const char *team);
void   s3d_eff_beam(s3d_world_t *w, int slot, vec3_t team_pos);
void   s3d_eff_drive(s3d_world_t *w, int slot, vec3_t team_force);
void   s3d_eff_kick(s3d_world_t *w, int slot, double latitude, double power);
/* The disconnection of slot: its robot leaves. */
void   s3d_eff_remove(s3d_world_t *w, int slot);
/* Drive force of a robot for this step: the vector times DriveForceFactor, each axis off
 * by a normal error of DriveErrorSigma (relative), cut at DriveErrorMax. */
vec3_t s3d_drive_force(const s3d_params_t *pr, rng_t *rng, vec3_t drive);
/* Relative error of one axis (the truncated normal above). */
double s3d_drive_error(const s3d_params_t *pr, rng_t *rng);
/* Kick noise: horizontal angle, latitude (sigma by latitude: s3d_kick_lat_sigma) and
 * power errors. */
void   s3d_kick_noise(const s3d_params_t *pr, rng_t *rng, double latitude, double *dtheta,
                      double *dphi, double *dpower);
double s3d_kick_lat_sigma(const s3d_params_t *pr, double latitude);
/* 1 if the ball is within the kickable margin of robot */
int    s3d_kickable(const s3d_world_t *w, const s3d_robot_t *r);
/* Battery and temperature after one step of this step's drive. */
void   s3d_robot_energy(const s3d_params_t *pr, s3d_robot_t *r);

/* ---- s3d_percept.c: vision (3d.md §3.1) ---- */
/* Marker i (0..3 flags 1_l 2_l 1_r 2_r, 4..7 goal posts in the same order). */
vec3_t s3d_marker_pos(const s3d_params_t *pr, int i);
/* Exact polar coordinates of p from camera cam in side's team frame: dist m, theta and
 * phi in degrees. */
void   s3d_polar(int side, vec3_t cam, vec3_t p, double *dist, double *theta, double *phi);
/* What robot index sees now, noise included: markers, ball, other robots. Returns n. */
int    s3d_percept_vision(s3d_world_t *w, int robot, shm3d_seen_sh_t *out, int max);
/* A camera calibration error (uniform per axis within VisionCalibError). */
vec3_t s3d_percept_calib(const s3d_params_t *pr, rng_t *rng);

/* ---- s3d_referee.c ---- */
void   s3d_ref_step(s3d_world_t *w);
/* (kickOff): the kick-off of the side due (a coin toss for the first). */
int    s3d_ref_kickoff(s3d_world_t *w);   /* 0, or -1 outside BeforeKickOff */
void   s3d_ref_set_mode(s3d_world_t *w, int pm);
/* (dropBall): play on, every robot at least FreeKickDistance from the ball. */
void   s3d_ref_drop_ball(s3d_world_t *w);
/* 1 if a robot of side may kick now */
int    s3d_ref_may_kick(const s3d_world_t *w, int side);
/* A robot of side touched the ball (collision or kick). */
void   s3d_ref_touch(s3d_world_t *w, int robot);

#endif
