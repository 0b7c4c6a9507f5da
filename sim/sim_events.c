/* sim_events.c -- the runner's event stream: one JSON object per line (NDJSON) for what
 * a program driving the server wants to know without reading logs: start, connect and
 * disconnect, play mode, goal, penalty, card, half, reset, end. Each turn compares the
 * world and the client table with what was last reported (a few dozen comparisons), so
 * the physics and the referee need no hooks. A line goes to server::event_stream (a
 * file, an inherited descriptor, a unix or TCP socket; never blocking: a slow socket
 * reader gets up to SIM_SINK_MAX bytes kept, then lines are dropped and counted) and
 * into the region's event ring as SHM_EV_RUNNER, which monitorgw serves as server-sent
 * events on /match/events. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "sim.h"
#include "log.h"
#include "playmode.h"

/* ---- the stream ------------------------------------------------------------------- */
static int open_unix(const char *path, char *err, size_t errlen)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof a.sun_path) {
        snprintf(err, errlen, "server::event_stream: unix socket path too long");
        return -1;
    }
    memcpy(a.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        snprintf(err, errlen, "server::event_stream: connect(\"%s\") failed: %s", path,
                 strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* "HOST:PORT" or "[V6]:PORT" */
static int open_tcp(const char *spec, char *err, size_t errlen)
{
    char host[256];
    const char *colon = strrchr(spec, ':');
    size_t hl = colon ? (size_t)(colon - spec) : 0;
    if (!colon || hl == 0 || hl >= sizeof host || !colon[1]) {
        snprintf(err, errlen, "server::event_stream: tcp:HOST:PORT expected, got 'tcp:%s'", spec);
        return -1;
    }
    memcpy(host, spec, hl);
    host[hl] = '\0';
    if (host[0] == '[' && host[hl - 1] == ']') {
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = '\0';
    }
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai = NULL;
    int rc = getaddrinfo(host, colon + 1, &hints, &ai);
    if (rc != 0) {
        snprintf(err, errlen, "server::event_stream: %s: %s", spec, gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
            snprintf(err, errlen, "server::event_stream: connect to %s failed: %s", spec,
                     strerror(errno));
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    return fd;
}

int sim_events_open(sim_evsink_t *k, const char *spec, char *err, size_t errlen)
{
    memset(k, 0, sizeof *k);
    k->fd = -1;
    if (!spec || !spec[0])
        return 0;
    if (strncmp(spec, "fd:", 3) == 0) {
        char *end;
        long n = strtol(spec + 3, &end, 10);
        if (end == spec + 3 || *end || n < 0 || n > 1 << 20 || fcntl((int)n, F_GETFD) < 0) {
            snprintf(err, errlen, "server::event_stream: '%s' is not an open descriptor", spec);
            return -1;
        }
        if (n <= 2) { /* stdout carries the reference's lines; made non-blocking it would
                         lose them */
            snprintf(err, errlen, "server::event_stream: use a descriptor above 2, not '%s' "
                     "(e.g. fd:3 with 3>&1)", spec);
            return -1;
        }
        k->fd = (int)n;
        fcntl(k->fd, F_SETFD, FD_CLOEXEC); /* not for the gateways and team commands */
    } else if (strncmp(spec, "unix:", 5) == 0) {
        k->fd = open_unix(spec + 5, err, errlen);
    } else if (strncmp(spec, "tcp:", 4) == 0) {
        k->fd = open_tcp(spec + 4, err, errlen);
    } else {
        k->fd = open(spec, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (k->fd < 0)
            snprintf(err, errlen, "server::event_stream: open(\"%s\") failed: %s", spec,
                     strerror(errno));
    }
    if (k->fd < 0)
        return -1;
    struct stat st;
    k->stream = fstat(k->fd, &st) == 0 && !S_ISREG(st.st_mode);
    if (k->stream)
        fcntl(k->fd, F_SETFL, fcntl(k->fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

void sim_events_close(sim_evsink_t *k)
{
    sim_events_flush(k);
    if (k->fd > 2)
        close(k->fd);
    k->fd = -1;
    free(k->pend);
    k->pend = NULL;
    k->pend_len = k->pend_cap = 0;
}

static void sink_broken(sim_evsink_t *k, const char *why)
{
    if (!k->broken)
        log_warn("event stream: %s; no more events are written", why);
    k->broken = 1;
}

/* write what can go now; 0 all, 1 some left (would block), -1 broken */
static int sink_write(sim_evsink_t *k, const char *p, size_t n, size_t *done)
{
    *done = 0;
    while (*done < n) {
        ssize_t w = write(k->fd, p + *done, n - *done);
        if (w > 0) {
            *done += (size_t)w;
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return 1;
        } else {
            sink_broken(k, w < 0 ? strerror(errno) : "nothing written");
            return -1;
        }
    }
    return 0;
}

void sim_events_flush(sim_evsink_t *k)
{
    size_t done;
    if (k->fd < 0 || k->broken || k->pend_len == 0 || k->hold)
        return;
    if (sink_write(k, k->pend, k->pend_len, &done) < 0)
        return;
    memmove(k->pend, k->pend + done, k->pend_len - done);
    k->pend_len -= done;
}

static int sink_keep(sim_evsink_t *k, const char *p, size_t n)
{
    if (k->pend_len + n > SIM_SINK_MAX)
        return -1;
    if (k->pend_len + n > k->pend_cap) {
        size_t cap = k->pend_cap ? k->pend_cap : 4096;
        while (cap < k->pend_len + n)
            cap *= 2;
        char *np = realloc(k->pend, cap);
        if (!np)
            return -1;
        k->pend = np;
        k->pend_cap = cap;
    }
    memcpy(k->pend + k->pend_len, p, n);
    k->pend_len += n;
    return 0;
}

/* one line (with its newline) to the stream */
static void sink_line(sim_evsink_t *k, const char *line, size_t n)
{
    size_t done = 0;
    if (k->fd < 0)
        return;
    if (k->broken) {
        k->drops++;
        return;
    }
    sim_events_flush(k);
    if (k->pend_len == 0 && !k->hold && sink_write(k, line, n, &done) < 0) {
        k->drops++;
        return;
    }
    if (done < n && sink_keep(k, line + done, n - done) < 0) {
        if (done > 0) /* half a line went out: the stream cannot be parsed any more */
            sink_broken(k, "a line could not be completed");
        k->drops++;
    }
}

/* ---- events ---------------------------------------------------------------------- */
void sim_events_emit(sim_t *s, const char *name, json_t *obj)
{
    shm_region_sh_t *r = s->shm.r;
    if (!obj)
        obj = json_object();
    if (!obj)
        return;
    json_t *line = json_pack("{s:s, s:i, s:I, s:i}", "event", name, "time", s->world.time,
                             "step",
                             (json_int_t)(r ? atomic_load(&r->hdr.published) + (uint64_t)s->pub_pending
                                            : 0),
                             "episode", (int)s->world.episode);
    if (line) {
        json_object_update(line, obj);
        char *text = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER);
        if (text) {
            size_t n = strlen(text);
            if (r) /* the gateways' copy, in parts when longer than one event */
                sim_world_emit_text(&s->world, SHM_EV_RUNNER, 0, 0, 0, 0.0, text, n);
            text[n] = '\n';
            sink_line(&s->runner.sink, text, n + 1);
            free(text);
        }
        json_decref(line);
    }
    json_decref(obj);
    if (r)
        r->runner.event_drops = s->runner.sink.drops;
}

static const char *side_name(int side)
{
    return side == SHM_SIDE_LEFT ? "l" : side == SHM_SIDE_RIGHT ? "r" : "";
}

static const char *client_kind(int i)
{
    return i < SHM_MAX_PLAYERS ? "player" : i == SHM_COACH_TRAINER ? "trainer" : "coach";
}

/* side, unum, team and name of client i as the result and the events show it */
json_t *sim_events_client(const sim_t *s, int i)
{
    const shm_region_sh_t *r = s->shm.r;
    const shm_client_sh_t *e = &r->client[i];
    int side = i < SHM_TEAM_SIZE || i == SHM_COACH_LEFT ? SHM_SIDE_LEFT
             : i < SHM_MAX_PLAYERS || i == SHM_COACH_RIGHT ? SHM_SIDE_RIGHT : SHM_SIDE_NONE;
    json_t *o = json_pack("{s:s}", "client", client_kind(i));
    if (!o)
        return NULL;
    if (side != SHM_SIDE_NONE) {
        /* a team whose first player joined during this step is in the world from the
         * next turn on (sim_world_sync_teams), and in the region already: the client
         * is active after its gateway wrote the name */
        int k = side == SHM_SIDE_LEFT ? 0 : 1;
        const char *src = s->world.team[k][0] || !r->team[k].used ? s->world.team[k]
                                                                    : r->team[k].name;
        char team[SHM_TEAM_NAME_LEN];
        memcpy(team, src, sizeof team);
        team[sizeof team - 1] = '\0';
        json_object_set_new(o, "side", json_string(side_name(side)));
        json_object_set_new(o, "team", json_string(team));
    }
    if (i < SHM_MAX_PLAYERS)
        json_object_set_new(o, "unum", json_integer(i % SHM_TEAM_SIZE + 1));
    if (i >= SHM_MAX_PLAYERS && e->coach_name[0]) {
        char name[SHM_TEAM_NAME_LEN];
        memcpy(name, e->coach_name, sizeof name);
        name[sizeof name - 1] = '\0';
        json_object_set_new(o, "name", json_string(name));
    }
    return o;
}

static void diff_clients(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    sim_runner_t *u = &s->runner;
    for (int i = 0; i < SHM_MAX_CLIENTS; i++) {
        const shm_client_sh_t *e = &r->client[i];
        int active = atomic_load_explicit(&e->state, memory_order_acquire) == CLIENT_ST_ACTIVE;
        uint32_t gen = e->generation;
        if (active && (!u->active[i] || gen != u->gen[i])) {
            json_t *o = sim_events_client(s, i);
            int again = r->runner.client[i].connects > 0;
            r->runner.client[i].connects++;
            if (o) {
                json_object_set_new(o, "version", json_real(e->version));
                json_object_set_new(o, "reconnect", json_boolean(again));
            }
            sim_events_emit(s, "connect", o);
        } else if (!active && u->active[i]) {
            sim_events_emit(s, "disconnect", sim_events_client(s, i));
        }
        u->active[i] = (int8_t)active;
        u->gen[i] = gen;
    }
}

static void diff_score(sim_t *s)
{
    sim_world_t *w = &s->world;
    sim_runner_t *u = &s->runner;
    for (int k = 0; k < 2; k++) {
        const char *side = k == 0 ? "l" : "r";
        if (w->score[k] > u->score[k]) {
            json_t *o = json_pack("{s:s, s:[i,i]}", "side", side, "score", w->score[0],
                                  w->score[1]);
            int t = w->ref.touched;
            if (o && t >= 0 && t < SHM_MAX_PLAYERS) /* the last toucher, as the referee saw it */
                json_object_set_new(o, "last_touch",
                                    json_pack("{s:s, s:i}", "side",
                                              side_name(w->pl[t].sh.side), "unum", t % SHM_TEAM_SIZE + 1));
            sim_events_emit(s, "goal", o);
        }
        if (w->pen_score[k] > u->pen_score[k] || w->pen_miss[k] > u->pen_miss[k])
            sim_events_emit(s, "penalty",
                            json_pack("{s:s, s:s, s:[i,i], s:[i,i]}", "side", side, "result",
                                      w->pen_score[k] > u->pen_score[k] ? "goal" : "miss",
                                      "goals", w->pen_score[0], w->pen_score[1], "taken",
                                      w->pen_score[0] + w->pen_miss[0],
                                      w->pen_score[1] + w->pen_miss[1]));
        u->score[k] = w->score[k];
        u->pen_score[k] = w->pen_score[k];
        u->pen_miss[k] = w->pen_miss[k];
    }
}

static void diff_cards(sim_t *s)
{
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        int8_t card = s->world.pl[i].sh.card;
        if (card > s->runner.card[i])
            sim_events_emit(s, "card",
                            json_pack("{s:s, s:i, s:s}", "side",
                                      i < SHM_TEAM_SIZE ? "l" : "r", "unum",
                                      i % SHM_TEAM_SIZE + 1, "card",
                                      card == 2 ? "red" : "yellow"));
        s->runner.card[i] = card;
    }
}

void sim_events_diff(sim_t *s)
{
    sim_world_t *w = &s->world;
    sim_runner_t *u = &s->runner;
    diff_clients(s);
    if (w->ref.halves_done > u->halves)
        sim_events_emit(s, "half", json_pack("{s:i}", "halves", w->ref.halves_done));
    u->halves = w->ref.halves_done;
    diff_score(s);
    diff_cards(s);
    if (w->play_mode != u->pm)
        sim_events_emit(s, "playmode", json_pack("{s:s}", "mode", playmode_name(w->play_mode)));
    u->pm = w->play_mode;
    sim_events_flush(&u->sink);
}

void sim_events_base(sim_t *s)
{
    sim_world_t *w = &s->world;
    sim_runner_t *u = &s->runner;
    u->pm = w->play_mode;
    u->halves = w->ref.halves_done;
    for (int k = 0; k < 2; k++) {
        u->score[k] = w->score[k];
        u->pen_score[k] = w->pen_score[k];
        u->pen_miss[k] = w->pen_miss[k];
    }
    for (int i = 0; i < SHM_MAX_PLAYERS; i++)
        u->card[i] = w->pl[i].sh.card;
}
