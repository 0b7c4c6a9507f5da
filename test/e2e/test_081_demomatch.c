/* test_081_demomatch.c -- a whole match in CI: two rcss-demoteam processes (eleven
 * players and an online coach each, protocol 19) play each other in synch mode with
 * short halves until time_over. A monitor on the player port follows the match (show
 * frames: time, play mode, score) and, until the referee's auto_mode exists, asks for
 * each kick-off with (dispstart) as rcssmonitor's button would. Checked: the match
 * reaches time_over, both teams report the score the server shows, no client received
 * an (error ...) or (warning ...) (the teams count them and exit 3 if any came), and
 * no process is left behind. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_proc.h"

/* 1 once the server's auto_mode is there: it then kicks off each half itself and
 * leaves after time_over (docs/protocol/referee.md §12), and the monitor only watches. */
#define MATCH_AUTO_MODE 1
#define HALF_SECONDS    60   /* 600 cycles a half; RCSS_DEMO_HALF=S overrides */
#define SEED            11   /* server::random_seed; RCSS_DEMO_SEED=N overrides */
/* play-mode numbers of the monitor protocol (docs/protocol/monitor.md §8) */
#define PM_BEFORE_KICK_OFF 1
#define PM_TIME_OVER       2

static e2e_proc_t team[2];
static char buf[65536], line[4096];

typedef struct match {
    int fd, mport;            /* our monitor socket; the server's port for it */
    int time, pm, score[2];
    int started_at;           /* time of the last (dispstart), -1 none */
    int frames_since_start;
    int half_cycles;
} match_t;

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && atoi(v) > 0 ? atoi(v) : dflt;
}

static void start_team(e2e_proc_t *p, const e2e_server_t *s, const char *name)
{
    char port[16], cport[16];
    snprintf(port, sizeof port, "%d", s->port);
    snprintf(cport, sizeof cport, "%d", s->olcoach_port);
    const char *argv[] = { "rcss-demoteam", "--port", port, "--coach-port", cport,
                           "--team", name, NULL };
    cr_assert_eq(e2e_proc_start(p, argv), 0);
}

/* one show frame: time, play mode, score; ask for a kick-off where one is due */
static int on_frame(match_t *m)
{
    char l[32], r[32];
    if (sscanf(buf, "(show %d (pm %d) (tm %31s %31s %d %d", &m->time, &m->pm, l, r,
               &m->score[0], &m->score[1]) != 6)
        return 0;
    m->frames_since_start++;
    if (!MATCH_AUTO_MODE && m->pm == PM_BEFORE_KICK_OFF &&
        (m->started_at != m->time || m->frames_since_start > 100)) {
        e2e_send(m->fd, m->mport, "(dispstart)");
        m->started_at = m->time;
        m->frames_since_start = 0;
    }
    return 1;
}

/* follow the match to time_over; 0, or -1 with a reason */
static int watch(match_t *m, const e2e_server_t *s, const char **why)
{
    m->fd = e2e_udp_open();
    m->started_at = -1;
    e2e_send(m->fd, s->port, "(dispinit version 3)");
    double end = e2e_now_ms() + 400000;
    while (e2e_now_ms() < end) {
        if (e2e_recv(m->fd, buf, sizeof buf, 5000, &m->mport) <= 0) {
            *why = "the server went silent";
            return -1;
        }
        if (!on_frame(m))
            continue;
        if (m->pm == PM_TIME_OVER)
            return 0;
        if (m->time > 2 * m->half_cycles + 50) {
            *why = "the match ran past its end";
            return -1;
        }
    }
    *why = "no time_over in time";
    return -1;
}

/* the team's last line: "rcss-demoteam NAME: time_over, score A-B, errors E, warnings W" */
static void team_result(e2e_proc_t *p, const char *name, int *ours, int *theirs)
{
    char want[64];
    snprintf(want, sizeof want, "rcss-demoteam %s: ", name);
    cr_assert(e2e_proc_expect(p, want, line, sizeof line, 30000), "%s said nothing", name);
    int e = -1, w = -1;
    cr_expect_eq(sscanf(strstr(line, ": ") + 2, "time_over, score %d-%d, errors %d, warnings %d",
                        ours, theirs, &e, &w), 4, "%s", line);
    cr_expect_eq(e, 0, "%s received errors: %s", name, line);
    cr_expect_eq(w, 0, "%s received warnings: %s", name, line);
    cr_expect_eq(e2e_proc_wait(p, 20000), 0, "%s exit status", name);
}

static int gone(pid_t pid)
{
    for (int i = 0; i < 300; i++) {
        if (kill(pid, 0) < 0 && errno == ESRCH)
            return 1;
        usleep(10000);
    }
    return 0;
}

Test(demomatch, demo_vs_demo_to_time_over, .timeout = 600)
{
    static match_t m;
    char half[64], seed[64];
    m.half_cycles = env_int("RCSS_DEMO_HALF", HALF_SECONDS) * 10;
    snprintf(half, sizeof half, "server::half_time=%d", m.half_cycles / 10);
    snprintf(seed, sizeof seed, "server::random_seed=%d", env_int("RCSS_DEMO_SEED", SEED));
    const char *args[] = { "server::synch_mode=true", half, seed, "server::synch_timeout=20000",
                           "server::nr_extra_halfs=0", "server::penalty_shoot_outs=false",
#if MATCH_AUTO_MODE
                           "server::auto_mode=true",
#endif
                           NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    pid_t gw[17];
    int ngw = e2e_netgw_pids(&s, gw, 16);
    gw[ngw++] = e2e_monitorgw_pid(&s);

    start_team(&team[0], &s, "DemoLeft");
    cr_assert(e2e_proc_expect(&team[0], ": ready, side l", line, sizeof line, 30000), "%s", line);
    start_team(&team[1], &s, "DemoRight");
    cr_assert(e2e_proc_expect(&team[1], ": ready, side r", line, sizeof line, 30000), "%s", line);

    const char *why = "";
    cr_assert_eq(watch(&m, &s, &why), 0, "%s (time %d, mode %d)", why, m.time, m.pm);
    cr_expect_eq(m.time, 2 * m.half_cycles, "time_over at %d", m.time);

    int l[2], r[2];
    team_result(&team[0], "DemoLeft", &l[0], &l[1]);
    team_result(&team[1], "DemoRight", &r[0], &r[1]);
    cr_expect(l[0] == m.score[0] && l[1] == m.score[1], "left saw %d-%d, server %d-%d",
              l[0], l[1], m.score[0], m.score[1]);
    cr_expect(r[0] == m.score[1] && r[1] == m.score[0], "right saw %d-%d, server %d-%d",
              r[0], r[1], m.score[1], m.score[0]);
    cr_log_info("demo match: %d-%d\n", m.score[0], m.score[1]);
    close(m.fd);

    cr_expect_eq(e2e_server_stop(&s), 0);
    for (int i = 0; i < ngw; i++)
        cr_expect(gw[i] <= 0 || gone(gw[i]), "gateway %d left behind", (int)gw[i]);
}
