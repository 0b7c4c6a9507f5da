/* test_301_match3d.c -- a 3D half end to end: two teams of three sample agents
 * (kick-and-run) over TCP, synch mode, a monitor that kicks off with (kickOff) whenever
 * the game waits before a kick-off with all six robots on the field (the automatic
 * kick-off is off, so no robot is late). The half runs to GameOver and the server
 * leaves by itself; the monitor log shows the ball moving and the referee changing the
 * play mode, every expression one line, Init first and (Die) last. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "e2e.h"
#include "e2e3d.h"

static char rbuf[1 << 16];

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

Test(match3d, two_teams_play_a_half, .timeout = 120)
{
    e2e3d_server_t s;
    const char *args[] = { "server::synch_mode=true", "soccer::RuleHalfTime=60",
                           "soccer::RuleHalves=1", "soccer::GameOverWait=0",
                           "soccer::WaitBeforeKickOff=-1", "server::random_seed=7", NULL };
    cr_assert_eq(e2e3d_start(&s, args), 0);
    pid_t ag[6];
    for (int i = 0; i < 6; i++)
        ag[i] = e2e3d_agent(&s, i < 3 ? "Left3D" : "Right3D", i % 3 + 1);
    int mon = e2e3d_monitor(s.monitor_port);
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    cr_assert_eq(e2e3d_recv_prefix(mon, &r, "(Init ", 3000, &m), 1);
    /* read along until the end, (Die); kick off when the game waits for it */
    int died = 0, pm = -1, kicks = 0, acks = 0;
    while (!died && e2e3d_recv(mon, &r, 30000, &m) == 1) {
        const char *p = strstr(m, "(play_mode ");
        if (p)
            sscanf(p, "(play_mode %d)", &pm);
        if (strcmp(m, "(Info (ack kick_off))") == 0)
            acks++;
        if (pm == 0 && strncmp(m, "(Info (time", 11) == 0 && count(m, "(P ") == 6) {
            e2e3d_send(mon, "((kickOff)(getAck kick_off))");
            kicks++;
            pm = -1;
        }
        died = strcmp(m, "(Die)") == 0;
    }
    cr_expect(died, "the monitor got (Die)");
    cr_expect(kicks >= 1 && acks == kicks, "%d kick-offs, %d acks", kicks, acks);
    close(mon);
    cr_assert_eq(e2e3d_wait_exit(&s, 30000), 0, "the server left by itself after GameOver");
    cr_expect(e2e3d_log_clean(&s));
    for (int i = 0; i < 6; i++) {
        int st;
        cr_expect_eq(waitpid(ag[i], &st, 0), ag[i]);
        cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "agent %d left cleanly", i);
    }
    char *log = e2e3d_read_file(&s, "Logfiles/monitor.log");
    cr_assert(log);
    cr_expect(strncmp(log, "(Init (FieldLength 104)", 23) == 0);
    size_t n = strlen(log);
    cr_expect(n > 7 && strcmp(log + n - 6, "(Die)\n") == 0, "(Die) last");
    /* play modes in the order they appear; the ball's farthest distance from the spot */
    int seen[32] = { 0 }, changes = 0, last = -1;
    double far = 0, tmax = 0;
    for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
        cr_assert(line[0] == '(' && line[strlen(line) - 1] == ')', "one expression a line");
        const char *p = strstr(line, "(play_mode ");
        int pm;
        if (p && sscanf(p, "(play_mode %d)", &pm) == 1 && pm >= 0 && pm < 32) {
            changes += pm != last;
            last = pm;
            seen[pm] = 1;
        }
        double x, y, z, t;
        if ((p = strstr(line, "(B (pos ")) && sscanf(p, "(B (pos %lf %lf %lf", &x, &y, &z) == 3)
            far = fmax(far, hypot(x, y));
        if (sscanf(line, "(Info (time %lf", &t) == 1)
            tmax = fmax(tmax, t);
    }
    cr_expect(seen[0] && (seen[1] || seen[2]) && seen[3] && seen[12],
              "BeforeKickOff, a kick-off, PlayOn, GameOver");
    cr_expect_geq(changes, 4, "the referee changed the play mode %d times", changes);
    cr_expect_gt(far, 5.0, "the ball went %g m from the centre spot", far);
    cr_expect_float_eq(tmax, 60.0, 1e-9, "the half ran to its end");
    free(log);
    if (tmax == 60.0)
        e2e3d_cleanup(&s);
    else
        fprintf(stderr, "kept %s\n", s.dir);
}
