/* netgw_port.c -- datagrams on the shared listening ports. Player port: (init ...) and
 * (reconnect ...) take a client-table slot under the table lock and move the client to
 * its own socket; (dispinit ...) is handed to monitorgw through this gateway's monreq
 * ring (monitorgw answers from its own socket); anything else gets the reference's error
 * reply. The trainer and online-coach ports are served by netgw_trainer.c and
 * netgw_olcoach.c. */
#include "dispinit.h"
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include "log.h"
#include "net.h"
#include "netgw.h"
#include "netgw_coachgw.h"
#include "netgw_conn.h"
#include "netgw_playergw.h"
#include "netgw_proto.h"
#include "playmode.h"

#define E_NO_MORE   "(error no_more_player_or_goalie_or_illegal_client_version)"
#define E_NO_TEAM   "(error no_more_team)"
#define E_CONFLICT  "(error conflict_with_fixed_teamname)"
#define E_FAILED    "(error connection_failed)"
#define E_NO_SUCH   "(error no_such_team_or_player)"
#define E_PLAYON    "(error cannot_reconnect_while_playon)"
#define E_RED       "(error red_carded_player)"
#define E_UNKNOWN   "(error unknown_command)"
#define E_INIT_PORT "(error only_init_allowed_on_init_port)"
#define E_RECONNECT "(error reconnect_only_from_the_players_address_or_with_its_token)"

_Static_assert(PROTO_TOKEN_LEN == sizeof ((shm_client_sh_t *)0)->reconnect_token,
               "token sizes differ");

static size_t port_skip_blank(const char *t, size_t len)
{
    size_t i = 0;
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

static int port_starts(const char *t, size_t len, const char *word)
{
    size_t n = strlen(word);
    return len >= n && memcmp(t, word, n) == 0;
}

/* ---- team side --------------------------------------------------------------------- */
/* The reference's choice (docs/protocol/player.md §2): a name equal to
 * server::fixed_teamname_l/r is refused; the left team is named by the first init, the
 * right by the first init with another name; a third name is refused. 0 left, 1 right, -1
 * with *err. Table lock held. */
static int port_team_side(ngw_t *g, const char *team, const char **err)
{
    shm_team_sh_t *t = g->r->team;
    if (strcmp(conf_str(&g->conf, SP_fixed_teamname_l), team) == 0
        || strcmp(conf_str(&g->conf, SP_fixed_teamname_r), team) == 0) {
        *err = E_CONFLICT;
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        if (!t[k].used) {
            memset(t[k].name, 0, sizeof t[k].name);
            memcpy(t[k].name, team, strnlen(team, SHM_TEAM_NAME_LEN - 1));
            t[k].used = 1;
            return k;
        }
        if (strcmp(t[k].name, team) == 0)
            return k;
    }
    *err = E_NO_TEAM;
    return -1;
}

/* A slot ever taken keeps its number (the reference counts connections: unum = 1 +
 * players that ever joined the team). */
static int port_slot_taken(const shm_client_sh_t *e)
{
    return e->kind == CLIENT_KIND_PLAYER && e->generation != 0;
}

/* a goalie among the players that ever joined team k (one who left still counts) */
static int port_team_has_goalie(const shm_region_sh_t *r, int k)
{
    for (int u = 0; u < SHM_TEAM_SIZE; u++) {
        const shm_client_sh_t *e = &r->client[k * SHM_TEAM_SIZE + u];
        if (port_slot_taken(e) && e->goalie)
            return 1;
    }
    return 0;
}

/* the next number of team k: 1 + the players that joined it with (init), as the
 * reference counts them; -1 once 11 have. A reconnect to a number nobody had does not
 * count: the init that reaches that number takes it over (see port_take_slot). */
static int port_next_slot(const shm_region_sh_t *r, int k)
{
    int n = r->team[k].joined;
    return n >= 0 && n < SHM_TEAM_SIZE ? k * SHM_TEAM_SIZE + n : -1;
}

static const char *port_playmode(ngw_t *g)
{
    ngw_snap_refresh(g);
    const char *n = playmode_name(g->snap.play_mode);
    return n[0] ? n : "before_kick_off";
}

/* A player just became ACTIVE: the sim puts him on the field at once (the live world),
 * so the others' next sees show him, as with the reference, which does it on receipt;
 * in synch mode a sim pacing an idle cycle (nobody to wait for) also steps at once, so
 * the player's first (think) comes the cycle after its init, as with the reference,
 * whose next step follows the init (a trainer that connects with it and starts the
 * match then finds it thinking) */
static void port_wake_synch(ngw_t *g)
{
    ngw_players_changed(g);
}

/* a fresh player entry at idx for a client at from; its socket opened and the entry
 * ACTIVE, or -1 (entry left FREE). Table lock held. */
static int port_fill_entry(ngw_t *g, int idx, double version, int goalie, int synch_see,
                           const struct sockaddr_storage *from)
{
    shm_region_sh_t *r = g->r;
    shm_client_sh_t *e = &r->client[idx];
    ngw_conn_entry_fresh(g, idx, CLIENT_KIND_PLAYER, version,
                         idx < SHM_TEAM_SIZE ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT, from);
    e->unum = idx % SHM_TEAM_SIZE + 1;
    e->goalie = goalie;
    e->view_width = SHM_VIEW_NORMAL;
    e->view_high = 1;
    e->ear_on[0] = e->ear_on[1] = 1;       /* complete hearing on, partial off */
    e->synch_see = synch_see;
    if (conf_bool(&g->conf, SP_reconnect_token)
        && getrandom(e->reconnect_token, sizeof e->reconnect_token, 0)
           != (ssize_t)sizeof e->reconnect_token)
        memset(e->reconnect_token, 0, sizeof e->reconnect_token); /* no token: address only */
    if (ngw_conn_attach(g, idx, 0) < 0)
        return -1;
    ngw_audio_reset(g, idx);
    e->local_port = (uint16_t)net_udp_local_port(g->cl[idx].fd);
    atomic_store_explicit(&e->state, CLIENT_ST_ACTIVE, memory_order_release);
    port_wake_synch(g);
    return 0;
}

/* ---- (init TEAM ...) ------------------------------------------------------------ */
/* Take a slot; returns the client index or -1 with *err. Table lock held. */
static int port_take_slot(ngw_t *g, const proto_init_t *pi, const struct sockaddr_storage *from,
                          const char **err)
{
    shm_region_sh_t *r = g->r;
    int k = port_team_side(g, pi->team, err);
    if (k < 0)
        return -1;
    /* team full, second goalie, or a protocol that does not exist: one reply, and
     * (as the reference) the team keeps the name it was just given */
    int idx = port_next_slot(r, k);
    if (idx < 0 || (pi->goalie && port_team_has_goalie(r, k)) || !proto_version_ok(pi->version)) {
        *err = E_NO_MORE;
        return -1;
    }
    /* the number may be held by a client that reconnected to it before anybody joined
     * with it: the reference initialises that player for the new client, whose address
     * replaces the old one; here the entry is filled anew (new generation), so the old
     * client's gateway lets it go and the sim starts the player afresh */
    if (g->cl[idx].used)
        ngw_conn_detach(g, idx, 0);
    if (atomic_load(&r->client[idx].state) != CLIENT_ST_FREE) /* the sim waits meanwhile */
        atomic_store(&r->client[idx].state, CLIENT_ST_CLOSING);
    /* v18+: switched to synchronous see at once (docs/protocol/player.md §2) */
    if (port_fill_entry(g, idx, pi->version, pi->goalie, pi->version >= 18.0, from) < 0) {
        atomic_store(&r->client[idx].state, CLIENT_ST_FREE);
        *err = E_FAILED;
        return -1;
    }
    r->team[k].joined++;
    return idx;
}

/* ---- (reconnect TEAM UNUM) -------------------------------------------------------- */
/* the player slot of team name / unum among named teams, -1 if none */
static int port_find_player(const shm_region_sh_t *r, const proto_init_t *pi)
{
    if (pi->team_too_long || pi->unum < 1 || pi->unum > SHM_TEAM_SIZE)
        return -1;
    for (int s = 0; s < 2; s++) {
        if (r->team[s].used && strcmp(r->team[s].name, pi->team) == 0)
            return s * SHM_TEAM_SIZE + pi->unum - 1;
    }
    return -1;
}

/* 1 if the two addresses are the same host (the port may differ: a restarted client) */
static int port_same_host(const struct sockaddr_storage *from, const shm_client_sh_t *e)
{
    uint8_t addr[16];
    int32_t family;
    uint16_t port;
    net_addr_pack(from, addr, &family, &port);
    return family == e->family && memcmp(addr, e->addr, sizeof addr) == 0;
}

/* the token matches (compared in constant time) and the player has one */
static int port_token_ok(const shm_client_sh_t *e, const proto_init_t *pi)
{
    uint8_t diff = 0, any = 0;
    for (size_t i = 0; i < sizeof e->reconnect_token; i++) {
        diff |= (uint8_t)(e->reconnect_token[i] ^ pi->token[i]);
        any |= e->reconnect_token[i];
    }
    return pi->has_token && any != 0 && diff == 0;
}

/* Who may take a player over (issue 12): by default only a client on the player's own
 * host, or one that shows the player's token (server::reconnect_token); anyone, as the
 * reference, with server::reconnect_any_address. A number nobody took is free for all. */
static int port_reconnect_allowed(ngw_t *g, const shm_client_sh_t *e, const proto_init_t *pi,
                                  const struct sockaddr_storage *from)
{
    if (conf_bool(&g->conf, SP_reconnect_any_address) || !port_slot_taken(e))
        return 1;
    if (port_same_host(from, e))
        return 1;
    return conf_bool(&g->conf, SP_reconnect_token) && port_token_ok(e, pi);
}

/* Take the player over for a client at from: the old socket (if connected) is dropped
 * by its owner when it sees the entry change. A number that never joined becomes a
 * version-3 player, as in the reference. Table lock held. */
static int port_reconnect_slot(ngw_t *g, const proto_init_t *pi,
                               const struct sockaddr_storage *from, const char **err)
{
    shm_region_sh_t *r = g->r;
    int idx = port_find_player(r, pi);
    if (idx < 0) {
        *err = E_NO_SUCH;
        return -1;
    }
    ngw_snap_refresh(g);
    if (g->snap.player[idx].card == 2) {
        *err = E_RED;
        return -1;
    }
    shm_client_sh_t *e = &r->client[idx];
    uint32_t st = atomic_load(&e->state);
    if (st == CLIENT_ST_CLOSING) {   /* being taken over right now */
        *err = E_FAILED;
        return -1;
    }
    if (!port_reconnect_allowed(g, e, pi, from)) {
        log_debug("refused (reconnect %s %d) from another host", pi->team, pi->unum);
        *err = E_RECONNECT;
        return -1;
    }
    if (!port_slot_taken(e) && st == CLIENT_ST_FREE) {
        if (port_fill_entry(g, idx, 3.0, 0, 0, from) < 0) {
            *err = E_FAILED;
            return -1;
        }
        return idx;
    }
    if (g->cl[idx].used)
        ngw_conn_detach(g, idx, 0);
    if (st == CLIENT_ST_ACTIVE)  /* the old owner lets go when it sees owner_gw change */
        atomic_store(&e->state, CLIENT_ST_CLOSING);
    else
        e->generation++;         /* left with (bye): the sim enables the player again */
    e->owner_gw = g->index;
    ngw_addr_to_entry(from, e);
    e->last_recv_ns = shm_now_ns();
    atomic_store(&e->done_step, atomic_load(&r->hdr.published));
    if (ngw_conn_attach(g, idx, 0) < 0) {
        atomic_store(&e->state, CLIENT_ST_FREE);
        *err = E_FAILED;
        return -1;
    }
    ngw_audio_reset(g, idx);
    e->local_port = (uint16_t)net_udp_local_port(g->cl[idx].fd);
    g->cl[idx].generation = e->generation;
    atomic_store_explicit(&e->state, CLIENT_ST_ACTIVE, memory_order_release);
    port_wake_synch(g);
    return idx;
}

/* (init ...) or (reconnect ...): a slot under the table lock, then the reply from the
 * client's own socket, its parameters and, for a v18+ init, the synch-see switch */
static int port_join(ngw_t *g, ngw_port_t *p, const proto_init_t *pi,
                     const struct sockaddr_storage *from)
{
    const char *err = NULL;
    if (shm_table_lock(g->r) < 0) {
        ngw_udp_sendto(p->fd, from, E_FAILED);
        return -1;
    }
    int idx = pi->reconnect ? port_reconnect_slot(g, pi, from, &err)
                            : port_take_slot(g, pi, from, &err);
    shm_table_unlock(g->r);
    if (idx < 0) {
        ngw_udp_sendto(p->fd, from, err ? err : E_FAILED);
        return -1;
    }
    shm_client_sh_t *e = &g->r->client[idx];
    char side = e->side == SHM_SIDE_LEFT ? 'l' : 'r';
    char msg[128], tok[2 * PROTO_TOKEN_LEN + 16] = "";
    if (!pi->reconnect && conf_bool(&g->conf, SP_reconnect_token))
        proto_token_format(e->reconnect_token, tok, sizeof tok);
    if (pi->reconnect)
        snprintf(msg, sizeof msg, "(reconnect %c %s)", side, port_playmode(g));
    else /* with server::reconnect_token: (init l 1 before_kick_off (token HEX)) */
        snprintf(msg, sizeof msg, "(init %c %d %s%s)", side, e->unum, port_playmode(g), tok);
    ngw_udp_send(g->cl[idx].fd, msg);
    ngw_params_send(g, idx);
    if (!pi->reconnect && e->synch_see)
        ngw_udp_send(g->cl[idx].fd, "(ok synch_see)");
    const char *team = g->r->team[idx / SHM_TEAM_SIZE].name;
    if (pi->reconnect)
        log_stdout("A player (%s %d) reconnected.", team, e->unum);
    else
        log_stdout("A new (v%d) player (%s %d) connected.", (int)e->version, team, e->unum);
    log_debug("%s %d on port %d", team, e->unum, e->local_port);
    return idx;
}

/* ---- other datagrams -------------------------------------------------------------- */
/* the registered monitor at this address, -1 if none; *count = monitors served. Only
 * the part of the table monitorgw has used is scanned (montab.hwm). */
static int port_monitor_at(const ngw_t *g, const struct sockaddr_storage *from, int *count)
{
    uint8_t addr[16];
    int32_t family;
    uint16_t port;
    net_addr_pack(from, addr, &family, &port);
    uint32_t hwm = atomic_load(&g->r->montab.hwm);
    if (hwm > SHM_MAX_MONITORS)
        hwm = SHM_MAX_MONITORS;
    if (count)
        *count = (int)atomic_load(&g->r->montab.count);
    for (uint32_t i = 0; i < hwm; i++) {
        const shm_monitor_sh_t *m = &g->r->monitor[i];
        if (atomic_load(&m->state) == CLIENT_ST_ACTIVE && m->family == family
            && m->port == port && memcmp(m->addr, addr, 16) == 0)
            return (int)i;
    }
    return -1;
}

/* Push a hand-over record and wake monitorgw (its cycle semaphore: a post without a
 * new snapshot only makes it drain the rings). A full ring means monitorgw is behind a
 * burst: wait for it, up to PORT_MONREQ_WAIT_MS, rather than refuse the monitor (the
 * player port's kernel buffer holds what arrives meanwhile). -1 only if it never drains. */
#define PORT_MONREQ_WAIT_MS 200
static int port_monreq_push(ngw_t *g, const shm_monreq_sh_t *m)
{
    shm_proc_sh_t *mgw = &g->r->monitorgw;
    for (int waited = 0; shm_monreq_push(&g->self->monreq, m) < 0; waited++) {
        if (waited >= PORT_MONREQ_WAIT_MS * 10 || atomic_load(&mgw->pid) <= 0)
            return -1;
        shm_wake_send(&g->wake, SHM_WAKE_MGW);
        struct timespec ts = { 0, 100000 }; /* 0.1 ms */
        nanosleep(&ts, NULL);
    }
    shm_wake_send(&g->wake, SHM_WAKE_MGW);
    return 0;
}

/* A monitor init: refused here, from the player port, as the reference does; otherwise
 * handed to monitorgw, which answers from the monitor's own socket. */
static void port_dispinit(ngw_t *g, ngw_port_t *p, const char *text, size_t len,
                          const struct sockaddr_storage *from)
{
    int version;
    if (dispinit_parse(text, len, &version) < 0) {
        ngw_udp_sendto(p->fd, from, "(error illegal_command_form)");
        return;
    }
    if (!dispinit_version_served(version)) {
        ngw_udp_sendto(p->fd, from, "(error illegal_client_version)");
        return;
    }
    int max = conf_int(&g->conf, SP_max_monitors), nmon;
    int again = port_monitor_at(g, from, &nmon) >= 0; /* a re-init takes no new place */
    /* full: refused here, from the player port as the reference does, unless monitorgw
     * may replace a monitor silent for longer than server::monitor_idle_timeout */
    int64_t tmo = (int64_t)conf_int(&g->conf, SP_monitor_idle_timeout) * 1000000000LL;
    int64_t oldest = atomic_load(&g->r->montab.oldest_recv_ns);
    int replaceable = tmo > 0 && oldest > 0 && shm_now_ns() - oldest > tmo;
    if (max >= 0 && !again && nmon >= max && !replaceable) {
        ngw_udp_sendto(p->fd, from, "(error no_more_monitor)");
        return;
    }
    shm_monreq_sh_t m;
    memset(&m, 0, sizeof m);
    shm_client_sh_t tmp;
    ngw_addr_to_entry(from, &tmp);
    memcpy(m.addr, tmp.addr, sizeof m.addr);
    m.family = tmp.family;
    m.port = tmp.port;
    size_t n = len < sizeof m.text - 1 ? len : sizeof m.text - 1;
    memcpy(m.text, text, n);
    if (port_monreq_push(g, &m) < 0)
        ngw_udp_sendto(p->fd, from, E_FAILED);
}

/* A protocol-1 monitor may keep sending its commands to the player port
 * (docs/protocol/monitor.md §1): they travel to monitorgw like a dispinit. 0 if handed over. */
static int port_v1_monitor_cmd(ngw_t *g, const char *text, size_t len,
                               const struct sockaddr_storage *from)
{
    int i = port_monitor_at(g, from, NULL);
    if (i < 0 || g->r->monitor[i].version != 1 || len >= sizeof ((shm_monreq_sh_t *)0)->text)
        return -1;
    shm_monreq_sh_t m;
    memset(&m, 0, sizeof m);
    net_addr_pack(from, m.addr, &m.family, &m.port);
    memcpy(m.text, text, len);
    return port_monreq_push(g, &m);
}

/* the connected player at this address (any gateway's), -1 if none */
static int port_player_at(const ngw_t *g, const struct sockaddr_storage *from)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_client_sh_t *e = &g->r->client[i];
        if (atomic_load(&e->state) == CLIENT_ST_ACTIVE && ngw_addr_equal_entry(from, e))
            return i;
    }
    return -1;
}

/* A datagram from a connected player's address on the init port (even an init): v8+
 * must use its own port; an older client's commands are taken here too, as the
 * reference does (by the gateway that serves it; the kernel sends a client's datagrams
 * to the gateway that got its init unless the gateways changed meanwhile). */
static void port_from_player(ngw_t *g, ngw_port_t *p, int idx, char *text, size_t len,
                             const struct sockaddr_storage *from)
{
    if (g->r->client[idx].version >= 8.0) {
        /* from the player's own socket, as the reference answers (its other gateway's
         * socket is out of reach: then from the init port) */
        if (g->cl[idx].used && g->r->client[idx].owner_gw == g->index)
            ngw_udp_send(g->cl[idx].fd, E_INIT_PORT);
        else
            ngw_udp_sendto(p->fd, from, E_INIT_PORT);
        return;
    }
    if (g->cl[idx].used && g->r->client[idx].owner_gw == g->index)
        ngw_client_command(g, idx, text, len);
}

/* (reconnect ...): refused in play_on before anything else, as the reference; a missing
 * number is answered twice (the form error, then the failed lookup) */
static int port_reconnect(ngw_t *g, ngw_port_t *p, const proto_init_t *pi,
                          const struct sockaddr_storage *from)
{
    ngw_snap_refresh(g);
    if (g->have_snap && g->snap.play_mode == PM_PLAY_ON) {
        ngw_udp_sendto(p->fd, from, E_PLAYON);
        return -1;
    }
    if (pi->form_error) {
        ngw_udp_sendto(p->fd, from, "(error illegal_command_form)");
        ngw_udp_sendto(p->fd, from, E_NO_SUCH);
        return -1;
    }
    return port_join(g, p, pi, from);
}

void ngw_port_datagram(ngw_t *g, ngw_port_t *p, char *text, size_t len,
                       const struct sockaddr_storage *from)
{
    /* blanks before the command: the reference's trainer port reads it with a scanf
     * pattern that skips them; its online-coach and player ports compare "(init" and
     * "(reconnect " from the first byte, so there " (init ..." is refused */
    if (p->kind == CLIENT_KIND_TRAINER) {
        size_t off = port_skip_blank(text, len);
        ngw_trainer_port(g, p, text + off, len - off, from);
        return;
    }
    if (p->kind == CLIENT_KIND_OLCOACH) {
        ngw_olcoach_port(g, p, text, len, from);
        return;
    }
    int idx = port_player_at(g, from);
    if (idx >= 0) {
        port_from_player(g, p, idx, text, len, from);
        return;
    }
    size_t off = port_skip_blank(text, len);
    const char *t = text + off;
    size_t n = len - off;
    if (port_starts(t, n, "(dispinit")) {
        port_dispinit(g, p, t, n, from);
        return;
    }
    if (port_v1_monitor_cmd(g, t, n, from) == 0)
        return;
    if (port_monitor_at(g, from, NULL) >= 0) { /* v2+ monitors must use their own port */
        ngw_udp_sendto(p->fd, from, E_INIT_PORT);
        return;
    }
    proto_init_t pi;
    char err[PROTO_REPLY_LEN];
    if (proto_parse_init(text, len, &pi, err, sizeof err) < 0) {
        ngw_udp_sendto(p->fd, from, err);
        return;
    }
    idx = pi.reconnect ? port_reconnect(g, p, &pi, from) : port_join(g, p, &pi, from);
    if (idx >= 0) /* the text log has the init line too, as the reference's */
        ngw_client_log(g, idx, text, strnlen(text, len));
}
