/* sim_publish.c -- world -> shm: fills one snapshot slot per step (seqlock through
 * shm_snap_begin/publish), or the live world between steps when commands were applied
 * at once, and wakes every gateway (its wake socket and cycle semaphore, shm_wake.h) and
 * the recorder. A step's snapshot is filled first and closed after the commit that leads
 * to it (sim_resume.c), so a sim that dies in between leaves it for its successor. */
#include <string.h>
#include "shm_wake.h"
#include "sim.h"
#include "playmode.h"

static uint32_t player_state(const sim_player_t *p)
{
    const shm_player_sh_t *s = &p->sh;
    if (!s->enabled)
        return 0;
    uint32_t st = SIM_ST_STAND | p->cycle_state;
    if (s->goalie)
        st |= SIM_ST_GOALIE;
    if (s->tackle_expires > 0)
        st |= SIM_ST_TACKLE;
    if (s->foul_charged > 0)
        st |= SIM_ST_FOUL_CHARGED;
    if (s->card == 1)
        st |= SIM_ST_YELLOW_CARD;
    else if (s->card == 2)
        st |= SIM_ST_RED_CARD;
    return st;
}

void sim_publish_fill(const sim_world_t *w, const shm_client_sh_t *cl, shm_snapshot_sh_t *s)
{
    s->time = w->time;
    s->stoppage = w->stoppage;
    s->play_mode = w->play_mode;
    s->episode = w->episode;
    s->catcher = w->catcher >= 0 && w->catcher < SHM_MAX_PLAYERS ? w->catcher + 1 : 0;
    s->pen_coin = w->ref.pen_coin;
    for (int k = 0; k < 2; k++) {
        s->score[k] = w->score[k];
        s->pen_score[k] = w->pen_score[k];
        s->pen_miss[k] = w->pen_miss[k];
        memcpy(s->team[k], w->team[k], SHM_TEAM_NAME_LEN);
        s->team[k][SHM_TEAM_NAME_LEN - 1] = '\0';
    }
    s->ball.x = w->ball.x;
    s->ball.y = w->ball.y;
    s->ball.vx = w->ball.vx;
    s->ball.vy = w->ball.vy;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const sim_player_t *p = &w->pl[i];
        shm_player_sh_t *d = &s->player[i];
        *d = p->sh;
        d->state = player_state(p);
        if (cl && p->sh.enabled) {
            d->view_width = (int8_t)cl[i].view_width;
            d->view_high = (int8_t)cl[i].view_high;
            d->synch_see = (int8_t)cl[i].synch_see;
        }
    }
}

/* every configured gateway (its wake socket and semaphore: shm_wake.h) and the
 * recorder; a restarted gateway drains what piled up while it was down */
static void publish_wake(shm_region_sh_t *r)
{
    static shm_wake_t wake = { .fd = -1 };
    static char wake_name[SHM_NAME_LEN];
    if (wake.r != r || strcmp(wake_name, r->hdr.name) != 0) { /* a region of its own */
        shm_wake_close(&wake);
        shm_wake_open(&wake, r);
        memcpy(wake_name, r->hdr.name, SHM_NAME_LEN);
    }
    for (uint32_t g = 0; g < r->hdr.n_gateways && g < SHM_MAX_GATEWAYS; g++)
        shm_wake_send(&wake, (int)g);
    shm_wake_send(&wake, SHM_WAKE_MGW);
    shm_sem_post(&r->recorder.cycle_sem);
}

/* the world plus the stamps a reader orders it by: which step, when, how far the event
 * ring had come, and the timer grid it belongs to */
static void fill_stamped(sim_world_t *w, shm_region_sh_t *r, shm_snapshot_sh_t *s,
                         uint64_t step, int64_t grid_ns, uint64_t poll)
{
    sim_publish_fill(w, r->client, s);
    s->step = step;
    s->publish_ns = shm_now_ns();
    s->event_head = shm_event_head(r);
    s->grid_ns = grid_ns;
    s->poll = poll;
}

shm_snapshot_sh_t *sim_publish_fill_step(sim_world_t *w, shm_region_sh_t *r, int64_t grid_ns,
                                         uint64_t poll, uint64_t ev_head)
{
    shm_snapshot_sh_t *s = shm_snap_begin(r);
    fill_stamped(w, r, s, atomic_load_explicit(&r->hdr.published, memory_order_relaxed) + 1,
                 grid_ns, poll);
    s->event_head = ev_head;
    return s;
}

void sim_publish_done(shm_region_sh_t *r, shm_snapshot_sh_t *s)
{
    shm_snap_publish(r, s);
    publish_wake(r);
}

void sim_publish_live(sim_world_t *w, shm_region_sh_t *r)
{
    uint64_t step = atomic_load_explicit(&r->hdr.published, memory_order_relaxed);
    const shm_snapshot_sh_t *last = &r->snap[(step - 1) % SHM_SNAP_SLOTS]; /* ours: stable */
    int64_t grid_ns = last->grid_ns;
    uint64_t poll = last->poll;
    shm_snapshot_sh_t *s = shm_live_begin(r);
    fill_stamped(w, r, s, step, grid_ns, poll);
    shm_live_publish(r, s);
    publish_wake(r);
}
