/* test_300_agents3d.c -- 3D agents end to end over TCP: create and init, the first
 * perception with the game variables, beam before kick-off seen in the next vision,
 * errors for bad effectors, broken messages, a full server, and a robot that leaves
 * with its connection. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "e2e.h"
#include "e2e3d.h"

static char rbuf[1 << 16];

/* the distance in "(NAME ... (pol D" of a message, -1 if absent */
static double pol_dist(const char *msg, const char *name)
{
    const char *p = strstr(msg, name);
    double d;
    if (!p || !(p = strstr(p, "(pol ")) || sscanf(p, "(pol %lf", &d) != 1)
        return -1;
    return d;
}

Test(agents3d, create_init_perceive_beam_errors, .timeout = 40)
{
    e2e3d_server_t s;
    const char *args[] = { "soccer::WaitBeforeKickOff=-1", NULL };
    cr_assert_eq(e2e3d_start(&s, args), 0);
    int fd = e2e3d_connect(s.agent_port);
    cr_assert_geq(fd, 0);
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    e2e3d_send(fd, "(create)");
    e2e3d_send(fd, "(init (unum 7) (teamname RoboLog))");
    cr_assert_eq(e2e3d_recv_prefix(fd, &r, "(GameState ", 3000, &m), 1);
    static const char first[] = "(GameState (unum 7) (team left) (FieldLength 104)";
    cr_expect(strncmp(m, first, sizeof first - 1) == 0, "%s", m);
    cr_expect(strstr(m, " (RuleHalfTime 300) (time 0) (playmode BeforeKickOff)) (AgentState")
              != NULL, "%s", m);
    cr_expect(strstr(m, "(AgentState (battery 100) (temp 23))") != NULL, "%s", m);
    cr_expect(strstr(m, "(Vision (Flag (id 1_l) (pol ") != NULL);
    cr_expect(strstr(m, "(Goal (id 2_r) (pol ") != NULL);
    cr_expect(strstr(m, "(Ball (pol ") != NULL);
    /* perceptions every SenseInterval steps; later GameStates are short */
    cr_assert_eq(e2e3d_recv_prefix(fd, &r, "(GameState ", 3000, &m), 1);
    static const char later[] = "(GameState (time 0) (playmode BeforeKickOff)) (AgentState";
    cr_expect(strncmp(m, later, sizeof later - 1) == 0, "%s", m);
    /* beam 10 m behind the centre spot: the ball is then 10 m away (noise sigma 0.1) */
    e2e3d_send(fd, "(beam -10 0 0)");
    double d = -1;
    for (int i = 0; i < 5 && !(d > 9.5 && d < 10.5); i++) {
        cr_assert_eq(e2e3d_recv_prefix(fd, &r, "(GameState ", 3000, &m), 1);
        d = pol_dist(m, "(Ball ");
    }
    cr_expect(d > 9.5 && d < 10.5, "ball at %g m after the beam", d);
    e2e3d_send(fd, "(dance 1 2)");
    cr_expect_eq(e2e3d_recv_prefix(fd, &r, "(error ", 3000, &m), 1);
    cr_expect_str_eq(m, "(error dance unknown_effector)");
    e2e3d_send(fd, "(init (unum 8) (teamname RoboLog))");
    cr_expect_eq(e2e3d_recv_prefix(fd, &r, "(error ", 3000, &m), 1);
    cr_expect_str_eq(m, "(error init already_initialised)");
    e2e3d_send(fd, "(drive 1 2");
    cr_expect_eq(e2e3d_recv_prefix(fd, &r, "(error ", 3000, &m), 1);
    cr_expect_str_eq(m, "(error parse illegal_sexp)");
    /* a second agent that never creates: its effectors do not work, it is told */
    int fd2 = e2e3d_connect(s.agent_port);
    frame_reader_t r2;
    static char rbuf2[4096];
    frame_reader_init(&r2, rbuf2, sizeof rbuf2);
    e2e3d_send(fd2, "(init (unum 1) (teamname Other))");
    cr_expect_eq(e2e3d_recv_prefix(fd2, &r2, "(error ", 3000, &m), 1);
    cr_expect_str_eq(m, "(error init create_first)");
    /* garbage length: refused and closed, the server goes on */
    const unsigned char huge[] = { 0x7f, 0xff, 0xff, 0xff };
    cr_assert_eq(write(fd2, huge, 4), 4);
    int rc;
    while ((rc = e2e3d_recv(fd2, &r2, 3000, &m)) == 1)
        ;
    cr_expect(rc < 0, "closed");
    close(fd2);
    cr_expect_eq(e2e3d_recv_prefix(fd, &r, "(GameState ", 3000, &m), 1, "the first agent goes on");
    close(fd);
    cr_expect_eq(e2e3d_stop(&s), 0);
    e2e3d_cleanup(&s);
}

/* 22 agents fill the agent table; the 23rd is told at its (init) and closed; a robot
 * whose connection closed leaves the field (monitors see one robot fewer) */
Test(agents3d, full_server_and_leaving, .timeout = 40)
{
    e2e3d_server_t s;
    const char *args[] = { "soccer::WaitBeforeKickOff=-1", NULL };
    cr_assert_eq(e2e3d_start(&s, args), 0);
    int fd[23];
    for (int i = 0; i < 22; i++) {
        char init[96];
        fd[i] = e2e3d_connect(s.agent_port);
        cr_assert_geq(fd[i], 0);
        snprintf(init, sizeof init, "(create)(init (unum %d) (teamname %s))", i % 11 + 1,
                 i < 11 ? "A" : "B");
        e2e3d_send(fd[i], init);
    }
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    int mon = e2e3d_monitor(s.monitor_port);
    cr_assert_eq(e2e3d_recv_containing(mon, &r, "(P (s 1)(id 11)", 5000, &m), 1, "all 22 on the field");
    fd[22] = e2e3d_connect(s.agent_port);
    frame_reader_t r22;
    static char rbuf22[4096];
    frame_reader_init(&r22, rbuf22, sizeof rbuf22);
    e2e3d_send(fd[22], "(create)");
    cr_expect_eq(e2e3d_recv(fd[22], &r22, 500, &m), 0, "no slot is taken before the init");
    e2e3d_send(fd[22], "(init (teamname A))");
    cr_expect_eq(e2e3d_recv(fd[22], &r22, 3000, &m), 1);
    cr_expect_str_eq(m, "(error server_full)");
    cr_expect_lt(e2e3d_recv(fd[22], &r22, 3000, &m), 0, "then closed");
    close(fd[22]);
    close(fd[5]); /* A 6 leaves */
    int gone = 0;
    for (int i = 0; i < 40 && !gone; i++) {
        cr_assert_eq(e2e3d_recv_prefix(mon, &r, "(Info ", 3000, &m), 1);
        gone = strstr(m, "(P (s 0)(id 6)") == NULL && strstr(m, "(P (s 0)(id 7)") != NULL;
    }
    cr_expect(gone, "A 6 left the field");
    for (int i = 0; i < 22; i++)
        if (i != 5)
            close(fd[i]);
    close(mon);
    cr_expect_eq(e2e3d_stop(&s), 0);
    e2e3d_cleanup(&s);
}

/* 1,000 connections that never speak cannot keep 22 agents out: connections wait for
 * their (init) without a slot, at most server::pending_max at once (a new one closes
 * the one silent the longest), and one silent for server::init_timeout_ms is closed;
 * effectors before the init are answered, the create is kept for it */
Test(agents3d, silent_connections, .timeout = 90)
{
    e2e3d_server_t s;
    const char *args[] = { "soccer::WaitBeforeKickOff=-1", "server::init_timeout_ms=1500",
                           "server::pending_max=32", NULL };
    cr_assert_eq(e2e3d_start(&s, args), 0);
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    /* the timeout: a silent connection, and one that only created, are closed */
    int quiet = e2e3d_connect(s.agent_port), created = e2e3d_connect(s.agent_port);
    cr_assert_geq(quiet, 0);
    cr_assert_geq(created, 0);
    e2e3d_send(created, "(create)");
    e2e3d_send(created, "(beam 1 2 3)");
    cr_expect_eq(e2e3d_recv(created, &r, 1000, &m), 1);
    cr_expect_str_eq(m, "(error beam init_first)");
    static char qbuf[4096];
    frame_reader_t qr;
    frame_reader_init(&qr, qbuf, sizeof qbuf);
    cr_expect_eq(e2e3d_recv(quiet, &qr, 600, &m), 0, "still open after 0.6 s");
    cr_expect_lt(e2e3d_recv(quiet, &qr, 3000, &m), 0, "closed after init_timeout_ms");
    cr_expect_lt(e2e3d_recv(created, &r, 3000, &m), 0, "a create alone does not keep it");
    close(quiet);
    close(created);
    /* the flood */
    static int silent[1000];
    int opened = 0;
    for (int i = 0; i < 1000; i++) {
        silent[i] = e2e3d_connect(s.agent_port);
        opened += silent[i] >= 0;
    }
    cr_expect_eq(opened, 1000, "%d of the 1000 connected", opened);
    int fd[22];
    for (int i = 0; i < 22; i++) {
        char init[96];
        fd[i] = e2e3d_connect(s.agent_port);
        cr_assert_geq(fd[i], 0);
        snprintf(init, sizeof init, "(create)(init (unum %d) (teamname %s))", i % 11 + 1,
                 i < 11 ? "A" : "B");
        e2e3d_send(fd[i], init);
    }
    for (int i = 0; i < 22; i++) {
        frame_reader_init(&r, rbuf, sizeof rbuf);
        cr_expect_eq(e2e3d_recv_prefix(fd[i], &r, "(GameState ", 5000, &m), 1, "agent %d in", i);
        char want[64];
        snprintf(want, sizeof want, "(unum %d) (team %s)", i % 11 + 1, i < 11 ? "left" : "right");
        cr_expect(strstr(m, want) != NULL, "agent %d: %s", i, m);
    }
    for (int i = 0; i < 1000; i++)
        if (silent[i] >= 0)
            close(silent[i]);
    for (int i = 0; i < 22; i++)
        close(fd[i]);
    cr_expect_eq(e2e3d_stop(&s), 0);
    e2e3d_cleanup(&s);
}
