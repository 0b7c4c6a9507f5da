/* dt_main.c -- rcss-demoteam: connects eleven players (the first as goalie) and the
 * online coach of one team, then runs them in one poll loop. Each player acts once per
 * cycle: in synch mode (the server_param says so) on (think) only, answered by (done),
 * from what the server sent it before that (think), never on a timer, so that the same
 * seed plays the same match (dt_play.c, prematch); in real time right after the
 * cycle's see (synch-see, protocol 19), or ACT_DELAY_MS after the sense_body when no
 * see comes that cycle. With --start it also asks the server for each kick-off like a
 * monitor ((dispstart), until the server's auto_mode does it). It leaves a few cycles
 * after time_over, when the server has been silent for 5 s, or on SIGINT/SIGTERM, and
 * prints one line: the score and how many errors and warnings the server sent it.
 * Exit status 0, or 3 if any error or warning came. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dt.h"

#define ACT_DELAY_MS   20
#define SILENT_MS      5000
#define LEAVE_TICKS    5    /* cycles after time_over before (bye) */
#define START_DELAY_MS 1000 /* before (dispstart): let both teams take their places */

typedef struct dt_client {
    int         fd;
    struct sockaddr_in srv;   /* the player's own port on the server */
    dt_params_t prm;          /* this player's copy of the parameters */
    dt_world_t  w;
    int         acted_tick;   /* the tick of the last action */
    double      act_at;       /* ms: act then (after a sense_body), 0 none pending */
    int         synch;        /* (think) seen: the server runs in synch mode */
    int         errors, warnings;
} dt_client_t;

typedef struct dt_team {
    const char *name, *host;
    int         port, coach_port, start, verbose;
    struct sockaddr_in init;
    dt_client_t pl[DT_PLAYERS];
    dt_coach_t  coach;
    int         over_tick;    /* tick at which time_over was heard, -1 not yet */
    int         half_start;   /* --start: the before_kick_off we last started */
    double      start_at;     /* --start: ms at which to send the next (dispstart) */
} dt_team_t;

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig) { (void)sig; stop_flag = 1; }

static int connect_player(dt_team_t *t, dt_client_t *c, int goalie)
{
    char msg[128], buf[8192];
    snprintf(msg, sizeof msg, "(init %s (version 19)%s)", t->name, goalie ? " (goalie)" : "");
    c->fd = dt_net_socket();
    if (c->fd < 0)
        return -1;
    dt_net_send(c->fd, &t->init, msg);
    char side, mode[64] = "";
    int unum;
    if (dt_net_recv(c->fd, buf, sizeof buf, 3000, &c->srv) <= 0 ||
        sscanf(buf, "(init %c %d %63[a-z_]", &side, &unum, mode) < 2 || unum < 1 ||
        unum > DT_PLAYERS) {
        fprintf(stderr, "rcss-demoteam %s: no init reply (%s)\n", t->name, buf);
        return -1;
    }
    dt_params_defaults(&c->prm);
    dt_world_init(&c->w, &c->prm, t->name, side == 'l' ? 1 : -1, unum, goalie);
    if (mode[0] && strcmp(mode, "before_kick_off") != 0)
        dt_world_on_referee(&c->w, mode); /* joined a match under way */
    c->acted_tick = -1;
    return 0;
}

static void act(dt_team_t *t, dt_client_t *c)
{
    dt_cmd_t cmd;
    c->act_at = 0;
    if (c->acted_tick == c->w.tick)
        return;
    c->acted_tick = c->w.tick;
    dt_cmd_reset(&cmd);
    dt_play_decide(&c->w, &cmd);
    if (cmd.len > 0)
        dt_net_send(c->fd, &c->srv, cmd.text);
    if (t->verbose && cmd.len > 0)
        fprintf(stderr, "%s %d t%d pm%d: at %.1f %.1f ball %.1f %.1f (%d): %s %s\n", t->name,
                c->w.unum, c->w.time, (int)c->w.pm, c->w.pos.x, c->w.pos.y, c->w.ball.pos.x,
                c->w.ball.pos.y, c->w.ball.age, cmd.why, cmd.text);
}

static void on_referee(dt_team_t *t, dt_client_t *c, const char *text)
{
    dt_world_on_referee(&c->w, text);
    if (strcmp(text, "time_over") == 0 && t->over_tick < 0)
        t->over_tick = c->w.tick;
    if (t->start && c->w.unum == 1 && c->w.pm == DT_PM_BEFORE_KICK_OFF && c->w.time > 0 &&
        t->half_start != c->w.time) {
        t->half_start = c->w.time;
        t->start_at = dt_net_now_ms() + START_DELAY_MS;
    }
}

static void on_message(dt_team_t *t, dt_client_t *c, const char *msg, size_t len)
{
    static dt_see_t see;
    dt_body_t body;
    char text[128];
    int time, unum, type;
    if (!strncmp(msg, "(sense_body ", 12) && dt_parse_sense_body(msg, len, &body) == 0) {
        dt_world_on_body(&c->w, &body);
        if (!c->synch)
            c->act_at = dt_net_now_ms() + ACT_DELAY_MS;
    } else if (!strncmp(msg, "(see ", 5) && dt_parse_see(msg, len, c->w.side, t->name, &see) == 0) {
        dt_world_on_see(&c->w, &see);
        if (c->act_at > 0 && see.time == c->w.time)
            act(t, c);
    } else if (strcmp(msg, "(think)") == 0) {
        c->synch = 1;
        act(t, c);
        dt_net_send(c->fd, &c->srv, "(done)");
    } else if (!strncmp(msg, "(hear ", 6)) {
        if (dt_parse_referee(msg, len, &time, text, sizeof text) == 0)
            on_referee(t, c, text);
    } else if (dt_parse_change_type(msg, len, &unum, &type) == 0) {
        if (unum == c->w.unum && type >= 0)
            c->w.type = type;
    } else if (!strncmp(msg, "(server_param", 13) || !strncmp(msg, "(player_param", 13) ||
               !strncmp(msg, "(player_type", 12)) {
        dt_parse_params(msg, len, &c->prm);
        if (c->prm.synch_mode > 0)
            c->synch = 1; /* act on (think) only, from the first cycle on */
    } else if (!strncmp(msg, "(error", 6) || !strncmp(msg, "(warning", 8)) {
        if (msg[1] == 'e')
            c->errors++;
        else
            c->warnings++;
        fprintf(stderr, "rcss-demoteam %s %d: got %s\n", t->name, c->w.unum, msg);
    }
}

/* Ask for the kick-off as a monitor would: (dispinit), (dispstart), (dispbye). */
static void send_dispstart(const dt_team_t *t)
{
    char buf[65536];
    struct sockaddr_in from;
    int fd = dt_net_socket();
    if (fd < 0)
        return;
    dt_net_send(fd, &t->init, "(dispinit version 3)");
    if (dt_net_recv(fd, buf, sizeof buf, 3000, &from) > 0) {
        dt_net_send(fd, &from, "(dispstart)");
        dt_net_send(fd, &from, "(dispbye)");
    } else {
        fprintf(stderr, "rcss-demoteam %s: no monitor reply; kick-off not asked\n", t->name);
    }
    close(fd);
}

static int next_timeout(const dt_team_t *t)
{
    double now = dt_net_now_ms(), next = now + 1000;
    for (int i = 0; i < DT_PLAYERS; i++) {
        if (t->pl[i].act_at > 0 && t->pl[i].act_at < next)
            next = t->pl[i].act_at;
    }
    if (t->start_at > 0 && t->start_at < next)
        next = t->start_at;
    return next <= now ? 0 : (int)(next - now) + 1;
}

static void timers(dt_team_t *t)
{
    double now = dt_net_now_ms();
    for (int i = 0; i < DT_PLAYERS; i++) {
        if (t->pl[i].act_at > 0 && now >= t->pl[i].act_at)
            act(t, &t->pl[i]);
    }
    if (t->start_at > 0 && now >= t->start_at && dt_coach_ready(&t->coach)) {
        t->start_at = 0;
        send_dispstart(t);
    }
}

static void receive(dt_team_t *t, struct pollfd *pfd)
{
    static char buf[65536];
    struct sockaddr_in from;
    for (int i = 0; i < DT_PLAYERS; i++) {
        if (pfd[i].revents & POLLIN) {
            int n = dt_net_recv(t->pl[i].fd, buf, sizeof buf, 0, &from);
            if (n > 0)
                on_message(t, &t->pl[i], buf, (size_t)n);
        }
    }
    if (t->coach.connected && (pfd[DT_PLAYERS].revents & POLLIN)) {
        int n = dt_net_recv(t->coach.fd, buf, sizeof buf, 0, &from);
        if (n > 0)
            dt_coach_on_message(&t->coach, buf, (size_t)n);
    }
}

static void run(dt_team_t *t)
{
    struct pollfd pfd[DT_PLAYERS + 1];
    for (int i = 0; i < DT_PLAYERS; i++)
        pfd[i] = (struct pollfd){ .fd = t->pl[i].fd, .events = POLLIN };
    pfd[DT_PLAYERS] = (struct pollfd){ .fd = t->coach.connected ? t->coach.fd : -1,
                                       .events = POLLIN };
    int announced = 0;
    double heard = dt_net_now_ms();
    while (!stop_flag && dt_net_now_ms() - heard < SILENT_MS) {
        if (!announced && dt_coach_ready(&t->coach)) {
            announced = 1;
            printf("rcss-demoteam %s: ready, side %c\n", t->name, t->pl[0].w.side > 0 ? 'l' : 'r');
            fflush(stdout);
        }
        int n = poll(pfd, DT_PLAYERS + 1, next_timeout(t));
        if (n < 0 && errno != EINTR)
            break;
        if (n > 0) {
            heard = dt_net_now_ms();
            receive(t, pfd);
        }
        timers(t);
        if (t->over_tick >= 0 && t->pl[0].w.tick - t->over_tick >= LEAVE_TICKS)
            break;
    }
}

static int finish(dt_team_t *t)
{
    int errors = t->coach.errors, warnings = t->coach.warnings;
    for (int i = 0; i < DT_PLAYERS; i++) {
        dt_net_send(t->pl[i].fd, &t->pl[i].srv, "(bye)");
        close(t->pl[i].fd);
        errors += t->pl[i].errors;
        warnings += t->pl[i].warnings;
    }
    if (t->coach.connected)
        close(t->coach.fd);
    const dt_world_t *w = &t->pl[0].w;
    printf("rcss-demoteam %s: %s, score %d-%d, errors %d, warnings %d\n", t->name,
           t->over_tick >= 0 ? "time_over" : "stopped", w->score_ours, w->score_theirs,
           errors, warnings);
    fflush(stdout);
    return errors + warnings > 0 ? 3 : 0;
}

static int parse_args(int argc, char **argv, dt_team_t *t)
{
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--start")) t->start = 1;
        else if (!strcmp(a, "--verbose")) t->verbose = 1;
        else if (!strcmp(a, "--no-coach")) t->coach_port = -1;
        else if (!strcmp(a, "--host") && v) t->host = argv[++i];
        else if (!strcmp(a, "--port") && v) t->port = atoi(argv[++i]);
        else if (!strcmp(a, "--coach-port") && v) t->coach_port = atoi(argv[++i]);
        else if (!strcmp(a, "--team") && v) t->name = argv[++i];
        else if (a[0] != '-' && pos == 0 && ++pos) t->port = atoi(a);
        else if (a[0] != '-' && pos == 1 && ++pos) t->name = a;
        else return -1;
    }
    if (t->port <= 0 || t->port > 65535 || !t->name[0] || strlen(t->name) > 15)
        return -1;
    if (t->coach_port == 0)
        t->coach_port = t->port + 2;
    return 0;
}

int main(int argc, char **argv)
{
    static dt_team_t t = { .name = "Demo", .host = "127.0.0.1", .port = 6000,
                           .over_tick = -1 };
    if (parse_args(argc, argv, &t) < 0) {
        fprintf(stderr, "usage: rcss-demoteam [PORT [TEAM]] [--host H] [--port P] [--team NAME]\n"
                        "                     [--coach-port P | --no-coach] [--start] [--verbose]\n");
        return 1;
    }
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (dt_net_addr(t.host, t.port, &t.init) < 0) {
        fprintf(stderr, "rcss-demoteam: cannot resolve %s\n", t.host);
        return 1;
    }
    for (int i = 0; i < DT_PLAYERS; i++) {
        if (connect_player(&t, &t.pl[i], i == 0) < 0)
            return 1;
    }
    struct sockaddr_in cp;
    t.coach.connected = 0;
    if (t.coach_port > 0 && dt_net_addr(t.host, t.coach_port, &cp) == 0)
        dt_coach_connect(&t.coach, &cp, t.name);
    if (t.start)
        t.start_at = dt_net_now_ms() + START_DELAY_MS;
    run(&t);
    return finish(&t);
}
