/* test_307_monlines3d.c -- a monitor and trainer that talks the 3D monitor port as the
 * manual's monitor library does: it connects and sends nothing at first, reads lines of
 * text (each S-expression ends in a newline) and sends its commands as plain lines, no
 * length before them. It watches a whole half between two teams of sample agents (synch
 * mode, a 30 s half), kicks off, and as a trainer places the ball and sets the play
 * mode, reading both back in the Info lines. A length-prefixed monitor on the same port
 * at the same time still gets its form. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "e2e.h"
#include "e2e3d.h"

/* a line reader: buffer, bytes held, and the start of the next line */
typedef struct lines {
    int    fd;
    char   buf[1 << 17];
    size_t have;
    size_t skip;   /* the line returned last, to drop on the next call */
    int    bad;    /* a zero byte seen: length-prefixed data on a line connection */
} lines_t;

/* the next line (without its newline) within ms: 1, 0 timeout, -1 closed */
static int next_line(lines_t *l, int ms, const char **line)
{
    memmove(l->buf, l->buf + l->skip, l->have - l->skip);
    l->have -= l->skip;
    l->skip = 0;
    for (int waited = 0;;) {
        char *nl = memchr(l->buf, '\n', l->have);
        if (nl) {
            *nl = '\0';
            l->bad |= strlen(l->buf) != (size_t)(nl - l->buf);
            l->skip = (size_t)(nl - l->buf) + 1;
            *line = l->buf;
            return 1;
        }
        if (waited >= ms || l->have == sizeof l->buf)
            return 0;
        struct pollfd pf = { .fd = l->fd, .events = POLLIN };
        if (poll(&pf, 1, 50) <= 0) {
            waited += 50;
            continue;
        }
        ssize_t n = read(l->fd, l->buf + l->have, sizeof l->buf - l->have);
        if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
            return -1;
        if (n > 0)
            l->have += (size_t)n;
    }
}

static int say(int fd, const char *text)
{
    size_t n = strlen(text);
    return write(fd, text, n) == (ssize_t)n ? 0 : -1;
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

static char fbuf[1 << 16];

Test(monlines3d, watch_a_half_place_the_ball_set_the_mode, .timeout = 120)
{
    e2e3d_server_t s;
    const char *args[] = { "server::synch_mode=true", "soccer::RuleHalfTime=30",
                           "soccer::RuleHalves=1", "soccer::GameOverWait=0",
                           "soccer::WaitBeforeKickOff=-1", "server::random_seed=11", NULL };
    cr_assert_eq(e2e3d_start(&s, args), 0);
    static lines_t L;
    L.fd = e2e3d_connect(s.monitor_port);
    cr_assert_geq(L.fd, 0);
    /* a length-prefixed monitor beside it */
    int fm = e2e3d_monitor(s.monitor_port);
    frame_reader_t fr;
    frame_reader_init(&fr, fbuf, sizeof fbuf);
    const char *m, *line;
    cr_expect_eq(e2e3d_recv_prefix(fm, &fr, "(Init (FieldLength 104)", 3000, &m), 1,
                 "the length-prefixed monitor gets its Init framed");
    cr_assert_eq(next_line(&L, 3000, &line), 1, "the Init arrives without asking");
    cr_expect(strncmp(line, "(Init (FieldLength 104)", 23) == 0, "%s", line);
    cr_assert_eq(next_line(&L, 3000, &line), 1);
    cr_expect(strncmp(line, "(Info (time 0)", 14) == 0 && strstr(line, "(F (id 1_l)"),
              "a complete Info next: %s", line);
    pid_t ag[6];
    for (int i = 0; i < 6; i++)
        ag[i] = e2e3d_agent(&s, i < 3 ? "LineL" : "LineR", i % 3 + 1);
    /* as a trainer, before kick-off: the ball placed, read back after the ack */
    cr_assert_eq(say(L.fd, "((ball (pos 3 -4 0.111))(getAck placed))\n"), 0);
    int acked = 0, placed = 0;
    for (int i = 0; i < 400 && !placed; i++) {
        cr_assert_eq(next_line(&L, 5000, &line), 1);
        acked |= strcmp(line, "(Info (ack placed))") == 0;
        double x, y;
        const char *b = strstr(line, "(B (pos ");
        if (acked && b && sscanf(b, "(B (pos %lf %lf", &x, &y) == 2)
            placed = fabs(x - 3) < 1e-6 && fabs(y + 4) < 1e-6;
    }
    cr_expect(acked && placed, "the ball placed and acknowledged");
    /* a command with a CR before the newline works too; a bad one is answered as a line */
    cr_assert_eq(say(L.fd, "(playMode Halftime)\r\n"), 0);
    int err = 0;
    for (int i = 0; i < 100 && !err; i++) {
        cr_assert_eq(next_line(&L, 5000, &line), 1);
        err = strcmp(line, "(error playMode bad_arguments)") == 0;
    }
    cr_expect(err, "the error as a line");
    /* watch the half: kick off when all six wait for it; once in play on, set a free
     * kick and see it in the Info */
    int pm = 0 /* BeforeKickOff: no kick-off yet */, kicks = 0, died = 0, fk_sent = 0,
        fk_seen = 0, infos = 0;
    double tmax = 0;
    while (!died && next_line(&L, 30000, &line) == 1) {
        const char *p = strstr(line, "(play_mode ");
        if (p)
            sscanf(p, "(play_mode %d)", &pm);
        double t;
        if (sscanf(line, "(Info (time %lf", &t) == 1) {
            infos++;
            tmax = fmax(tmax, t);
        }
        if (pm == 0 && strncmp(line, "(Info (time", 11) == 0 && count(line, "(P ") == 6) {
            cr_assert_eq(say(L.fd, "(kickOff)\n"), 0);
            kicks++;
            pm = -1;
        }
        if (pm == 3 && !fk_sent && tmax > 5) {
            cr_assert_eq(say(L.fd, "(playMode free_kick_left)\n"), 0);
            fk_sent = 1;
        }
        fk_seen |= fk_sent && pm == 15; /* free_kick_left */
        died = strcmp(line, "(Die)") == 0;
    }
    cr_expect(died, "(Die) as the last line");
    cr_expect(!L.bad, "no length prefix on the line connection");
    cr_expect_geq(kicks, 1);
    cr_expect(fk_seen, "the free kick set by the trainer was seen");
    cr_expect_float_eq(tmax, 30.0, 1e-9, "the whole half watched");
    cr_expect_gt(infos, 150, "%d Info lines", infos);
    close(L.fd);
    close(fm);
    cr_assert_eq(e2e3d_wait_exit(&s, 30000), 0, "the server left by itself after GameOver");
    for (int i = 0; i < 6; i++)
        waitpid(ag[i], NULL, 0);
    e2e3d_cleanup(&s);
}
