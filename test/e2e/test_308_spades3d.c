/* test_308_spades3d.c -- agents in the SPADES framing of the 2004 ComServer, started by
 * the server from its agent list (framing=spades): three against three
 * rcss3d-spadesagent processes, which talk nothing but that framing on descriptors 3
 * and 4, create their robots and join their teams as the 2004 agent did, beam, and
 * play a 60 s half in synch mode with the automatic kick-off. The half runs to its end,
 * every robot moved and the ball did, and every agent got its sensations (with a robot
 * after its init) and left on the server's X. Then agents that send what no agent may
 * (an unknown type, a length of 4 GiB, a message cut short by the end of the pipe) are
 * closed with a clear line in the log, while a good one beside them plays on. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void write_list(char *path, size_t len, const char *body)
{
    snprintf(path, len, "/tmp/rcss3d-spades-%d", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(body, f);
    fclose(f);
}

static const char *bindir(void)
{
    return getenv("RCSS_BIN_DIR") ? getenv("RCSS_BIN_DIR") : "build/bin";
}

Test(spades3d, spades_agents_play_a_half, .timeout = 120)
{
    char path[64], body[2048], arg[128];
    const char *bin = bindir();
    body[0] = '\0';
    for (int i = 0; i < 6; i++)
        snprintf(body + strlen(body), sizeof body - strlen(body),
                 "framing=spades %s/rcss3d-spadesagent --teamname %s\n", bin, i < 3 ? "Foo" : "Bar");
    write_list(path, sizeof path, body);
    snprintf(arg, sizeof arg, "server::agent_list=%s", path);
    const char *args[] = { arg, "server::synch_mode=true", "soccer::RuleHalfTime=60",
                           "soccer::RuleHalves=1", "soccer::GameOverWait=0",
                           "server::random_seed=11", NULL };
    e2e3d_server_t s;
    cr_assert_eq(e2e3d_start(&s, args), 0);
    cr_assert_eq(e2e3d_wait_exit(&s, 60000), 0, "the server left by itself after the half");
    cr_expect(e2e3d_log_clean(&s));
    char *log = e2e3d_read_file(&s, "server.log");
    cr_assert(log);
    cr_expect(strstr(log, "started 6 agents from") && strstr(log, "(6 in the SPADES framing)"),
              "%s", log);
    /* each agent's own account, written when it got X */
    int agents = 0;
    for (const char *p = log; (p = strstr(p, "rcss3d-spadesagent ")) != NULL; p++) {
        char team[32];
        int unum;
        long sens, bodied, acts;
        if (sscanf(p, "rcss3d-spadesagent %31s %d: X after %ld sensations (%ld with a robot), %ld actions",
                   team, &unum, &sens, &bodied, &acts) != 5)
            continue;
        agents++;
        /* 60 s of game at one sensation per 0.2 s, and the time before the kick-off */
        cr_expect_geq(sens, 300, "%s %d: %ld sensations", team, unum, sens);
        cr_expect(bodied >= 295 && bodied <= sens - 3, "%s %d: %ld with a robot (init at the 4th)",
                  team, unum, bodied);
        cr_expect_geq(acts, 250, "%s %d: %ld actions", team, unum, acts);
    }
    cr_expect_eq(agents, 6, "six agents left on X: %s", log);
    cr_expect_eq(count(log, ": exit status 0"), 6, "and exited cleanly: %s", log);
    cr_expect_eq(count(log, "killed by signal"), 0);
    free(log);
    /* the game, from the monitor log: robots of both teams, each moved; the ball too */
    char *mlog = e2e3d_read_file(&s, "Logfiles/monitor.log");
    cr_assert(mlog);
    double first[2][12][2], moved[2][12], far = 0, tmax = 0;
    int seen[2][12] = { { 0 } }, playing = 0;
    memset(moved, 0, sizeof moved);
    for (char *line = strtok(mlog, "\n"); line; line = strtok(NULL, "\n")) {
        double t, x, y;
        int pm, side, unum;
        if (sscanf(line, "(Info (time %lf", &t) == 1)
            tmax = fmax(tmax, t);
        const char *p = strstr(line, "(play_mode ");
        if (p && sscanf(p, "(play_mode %d)", &pm) == 1)
            playing = pm == 3;
        if ((p = strstr(line, "(B (pos ")) && sscanf(p, "(B (pos %lf %lf", &x, &y) == 2)
            far = fmax(far, hypot(x, y));
        for (p = line; (p = strstr(p, "(P (s ")) != NULL; p++) {
            if (sscanf(p, "(P (s %d)(id %d)(pos %lf %lf", &side, &unum, &x, &y) != 4
                || side < 0 || side > 1 || unum < 1 || unum > 11)
                continue;
            if (!playing)
                continue;
            if (!seen[side][unum]) {
                seen[side][unum] = 1;
                first[side][unum][0] = x;
                first[side][unum][1] = y;
            }
            moved[side][unum] = fmax(moved[side][unum],
                                     hypot(x - first[side][unum][0], y - first[side][unum][1]));
        }
    }
    for (int side = 0; side < 2; side++) {
        for (int u = 1; u <= 3; u++) {
            cr_expect(seen[side][u], "robot %d of side %d played", u, side);
            cr_expect_gt(moved[side][u], 2.0, "robot %d of side %d moved %g m", u, side, moved[side][u]);
        }
    }
    cr_expect_gt(far, 3.0, "the ball went %g m from the centre spot", far);
    cr_expect_float_eq(tmax, 60.0, 1e-9, "the half ran to its end");
    free(mlog);
    unlink(path);
    e2e3d_cleanup(&s);
}

Test(spades3d, bad_frames_close_that_agent_only, .timeout = 60)
{
    char path[64], body[2048], arg[128];
    const char *bin = bindir();
    snprintf(body, sizeof body,
             "framing=spades %s/rcss3d-spadesagent --teamname Good\n"
             "framing=spades /bin/sh -c 'printf \"\\000\\000\\000\\006Qhello\" >&4; exec sleep 20'\n"
             "framing=spades /bin/sh -c 'printf \"\\377\\377\\377\\377I\" >&4; exec sleep 20'\n"
             "framing=spades /bin/sh -c 'printf \"\\000\\000\\000\\050A(create)\" >&4'\n"
             "framing=spades /bin/sh -c 'printf \"\\000\\000\\000\\001I\\000\\000\\000\\001DA\" >&4'\n"
             "framing=spades /bin/sh -c 'printf \"\\000\\000\\000\\011A(drive\\000)\" >&4; exec sleep 20'\n",
             bin);
    write_list(path, sizeof path, body);
    snprintf(arg, sizeof arg, "server::agent_list=%s", path);
    const char *args[] = { arg, "soccer::WaitBeforeKickOff=-1", NULL };
    e2e3d_server_t s;
    cr_assert_eq(e2e3d_start(&s, args), 0);
    int found = e2e3d_wait_file(&s, "server.log", "unknown message type 'Q'", 5000)
                && e2e3d_wait_file(&s, "server.log", "a message of 4294967295 bytes", 5000)
                && e2e3d_wait_file(&s, "server.log", "cut short: 9 of 40 bytes", 5000)
                && e2e3d_wait_file(&s, "server.log", "cut short: 1 of 4 length bytes", 5000)
                && e2e3d_wait_file(&s, "server.log", "a NUL byte", 5000);
    char *log = e2e3d_read_file(&s, "server.log");
    cr_assert(log);
    cr_expect(found, "each bad agent told: %s", log);
    cr_expect_eq(count(log, "; closing it"), 3, "three frames refused: %s", log);
    free(log);
    /* the good agent has its robot and it keeps being placed: the gateway runs on */
    int mon = e2e3d_monitor(s.monitor_port);
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    cr_expect_eq(e2e3d_recv_containing(mon, &r, "(team_left Good)", 5000, &m), 1, "the good team");
    cr_expect_eq(e2e3d_recv_containing(mon, &r, "(P (s 0)(id 1)(pos -7 ", 5000, &m), 1,
                 "the good agent's robot beamed to its place");
    close(mon);
    cr_expect_eq(e2e3d_stop(&s), 0);
    log = e2e3d_read_file(&s, "server.log");
    cr_expect(strstr(log, "rcss3d-spadesagent Good 1: X after") != NULL, "the good one got X: %s", log);
    free(log);
    unlink(path);
    e2e3d_cleanup(&s);
}
