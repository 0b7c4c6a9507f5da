/* rcss-demoteam.c -- a small but real demo team for `make run`: eleven players (the
 * first is the goalie) speaking protocol version 9 over UDP. Each cycle, on sense_body,
 * a player acts on its last see: kick towards the opponent goal when the ball is
 * kickable, else chase a near ball, else look for it. With --start it also registers
 * as a monitor and sends (dispstart) once all its players are connected.
 * It leaves when the server has been silent for 5 s.
 * usage: rcss-demoteam PORT TEAMNAME [--start] [--host ADDR] */
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define NPLAYERS 11

typedef struct demo_player {
    int    fd;
    struct sockaddr_in srv;   /* the per-player port the server answered from */
    int    side;              /* 1 left, -1 right */
    int    unum;
    int    ball_seen;
    int    ball_age;          /* cycles since the ball was last seen */
    double ball_dist, ball_dir;
    int    goal_seen;
    double goal_dir;
} demo_player_t;

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig) { (void)sig; stop_flag = 1; }

static const double formation[NPLAYERS][2] = {
    { -50, 0 }, { -35, -20 }, { -35, -7 }, { -35, 7 }, { -35, 20 },
    { -20, -15 }, { -20, 0 }, { -20, 15 }, { -5, -20 }, { -8, 0 }, { -5, 20 },
};

static int send_to(int fd, const struct sockaddr_in *a, const char *msg)
{
    return (int)sendto(fd, msg, strlen(msg) + 1, 0, (const struct sockaddr *)a, sizeof *a);
}

static int recv_from(int fd, char *buf, size_t len, int timeout_ms, struct sockaddr_in *from)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    if (poll(&p, 1, timeout_ms) <= 0)
        return 0;
    socklen_t l = sizeof *from;
    ssize_t n = recvfrom(fd, buf, len - 1, 0, (struct sockaddr *)from, &l);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    return (int)n;
}

/* Find "(NAME) D DIR" in a see message; returns 1 with dist/dir filled. */
static int see_object(const char *msg, const char *name, double *dist, double *dir)
{
    const char *p = strstr(msg, name);
    if (!p)
        return 0;
    p += strlen(name);
    return sscanf(p, " %lf %lf", dist, dir) == 2;
}

static void on_see(demo_player_t *pl, const char *msg)
{
    double d, a;
    if (see_object(msg, "((b)", &pl->ball_dist, &pl->ball_dir)) {
        pl->ball_seen = 1;
        pl->ball_age = 0;
    }
    pl->goal_seen = see_object(msg, pl->side > 0 ? "((g r)" : "((g l)", &d, &a);
    if (pl->goal_seen)
        pl->goal_dir = a;
}

/* One body command per cycle, chosen from the last see (sees come every 150 ms, body
 * commands every 100 ms, so a see is used for up to three cycles). */
static void act(demo_player_t *pl)
{
    char cmd[64];
    if (pl->ball_seen && ++pl->ball_age > 3)
        pl->ball_seen = 0;
    if (!pl->ball_seen) {
        snprintf(cmd, sizeof cmd, "(turn 40)");
    } else if (pl->ball_dist < 0.9) {
        snprintf(cmd, sizeof cmd, "(kick 70 %.0f)", pl->goal_seen ? pl->goal_dir : 0.0);
        pl->ball_seen = 0; /* the ball is gone: wait for a fresh see */
    } else if (fabs(pl->ball_dir) > 12) {
        snprintf(cmd, sizeof cmd, "(turn %.0f)", pl->ball_dir);
        pl->ball_dir = 0.0; /* now facing it (roughly: turns are slowed by speed) */
    } else if (pl->unum == 1 || pl->ball_dist > 40) {
        return; /* the goalie and far players watch the ball */
    } else {
        snprintf(cmd, sizeof cmd, "(dash %d)", pl->ball_dist > 5 ? 80 : 50);
    }
    send_to(pl->fd, &pl->srv, cmd);
}

static int connect_player(demo_player_t *pl, const struct sockaddr_in *init, const char *team,
                          int goalie)
{
    char msg[128], buf[8192];
    pl->fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (pl->fd < 0)
        return -1;
    snprintf(msg, sizeof msg, "(init %s (version 9)%s)", team, goalie ? " (goalie)" : "");
    send_to(pl->fd, init, msg);
    char side;
    if (!recv_from(pl->fd, buf, sizeof buf, 3000, &pl->srv) ||
        sscanf(buf, "(init %c %d", &side, &pl->unum) != 2) {
        fprintf(stderr, "rcss-demoteam: %s: no init reply (%s)\n", team, buf);
        return -1;
    }
    pl->side = side == 'l' ? 1 : -1;
    snprintf(msg, sizeof msg, "(move %.0f %.0f)", formation[pl->unum - 1][0],
             formation[pl->unum - 1][1]);
    send_to(pl->fd, &pl->srv, msg);
    return 0;
}

/* Register as a monitor on the player port and ask for the kick-off. */
static void start_match(const struct sockaddr_in *init)
{
    char buf[65536];
    struct sockaddr_in from;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return;
    send_to(fd, init, "(dispinit version 3)");
    if (recv_from(fd, buf, sizeof buf, 3000, &from))
        send_to(fd, &from, "(dispstart)");
    else
        fprintf(stderr, "rcss-demoteam: no monitor reply; match not started\n");
    send_to(fd, &from, "(dispbye)");
    close(fd);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PORT TEAMNAME [--start] [--host ADDR]\n", argv[0]);
        return 1;
    }
    struct sockaddr_in init = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])) };
    init.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int start = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--start") == 0)
            start = 1;
        else if (strcmp(argv[i], "--host") == 0 && i + 1 < argc)
            inet_pton(AF_INET, argv[++i], &init.sin_addr);
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);

    demo_player_t pl[NPLAYERS];
    memset(pl, 0, sizeof pl);
    for (int i = 0; i < NPLAYERS; i++) {
        if (connect_player(&pl[i], &init, argv[2], i == 0) < 0)
            return 1;
    }
    if (start)
        start_match(&init);

    struct pollfd pfd[NPLAYERS];
    for (int i = 0; i < NPLAYERS; i++)
        pfd[i] = (struct pollfd){ .fd = pl[i].fd, .events = POLLIN };
    char buf[8192];
    int silent = 0; /* seconds without a datagram: the server is gone after 5 */
    while (!stop_flag && silent < 5) {
        int n = poll(pfd, NPLAYERS, 1000);
        if (n <= 0) {
            silent += n == 0;
            continue;
        }
        silent = 0;
        for (int i = 0; i < NPLAYERS; i++) {
            if (!(pfd[i].revents & POLLIN))
                continue;
            struct sockaddr_in from;
            if (!recv_from(pl[i].fd, buf, sizeof buf, 0, &from))
                continue;
            if (strncmp(buf, "(see ", 5) == 0)
                on_see(&pl[i], buf);
            else if (strncmp(buf, "(sense_body ", 12) == 0)
                act(&pl[i]);
        }
    }
    for (int i = 0; i < NPLAYERS; i++) {
        send_to(pl[i].fd, &pl[i].srv, "(bye)");
        close(pl[i].fd);
    }
    return 0;
}
