/* netgw_coachgw.h -- the trainer and online-coach sessions of the gateway: their init
 * ports and commands (netgw_trainer.c, netgw_olcoach.c), what both share (netgw_coach.c),
 * their compression (netgw_coachzip.c) and the coach traffic of every cycle
 * (netgw_coachcycle.c). Their state is in the gateway context (ngw_coaches_t, netgw.h);
 * they call clang/, player/ (the parameter messages) and conn/. The pure coach protocol
 * they build on is netgw_coach.h. */
#ifndef RCSS_NETGW_COACHGW_H
#define RCSS_NETGW_COACHGW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include "netgw_coach.h"
#include "shm_layout.h"

typedef struct ngw ngw_t;
typedef struct ngw_port ngw_port_t;

/* ---- netgw_trainer.c, netgw_olcoach.c: the coach ports and sessions ---- */
/* A datagram on the trainer / online-coach port: init, or the reference's errors. */
void ngw_trainer_port(ngw_t *g, ngw_port_t *p, const char *text, size_t len,
                      const struct sockaddr_storage *from);
void ngw_olcoach_port(ngw_t *g, ngw_port_t *p, const char *text, size_t len,
                      const struct sockaddr_storage *from);
/* One command of the connected trainer / online coach (text NUL-terminated). */
void ngw_trainer_command(ngw_t *g, int idx, const char *text);
void ngw_olcoach_command(ngw_t *g, int idx, const char *text);

/* ---- netgw_coach.c: what both coach kinds share ---- */
/* A datagram on a coach's own socket (g->ops.coach_datagram). */
void ngw_coach_datagram(ngw_t *g, int idx, char *buf, size_t n);
/* A datagram on the init port from connected coach idx's address: protocol 8 and later
 * (or a coach without its own socket yet) get (error only_init_allowed_on_init_port),
 * older ones may keep using the init port, the datagram is handled as on their own. */
void ngw_coach_on_init_port(ngw_t *g, ngw_port_t *p, int idx, const char *text, size_t len,
                            const struct sockaddr_storage *from);
/* 1 while coach idx waits for the sim to apply a record (g->ops.coach_waiting). */
int  ngw_coach_waiting(const ngw_t *g, int idx);
/* Take the coach entry idx under the table lock for a client at from, open its socket.
 * 0, or -1 with *err the reply. */
int  ngw_coach_take(ngw_t *g, int idx, int kind, double version, int side,
                    const struct sockaddr_storage *from, const char **err);
/* A record (with a text, possibly long) into coach idx's ring; -1 if it is full. */
int  ngw_coach_push(ngw_t *g, int idx, shm_cmd_sh_t *c, const char *text, size_t len);
/* The raw datagram for the text log. */
void ngw_coach_log(ngw_t *g, int idx, const char *text);
/* Coach idx left: its (bye), or its socket refused (the client is gone). Says so on
 * stdout as the reference ("An online coach disconnected : (TEAM NAME)", "An offline coach
 * disconnected") and frees its place. */
void ngw_coach_gone(ngw_t *g, int idx);
/* look, team_names, check_ball, eye, done, compression: 1 if handled. */
int  ngw_coach_common(ngw_t *g, int idx, const coach_cmd_t *cmd);
/* Send on coach idx's socket. While one of its datagrams is handled after a record
 * went to the sim, the reply waits for the sim's acknowledgement (ngw_coach_ack). */
void ngw_coach_send(ngw_t *g, int idx, const char *msg);
/* An SHM_EV_ACK for coach ring idx up to pos: the replies waiting for it go out, and
 * once nothing waits its socket is read again. */
void ngw_coach_ack(ngw_t *g, int idx, uint32_t pos);
/* Heartbeat: a coach waiting longer than NGW_COACH_WAIT_NS gets its replies anyway. */
void ngw_coach_wait_check(ngw_t *g);

/* ---- netgw_coachzip.c: (compression N) for coaches ---- */
/* Send msg (with its NUL) to coach idx as one zlib stream at its level. */
void ngw_coach_zip_send(ngw_t *g, int idx, const char *msg);
/* Inflate one datagram of a compressing coach into out (NUL-terminated); its length,
 * or -1 if it is not a zlib stream (the reference then ignores it). */
long ngw_coach_unzip(ngw_t *g, const char *in, size_t n, char *out, size_t cap);
/* Free coach idx's deflate stream (a new session, or the gateway ending). */
void ngw_coach_zip_free(ngw_t *g, int idx);

/* ---- netgw_coachcycle.c: coach traffic per event and per cycle ---- */
/* Every event read with a snapshot (from netgw_cycle.c): replies, notices and hears
 * for the coaches and players this gateway serves. */
void ngw_coach_event(ngw_t *g, const shm_event_sh_t *ev);
/* Once per step: play-on bookkeeping and clang-version notices for coaches. */
void ngw_coach_step(ngw_t *g);
/* A coach-visual poll: see_global to every coach with its eye on. */
void ngw_coach_visual(ngw_t *g);
/* Synch mode, the (think) poll: (think) to every coach with its eye on. */
void ngw_coach_think(ngw_t *g);

#endif
