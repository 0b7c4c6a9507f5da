/* rec_fixture.c -- see rec_fixture.h. */
#include <math.h>
#include <string.h>
#include "rec_fixture.h"

void fx_empty(shm_snapshot_sh_t *s)
{
    memset(s, 0, sizeof *s);
    s->play_mode = 1; /* before_kick_off */
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        shm_player_sh_t *p = &s->player[i];
        int left = i < SHM_TEAM_SIZE;
        p->side = left ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
        p->unum = (int8_t)(i % SHM_TEAM_SIZE + 1);
        p->x = (left ? -3.0 : 3.0) * p->unum;
        p->y = -37.0;
        p->view_width = SHM_VIEW_NORMAL;
        p->view_high = 1;
        p->stamina = 8000;
        p->effort = 1;
        p->recovery = 1;
        p->capacity = 130600;
    }
}

void fx_busy(shm_snapshot_sh_t *s, int t)
{
    fx_empty(s);
    s->time = t;
    s->play_mode = 3; /* play_on */
    strcpy(s->team[0], "Alpha");
    strcpy(s->team[1], "Beta");
    s->score[0] = t / 50;
    s->ball.x = 10.123456 + t * 0.37;
    s->ball.y = -3.00004;  /* quantised to -3 */
    s->ball.vx = 1.5 / (t + 1);
    s->ball.vy = -0.00004; /* quantised to -0: printed -0, as the reference prints it */
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        shm_player_sh_t *p = &s->player[i];
        if (i == 10 || i == 21)
            continue; /* one unconnected player per side */
        p->enabled = 1;
        p->type = i % 3;
        p->state = 0x1u | (i == 0 || i == 11 ? 0x8u : 0) | (i == 3 ? 0x40000u : 0)
                   | (i == 4 ? 0x80000u : 0) | (i == 5 ? 0x2u : 0);
        p->goalie = i == 0 || i == 11;
        p->x = -50.0 + i * 4.5 + t * 0.01;
        p->y = 30.0 - i * 2.75;
        p->vx = 0.1234 * (i % 5);
        p->vy = -0.0567 * (i % 4);
        p->body = (i == 7) ? M_PI : (i - 11) * 0.27;   /* 180 degrees, then a spread */
        p->neck = (i % 3 - 1) * 0.5;
        p->view_width = (int8_t)(i % 3);
        p->view_high = (int8_t)(i % 2);
        p->synch_see = i > 11;
        p->stamina = 8000 - 17.5 * i - t;
        p->effort = 0.8 + 0.01 * (i % 7);
        p->recovery = 1.0 - 0.001 * i;
        p->capacity = 130600 - 55 * i * (t + 1);
        p->focus_dist = 0.25 * (i % 4);
        p->focus_dir = (i % 5 - 2) * 0.1;
        if (i == 2) { /* pointing */
            p->arm_expires = 5;
            p->point_x = 12.5;
            p->point_y = -7.25;
        }
        if (i == 6) { /* attentionto the right 9 */
            p->focus_side = SHM_SIDE_RIGHT;
            p->focus_unum = 9;
        }
        for (int k = 0; k < SHM_CNT_N; k++)
            p->count[k] = (uint32_t)(t * (k + 1) + i);
    }
}

void fx_head(rec_head_t *h)
{
    static conf_t conf;
    static shm_ptypes_sh_t types;
    conf_defaults(&conf);
    memset(&types, 0, sizeof types);
    types.count = 3;
    for (int i = 0; i < 3; i++) {
        shm_ptype_sh_t *t = &types.type[i];
        t->player_speed_max = 1.05;
        t->stamina_inc_max = 45 - i;
        t->player_decay = 0.4 + 0.01 * i;
        t->inertia_moment = 5 + i;
        t->dash_power_rate = 0.006;
        t->player_size = 0.3;
        t->kickable_margin = 0.7;
        t->kick_rand = 0.1 * i;
        t->extra_stamina = 50 + i;
        t->effort_max = 1 - 0.01 * i;
        t->effort_min = 0.6;
        t->kick_power_rate = 0.027;
        t->foul_detect_probability = 0.5;
        t->catchable_area_l_stretch = 1 + 0.1 * i;
    }
    h->conf = &conf;
    h->types = &types;
}
