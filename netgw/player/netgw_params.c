/* netgw_params.c -- the messages a client of v7 or later gets after a successful
 * (init ...) or (reconnect ...): server_param, player_param and one player_type per type
 * (built by common/param_msg.c), then, for a player or an online coach (not the
 * trainer), a (change_player_type ...) line for every player whose type is not the
 * default. */
#include <stdio.h>
#include "netgw.h"
#include "netgw_conn.h"
#include "netgw_playergw.h"
#include "param_msg.h"

/* change_player_type lines for every player whose type is not the default */
static void params_types_in_use(ngw_t *g, int idx)
{
    const shm_client_sh_t *e = &g->r->client[idx];
    if (ngw_snap_refresh(g) < 0)
        return;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_player_sh_t *p = &g->snap.player[i];
        if (!p->enabled || p->type == 0)
            continue;
        char msg[64];
        if (p->side == e->side)
            snprintf(msg, sizeof msg, "(change_player_type %d %d)", p->unum, p->type);
        else
            snprintf(msg, sizeof msg, "(change_player_type %d)", p->unum);
        ngw_udp_send(g->cl[idx].fd, msg);
    }
}

void ngw_params_send(ngw_t *g, int idx)
{
    const shm_client_sh_t *e = &g->r->client[idx];
    int fd = g->cl[idx].fd;
    if (e->version < 7.0)
        return;
    if (param_msg_server(&g->conf, e->version, g->out, sizeof g->out) > 0)
        ngw_udp_send(fd, g->out);
    if (param_msg_player(&g->conf, e->version, g->out, sizeof g->out) > 0)
        ngw_udp_send(fd, g->out);
    for (uint32_t t = 0; t < g->r->ptypes.count && t < SHM_MAX_PTYPES; t++) {
        if (param_msg_type(&g->r->ptypes.type[t], (int)t, e->version, g->out, sizeof g->out) > 0)
            ngw_udp_send(fd, g->out);
    }
    if (e->kind != CLIENT_KIND_TRAINER) /* the trainer gets no list of changed players */
        params_types_in_use(g, idx);
}
