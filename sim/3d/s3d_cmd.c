/* s3d_cmd.c -- records from the gateways into the world, once per step before it runs:
 * agents' effectors from their command rings (only records of the connection that
 * holds the slot now count), and monitors' and trainers' commands from the control
 * rings (kickOff, playMode, agent, ball, dropBall, and the ack that follows them). */
#include <string.h>
#include "s3d.h"

void s3d_cmd_sync(s3d_world_t *w, const shm3d_region_sh_t *r)
{
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        const shm3d_agent_sh_t *a = &r->agent[i];
        int active = atomic_load_explicit(&a->state, memory_order_acquire) == SHM3D_AGENT_ACTIVE;
        uint32_t gen = atomic_load_explicit(&a->generation, memory_order_acquire);
        s3d_conn_t *c = &w->conn[i];
        if (c->active == active && c->generation == gen)
            continue;
        if (w->robot[i].present)
            s3d_eff_remove(w, i);
        c->active = active;
        c->generation = gen;
        c->created = 0;
    }
}

void s3d_cmd_apply(s3d_world_t *w, int slot, const shm3d_cmd_sh_t *c)
{
    char team[SHM3D_CMD_TEXT_LEN + 1];
    size_t n = c->len < SHM3D_CMD_TEXT_LEN ? c->len : SHM3D_CMD_TEXT_LEN;
    switch (c->kind) {
    case SHM3D_CMD_CREATE:
        s3d_eff_create(w, slot);
        break;
    case SHM3D_CMD_INIT:
        memcpy(team, c->text, n);
        team[n] = '\0';
        s3d_eff_init(w, slot, c->i, team);
        break;
    case SHM3D_CMD_BEAM:
        s3d_eff_beam(w, slot, vec3(c->d[0], c->d[1], c->d[2]));
        break;
    case SHM3D_CMD_DRIVE:
        s3d_eff_drive(w, slot, vec3(c->d[0], c->d[1], c->d[2]));
        break;
    case SHM3D_CMD_KICK:
        s3d_eff_kick(w, slot, c->d[0], c->d[1]);
        break;
    case SHM3D_CMD_BYE:
        if (w->robot[slot].present)
            s3d_eff_remove(w, slot);
        w->conn[slot].created = 0;
        break;
    default:
        break;
    }
}

/* "(error ...)" for the monitor that sent c, before the ack of a getAck after it */
static void ctrl_error(s3d_world_t *w, const shm3d_cmd_sh_t *c, const char *text)
{
    shm3d_event_sh_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = SHM3D_EV_MONITOR_ERROR;
    ev.slot = -1;
    ev.generation = c->generation;
    ev.time = w->game_time;
    size_t n = strlen(text);
    ev.len = (int32_t)(n < SHM3D_EVENT_TEXT_LEN ? n : SHM3D_EVENT_TEXT_LEN);
    memcpy(ev.text, text, (size_t)ev.len);
    s3d_world_emit(w, &ev);
}

static void ctrl_agent(s3d_world_t *w, const shm3d_cmd_sh_t *c)
{
    int i = s3d_find_robot(w, c->i ? 1 : 0, c->j);
    if (i == S3D_NO_ROBOT) {
        ctrl_error(w, c, "(error agent no_such_robot)");
        return;
    }
    s3d_body_t *b = &w->robot[i].b;
    if (c->flags & (SHM3D_CMDF_BATTERY | SHM3D_CMDF_TEMP)) {
        if (c->flags & SHM3D_CMDF_BATTERY)
            w->robot[i].battery = c->d[0] < 0.0 ? 0.0 : c->d[0] > 100.0 ? 100.0 : c->d[0];
        if (c->flags & SHM3D_CMDF_TEMP)
            w->robot[i].temp = c->d[1];
        return;
    }
    if (c->flags & SHM3D_CMDF_POS) {
        b->p = vec3(c->d[0], c->d[1], c->d[2]);
        if (b->p.z < b->r)
            b->p.z = b->r;
        b->w = vec3(0, 0, 0);
    }
    if (c->flags & SHM3D_CMDF_VEL)
        b->v = vec3(c->d[3], c->d[4], c->d[5]);
    else if (c->flags & SHM3D_CMDF_POS)
        b->v = vec3(0, 0, 0);
}

static void ctrl_ball(s3d_world_t *w, const shm3d_cmd_sh_t *c)
{
    vec3_t p = w->ball.p, v = vec3(0, 0, 0);
    if (c->flags & SHM3D_CMDF_POS)
        p = vec3(c->d[0], c->d[1], c->d[2]);
    if (c->flags & SHM3D_CMDF_VEL)
        v = vec3(c->d[3], c->d[4], c->d[5]);
    if (p.z < w->ball.r)
        p.z = w->ball.r;
    s3d_ball_place(w, p, v);
}

void s3d_cmd_control(s3d_world_t *w, const shm3d_cmd_sh_t *c)
{
    shm3d_event_sh_t ev;
    switch (c->kind) {
    case SHM3D_CMD_KICKOFF:
        if (s3d_ref_kickoff(w) < 0)
            ctrl_error(w, c, "(error kickOff not_before_kick_off)");
        break;
    case SHM3D_CMD_PLAYMODE:
        s3d_ref_set_mode(w, c->i);
        break;
    case SHM3D_CMD_AGENT:
        ctrl_agent(w, c);
        break;
    case SHM3D_CMD_BALL:
        ctrl_ball(w, c);
        break;
    case SHM3D_CMD_DROPBALL:
        s3d_ref_drop_ball(w);
        break;
    case SHM3D_CMD_ACK:
        memset(&ev, 0, sizeof ev);
        ev.kind = SHM3D_EV_ACK;
        ev.slot = -1;
        ev.generation = c->generation;
        ev.time = w->game_time;
        ev.len = c->len < SHM3D_CMD_TEXT_LEN ? c->len : SHM3D_CMD_TEXT_LEN;
        memcpy(ev.text, c->text, (size_t)ev.len);
        s3d_world_emit(w, &ev);
        break;
    default:
        break;
    }
}

void s3d_cmd_drain(s3d_world_t *w, shm3d_region_sh_t *r)
{
    shm3d_cmd_sh_t c;
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        while (shm3d_cmd_pop(&r->cmd[i], &c) == 0) {
            /* records of an earlier connection in this slot are dropped */
            if (w->conn[i].active && c.generation == w->conn[i].generation)
                s3d_cmd_apply(w, i, &c);
        }
    }
    for (int g = 0; g < SHM3D_N_GATEWAYS; g++) {
        while (shm3d_ctrl_pop(&r->proc[g].ctrl, &c) == 0)
            s3d_cmd_control(w, &c);
    }
}
