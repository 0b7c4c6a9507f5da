/* s3d_world.c -- the 3D world's parameters, initial state and the lookups every part of
 * the sim shares (s3d_world.h): team frames, robots by team and number, ball placement,
 * events and effector errors. The step's order is s3d_step.c. */
#include <stdio.h>
#include <string.h>
#include "playmode3d.h"
#include "s3d_world.h"

void s3d_params_load(s3d_params_t *pr, const conf3d_t *c)
{
    memset(pr, 0, sizeof *pr);
    pr->field_len = conf3d_real(c, P3_FieldLength);
    pr->field_wid = conf3d_real(c, P3_FieldWidth);
    pr->field_h = conf3d_real(c, P3_FieldHeight);
    pr->goal_w = conf3d_real(c, P3_GoalWidth);
    pr->goal_d = conf3d_real(c, P3_GoalDepth);
    pr->goal_h = conf3d_real(c, P3_GoalHeight);
    pr->post_r = conf3d_real(c, P3_GoalPostRadius);
    pr->border = conf3d_real(c, P3_BorderSize);
    pr->ball_r = conf3d_real(c, P3_BallRadius);
    pr->ball_m = conf3d_real(c, P3_BallMass);
    /* a football is a thin shell: I = 2/3 m r^2 */
    pr->ball_I = 2.0 / 3.0 * pr->ball_m * pr->ball_r * pr->ball_r;
    pr->g = conf3d_real(c, P3_Gravity);
    pr->agent_m = conf3d_real(c, P3_AgentMass);
    pr->agent_r = conf3d_real(c, P3_AgentRadius);
    /* the robot is a solid sphere: I = 2/5 m r^2 */
    pr->agent_I = 0.4 * pr->agent_m * pr->agent_r * pr->agent_r;
    pr->agent_vmax = conf3d_real(c, P3_AgentMaxSpeed);
    pr->fk_dist = conf3d_real(c, P3_FreeKickDistance);
    pr->wait_kickoff = conf3d_real(c, P3_WaitBeforeKickOff);
    pr->goal_pause = conf3d_real(c, P3_RuleGoalPauseTime);
    pr->kickin_pause = conf3d_real(c, P3_RuleKickInPauseTime);
    pr->half_time = conf3d_real(c, P3_RuleHalfTime);
    pr->halves = conf3d_int(c, P3_RuleHalves);
    pr->drop_time = conf3d_real(c, P3_RuleDropBallTime);
    pr->offside = conf3d_bool(c, P3_RuleOffside);
    pr->goalkick_dist = conf3d_real(c, P3_GoalKickDistance);
    pr->gameover_wait = conf3d_real(c, P3_GameOverWait);
    pr->dt = conf3d_real(c, P3_StepLength);
    pr->mon_interval = conf3d_int(c, P3_MonitorInterval);
    pr->sense_interval = conf3d_int(c, P3_SenseInterval);
    pr->substeps = conf3d_int(c, P3_PhysicsSubsteps);
    pr->drive_max = conf3d_real(c, P3_DriveMaxLength);
    pr->drive_factor = conf3d_real(c, P3_DriveForceFactor);
    pr->drive_sigma = conf3d_real(c, P3_DriveErrorSigma);
    pr->drive_errmax = conf3d_real(c, P3_DriveErrorMax);
    /* ground drag k such that full drive is in balance with it at AgentMaxSpeed:
     * k * vmax = factor * max */
    pr->agent_drag = pr->drive_factor * pr->drive_max / pr->agent_vmax;
    pr->battery_drain = conf3d_real(c, P3_BatteryDrain);
    pr->temp_amb = conf3d_real(c, P3_TempAmbient);
    pr->temp_heat = conf3d_real(c, P3_TempHeat);
    pr->temp_cool = conf3d_real(c, P3_TempCool);
    pr->kick_margin = conf3d_real(c, P3_KickableMargin);
    pr->kick_steps = conf3d_int(c, P3_KickSteps);
    pr->kick_max_angle = conf3d_real(c, P3_KickMaxAngle);
    pr->kick_force = conf3d_real(c, P3_KickForce);
    pr->kick_torque = conf3d_real(c, P3_KickTorque);
    pr->kick_ang_sigma = conf3d_real(c, P3_KickAngleSigma);
    pr->kick_lat_edge = conf3d_real(c, P3_KickLatSigmaEdge);
    pr->kick_lat_mid = conf3d_real(c, P3_KickLatSigmaMid);
    pr->kick_pow_sigma = conf3d_real(c, P3_KickPowerSigma);
    pr->cal_err = conf3d_real(c, P3_VisionCalibError);
    pr->vis_dist_sigma = conf3d_real(c, P3_VisionDistSigma);
    pr->vis_ang_sigma = conf3d_real(c, P3_VisionAngleSigma);
    pr->vis_lat_sigma = conf3d_real(c, P3_VisionLatSigma);
    pr->ball_bounce = conf3d_real(c, P3_BallBounce);
    pr->ball_slide = conf3d_real(c, P3_BallSlideFriction);
    pr->ball_roll = conf3d_real(c, P3_BallRollFriction);
    pr->ball_drag = conf3d_real(c, P3_BallDrag);
    pr->agent_bounce = conf3d_real(c, P3_AgentBounce);
    pr->ab_bounce = conf3d_real(c, P3_AgentBallBounce);
    pr->ab_friction = conf3d_real(c, P3_AgentBallFriction);
    pr->goal_bounce = conf3d_real(c, P3_GoalBounce);
    pr->net_bounce = conf3d_real(c, P3_NetBounce);
    pr->wall_bounce = conf3d_real(c, P3_WallBounce);
}

void s3d_world_init(s3d_world_t *w, const conf3d_t *c, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    s3d_params_load(&w->pr, c);
    w->nshapes = s3d_collide_build_shapes(&w->pr, w->shape, S3D_MAX_SHAPES);
    /* one stream per concern, so adding a robot's vision does not change the kicks */
    rng_seed(&w->rng_act, seed * 3 + 1);
    rng_seed(&w->rng_noise, seed * 3 + 2);
    rng_seed(&w->rng_ref, seed * 3 + 3);
    w->ball.m = w->pr.ball_m;
    w->ball.r = w->pr.ball_r;
    w->ball.I = w->pr.ball_I;
    w->ball.p = vec3(0, 0, w->pr.ball_r);
    w->half = 1;
    w->play_mode = PM3D_BEFORE_KICK_OFF;
    w->kickoff_side = -1;
    w->first_kickoff = -1;
    w->pending_mode = -1;
    w->last_touch = S3D_NO_ROBOT;
    w->last_touch_side = -1;
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        w->robot[i].b.m = w->pr.agent_m;
        w->robot[i].b.r = w->pr.agent_r;
        w->robot[i].b.I = w->pr.agent_I;
    }
}

vec3_t s3d_to_team(int side, vec3_t a)
{
    return side ? vec3(-a.x, -a.y, a.z) : a;
}

vec3_t s3d_from_team(int side, vec3_t t)
{
    return side ? vec3(-t.x, -t.y, t.z) : t;
}

int s3d_team_count(const s3d_world_t *w, int side)
{
    int n = 0;
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++)
        n += w->robot[i].present && w->robot[i].side == side;
    return n;
}

int s3d_find_robot(const s3d_world_t *w, int side, int unum)
{
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        const s3d_robot_t *r = &w->robot[i];
        if (r->present && r->side == side && r->unum == unum)
            return i;
    }
    return S3D_NO_ROBOT;
}

void s3d_ball_place(s3d_world_t *w, vec3_t p, vec3_t v)
{
    w->ball.p = p;
    w->ball.v = v;
    w->ball.w = vec3(0, 0, 0);
    w->kick.steps_left = 0;
}

void s3d_world_emit(s3d_world_t *w, const shm3d_event_sh_t *ev)
{
    if (w->emit)
        w->emit(w->emit_ctx, ev);
}

void s3d_world_error(s3d_world_t *w, int slot, const char *effector, const char *reason)
{
    shm3d_event_sh_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = SHM3D_EV_AGENT_ERROR;
    ev.slot = slot;
    ev.generation = w->conn[slot].generation;
    ev.time = w->game_time;
    int n = snprintf(ev.text, sizeof ev.text, "(error %s %s)", effector, reason);
    ev.len = n < 0 ? 0 : n >= (int)sizeof ev.text ? (int)sizeof ev.text - 1 : n;
    s3d_world_emit(w, &ev);
}
