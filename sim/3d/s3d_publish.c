/* s3d_publish.c -- world -> shm for the 3D server: one snapshot per step (the seqlock
 * of shm3d_snap_begin/publish), with the robots' vision measurements on sense steps,
 * events to the event ring, then one post per gateway. */
#include <string.h>
#include "s3d.h"
#include "shm.h"

void s3d_publish_emit(void *ctx, const shm3d_event_sh_t *ev)
{
    shm3d_event_push((shm3d_region_sh_t *)ctx, ev);
}

static void fill_robot(s3d_world_t *w, int i, int sense, shm3d_robot_sh_t *d)
{
    const s3d_robot_t *r = &w->robot[i];
    d->present = (int8_t)r->present;
    d->nseen = 0;
    if (!r->present)
        return;
    d->side = (int8_t)r->side;
    d->unum = (int8_t)r->unum;
    d->touching = (int8_t)r->touching;
    d->last_touch = (int8_t)(w->last_touch == i);
    d->generation = r->generation;
    vec3_store(r->b.p, d->pos);
    vec3_store(r->b.v, d->vel);
    d->battery = r->battery;
    d->temp = r->temp;
    if (sense)
        d->nseen = s3d_percept_vision(w, i, d->seen, SHM3D_MAX_SEEN);
}

void s3d_publish_fill(s3d_world_t *w, shm3d_snapshot_sh_t *s, uint64_t event_head)
{
    const s3d_params_t *pr = &w->pr;
    s->sim_step = w->step;
    s->sim_time = w->sim_time;
    s->game_time = w->game_time;
    s->half = w->half;
    s->play_mode = w->play_mode;
    s->score[0] = w->score[0];
    s->score[1] = w->score[1];
    s->sense = w->step % (uint64_t)pr->sense_interval == 0;
    s->info = w->step % (uint64_t)pr->mon_interval == 0;
    memcpy(s->team, w->team, sizeof s->team);
    s->event_head = event_head;
    vec3_store(w->ball.p, s->ball_pos);
    vec3_store(w->ball.v, s->ball_vel);
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++)
        fill_robot(w, i, s->sense, &s->robot[i]);
}

int s3d_publish(s3d_world_t *w, shm3d_region_sh_t *r)
{
    shm3d_snapshot_sh_t *s = shm3d_snap_begin(r);
    s3d_publish_fill(w, s, shm3d_event_head(r));
    s->publish_ns = shm_now_ns();
    int asked = 0;
    for (int i = 0; s->sense && i < SHM3D_MAX_AGENTS; i++)
        asked |= s->robot[i].present;
    shm3d_snap_publish(r, s);
    for (int g = 0; g < SHM3D_N_GATEWAYS; g++)
        shm_sem_post(&r->proc[g].cycle_sem);
    return asked;
}
