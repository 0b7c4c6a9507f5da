/* rcss3d-spadesagent.c -- a 3D agent that talks only the SPADES framing of the 2004
 * server's ComServer (docs/protocol/3d.md §7), the way the 2004 sample agent's
 * communication layer did: started by the server from its agent list with
 * framing=spades, it reads length-prefixed messages from descriptor 3 and writes them
 * to descriptor 4, nothing else. It answers the initialisation data D with I, thinks on
 * each sensation S and ends every thought with D (a think time K too), and leaves on X.
 * Like the 2004 agent it creates its robot on its first sensation and joins its team on
 * its fourth; then it beams into its half before each kick-off and otherwise drives
 * towards the ball it sees and kicks it when it is close. On leaving it writes one line
 * to stderr: what it got (tests read it in the server's log).
 * usage (a line of server::agent_list):
 *   framing=spades rcss3d-spadesagent [--teamname NAME] [--unum N]
 * Exit status: 0 after X, 1 if the pipe closed first, 2 for a message it cannot read. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IN_FD   3
#define OUT_FD  4
#define MSG_MAX 65536

typedef struct agent {
    char     team[32];
    int      unum, beamed;
    long     sensations, bodied, actions, errors;
    long long last_time;
    char     play_mode[32];
    int      ball_ok;
    double   ball_d, ball_th;       /* degrees, team frame */
} agent_t;

static char msg[MSG_MAX + 1];

static int read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, (char *)buf + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        got += (size_t)k;
    }
    return 0;
}

/* the next message: its length, -1 closed, -2 too long */
static long next_message(void)
{
    unsigned char hdr[4];
    if (read_full(IN_FD, hdr, 4) < 0)
        return -1;
    uint32_t n = (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 | (uint32_t)hdr[2] << 8 | hdr[3];
    if (n > MSG_MAX)
        return -2;
    if (read_full(IN_FD, msg, n) < 0)
        return -1;
    msg[n] = '\0';
    return (long)n;
}

static void put(agent_t *a, const char *text)
{
    size_t n = strlen(text);
    unsigned char buf[4 + 256];
    if (n > sizeof buf - 4)
        return;
    buf[0] = (unsigned char)(n >> 24);
    buf[1] = (unsigned char)(n >> 16);
    buf[2] = (unsigned char)(n >> 8);
    buf[3] = (unsigned char)n;
    memcpy(buf + 4, text, n);
    if (write(OUT_FD, buf, n + 4) != (ssize_t)(n + 4)) {
        fprintf(stderr, "rcss3d-spadesagent %s %d: write: %s\n", a->team, a->unum, strerror(errno));
        exit(1);
    }
    a->actions += text[0] == 'A';
}

/* what the sensation says: play mode, own number, the ball */
static void perceive(agent_t *a, const char *data)
{
    const char *p;
    if ((p = strstr(data, "(playmode ")))
        sscanf(p, "(playmode %31[^)])", a->play_mode);
    if ((p = strstr(data, "(unum ")))
        sscanf(p, "(unum %d)", &a->unum);
    a->ball_ok = (p = strstr(data, "(Ball (pol ")) != NULL
                 && sscanf(p, "(Ball (pol %lf %lf", &a->ball_d, &a->ball_th) == 2;
    for (p = data; (p = strstr(p, "(error ")) != NULL; p++)
        a->errors++;
}

static void behave(agent_t *a)
{
    char out[128];
    if (strcmp(a->play_mode, "BeforeKickOff") == 0) {
        if (!a->beamed && a->unum > 0) {
            snprintf(out, sizeof out, "A(beam %d %d 0)", -4 - 3 * a->unum, (a->unum % 3 - 1) * 6);
            put(a, out);
            a->beamed = 1;
        }
        return;
    }
    a->beamed = 0;
    if (!a->ball_ok || strcmp(a->play_mode, "GameOver") == 0) {
        put(a, "A(drive 0 0 0)");
        return;
    }
    double th = a->ball_th * M_PI / 180.0, k = a->ball_d > 2.0 ? 100.0 : 40.0 + 30.0 * a->ball_d;
    snprintf(out, sizeof out, "A(drive %.1f %.1f 0)", k * cos(th), k * sin(th));
    put(a, out);
    if (a->ball_d < 0.6)
        put(a, "A(kick 10 80)");
}

/* a sensation: "S<send> <arrive> <data>" */
static int think(agent_t *a)
{
    long long send, arrive;
    int at = 0;
    if (sscanf(msg, "S%lld %lld %n", &send, &arrive, &at) != 2 || at == 0 || send < a->last_time)
        return -1;
    a->last_time = send;
    perceive(a, msg + at);
    a->bodied += strstr(msg + at, "(GameState") != NULL;
    switch (a->sensations++) {
    case 0:
        put(a, "A(create)");
        break;
    case 3: {
        char out[96];
        snprintf(out, sizeof out, "A(init (unum %d) (teamname %s))", a->unum, a->team);
        put(a, out);
        break;
    }
    default:
        if (a->sensations > 6)
            behave(a);
    }
    put(a, "D");
    return 0;
}

int main(int argc, char **argv)
{
    static agent_t a;
    snprintf(a.team, sizeof a.team, "Spades");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--teamname") && i + 1 < argc) {
            snprintf(a.team, sizeof a.team, "%s", argv[++i]);
        } else if (!strcmp(argv[i], "--unum") && i + 1 < argc) {
            a.unum = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: rcss3d-spadesagent [--teamname NAME] [--unum N] "
                            "(started by the server: reads descriptor 3, writes 4)\n");
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    int init = 0;
    for (;;) {
        long n = next_message();
        if (n < 0) {
            fprintf(stderr, "rcss3d-spadesagent %s %d: %s after %ld sensations\n", a.team, a.unum,
                    n == -1 ? "the pipe closed" : "a message too long", a.sensations);
            return n == -1 ? 1 : 2;
        }
        switch (n ? msg[0] : 0) {
        case 'D': /* the initialisation data (empty on a normal start) */
            init++;
            put(&a, "I");
            break;
        case 'S':
            if (!init || think(&a) < 0) {
                fprintf(stderr, "rcss3d-spadesagent %s %d: a sensation it cannot read: %.60s\n",
                        a.team, a.unum, msg);
                return 2;
            }
            break;
        case 'K': /* think time: done */
            put(&a, "D");
            break;
        case 'X':
            fprintf(stderr, "rcss3d-spadesagent %s %d: X after %ld sensations (%ld with a "
                    "robot), %ld actions, %ld errors told, last time %lld\n", a.team, a.unum,
                    a.sensations, a.bodied, a.actions, a.errors, a.last_time);
            return 0;
        default:
            fprintf(stderr, "rcss3d-spadesagent %s %d: unknown message '%.40s'\n", a.team, a.unum, msg);
            return 2;
        }
    }
}
