/* netgw_playergw.h -- the player side's parts that keep state in the gateway context
 * (ngw_t, netgw.h) and send: what players hear (netgw_audio.c) and the parameter
 * messages after an init (netgw_params.c, for coaches too). They call only conn/; the
 * pure player protocol they build on is netgw_proto.h. */
#ifndef RCSS_NETGW_PLAYERGW_H
#define RCSS_NETGW_PLAYERGW_H

#include "shm_layout.h"

typedef struct ngw ngw_t;

/* ---- netgw_audio.c: what players hear, player replies from the sim ---- */
/* Every event read with a snapshot, in order: referee messages and v1-v7 hears at once,
 * v8+ says and coach/trainer says cached for the next cycle, the sim's player replies. */
void ngw_audio_event(ngw_t *g, const shm_event_sh_t *ev);
/* Once per snapshot after its events: hear capacities refilled. */
void ngw_audio_step(ngw_t *g);
/* Right after player idx's sense_body (and fullstate): its cached messages, v8+. */
void ngw_audio_release(ngw_t *g, int idx);
/* After every player was served: cached coach says dropped, positions remembered. */
void ngw_audio_end_step(ngw_t *g);
/* A new client at idx: full capacity, nothing cached. */
void ngw_audio_reset(ngw_t *g, int idx);

/* ---- netgw_params.c ---- */
/* The messages after a successful (init ...)/(reconnect ...) of a player or a coach:
 * parameters, types. */
void ngw_params_send(ngw_t *g, int idx);

#endif
