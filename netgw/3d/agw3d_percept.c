/* agw3d_percept.c -- the perception one robot gets on a sense step (docs/protocol/3d.md
 * 2.3.6-2.3.8), as one message: (GameState (time T) (playmode NAME)) (AgentState
 * (battery B) (temp C)) (Vision (Flag (id 1_l) (pol D A L)) ... (Ball (pol D A L))
 * (Player (team NAME) (id N) (pol D A L)) ...). The first GameState of a robot also
 * carries its unum, its side and the game variables (FieldLength ... RuleHalfTime),
 * before the time and the play mode.
 * Numbers as the 2D protocols print them (6 significant digits). Pure. */
#include <string.h>
#include "agw3d.h"
#include "playmode3d.h"
#include "strbuf.h"

static const char *const marker_id[4] = { "1_l", "2_l", "1_r", "2_r" };

static void game_state(strbuf_t *o, const shm3d_snapshot_sh_t *s, int slot, int first,
                       const conf3d_t *c)
{
    const shm3d_robot_sh_t *r = &s->robot[slot];
    strbuf_printf(o, "(GameState ");
    if (first) { /* the robot and the game variables first, then time and play mode */
        strbuf_printf(o, "(unum %d) (team %s) ", r->unum, r->side ? "right" : "left");
        for (int i = 0; i < conf3d_n_game_vars; i++) {
            conf3d_id_t id = conf3d_game_vars[i];
            strbuf_printf(o, "(%s", conf3d_defs[id].name);
            strbuf_real(o, conf3d_real(c, id));
            strbuf_printf(o, ") ");
        }
    }
    strbuf_printf(o, "(time");
    strbuf_real(o, s->game_time);
    strbuf_printf(o, ") (playmode %s))", playmode3d_name(s->play_mode));
}

static void pol(strbuf_t *o, const shm3d_seen_sh_t *e)
{
    strbuf_printf(o, "(pol");
    strbuf_real(o, e->dist);
    strbuf_real(o, e->theta);
    strbuf_real(o, e->phi);
    strbuf_printf(o, ")");
}

static void vision(strbuf_t *o, const shm3d_snapshot_sh_t *s, int slot)
{
    const shm3d_robot_sh_t *r = &s->robot[slot];
    int n = r->nseen < 0 ? 0 : r->nseen > SHM3D_MAX_SEEN ? SHM3D_MAX_SEEN : r->nseen;
    strbuf_printf(o, "(Vision");
    for (int i = 0; i < n; i++) {
        const shm3d_seen_sh_t *e = &r->seen[i];
        switch (e->kind) {
        case SHM3D_SEEN_FLAG:
        case SHM3D_SEEN_GOAL:
            strbuf_printf(o, " (%s (id %s) ", e->kind == SHM3D_SEEN_FLAG ? "Flag" : "Goal",
                          marker_id[e->id & 3]);
            break;
        case SHM3D_SEEN_BALL:
            strbuf_printf(o, " (Ball ");
            break;
        case SHM3D_SEEN_PLAYER:
            strbuf_printf(o, " (Player (team %.*s) (id %d) ", SHM3D_TEAM_NAME_LEN,
                          s->team[e->side ? 1 : 0], e->id);
            break;
        default:
            continue;
        }
        pol(o, e);
        strbuf_printf(o, ")");
    }
    strbuf_printf(o, ")");
}

int agw3d_percept(const shm3d_snapshot_sh_t *s, int slot, int first, const conf3d_t *c,
                  char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    const shm3d_robot_sh_t *r = &s->robot[slot];
    if (len)
        buf[0] = '\0';
    game_state(&o, s, slot, first, c);
    strbuf_printf(&o, " (AgentState (battery");
    strbuf_real(&o, r->battery);
    strbuf_printf(&o, ") (temp");
    strbuf_real(&o, r->temp);
    strbuf_printf(&o, ")) ");
    vision(&o, s, slot);
    return o.overflow ? -1 : (int)o.pos;
}
