/* test_141_monitor_coach.c -- with server::coach or coach_w_referee a monitor may send the
 * trainer's world commands (docs/protocol/monitor.md §6): (start), (change_mode PM),
 * (move (OBJ) ...), (recover), (check_ball), answered in the monitor's message form
 * (v3: (msg T 1 "...")) and carried out at the sim's next step; without coach mode
 * they are illegal_command_form, and from a monitor without operator rights the
 * world-changing ones are refused. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

static char buf[65536];

/* a v3 monitor registered with s; its server port in *port */
static int monitor(const e2e_server_t *s, int *port)
{
    int fd = e2e_udp_open();
    e2e_send(fd, s->port, "(dispinit version 3)");
    cr_assert_gt(e2e_recv_prefix(fd, "(show ", buf, sizeof buf, 2000, port), 0);
    return fd;
}

/* send cmd, return the text of the next board message ("(msg T 1 \"TEXT\")") */
static const char *ask(int fd, int port, const char *cmd)
{
    static char text[512];
    e2e_send(fd, port, cmd);
    cr_assert_gt(e2e_recv_prefix(fd, "(msg ", buf, sizeof buf, 2000, NULL), 0, "%s", cmd);
    int t, board, off = 0;
    cr_assert_eq(sscanf(buf, "(msg %d %d \"%n", &t, &board, &off), 2, "%s", buf);
    cr_expect_eq(board, 1, "%s", buf);
    snprintf(text, sizeof text, "%s", buf + off);
    char *q = strrchr(text, '"');
    if (q)
        *q = '\0';
    return text;
}

/* the next show frame for which pred holds, within 3 s */
static int frame_where(int fd, int (*pred)(const char *))
{
    double end = e2e_now_ms() + 3000.0;
    while (e2e_now_ms() < end) {
        if (e2e_recv_prefix(fd, "(show ", buf, sizeof buf, 500, NULL) > 0 && pred(buf))
            return 1;
    }
    return 0;
}

static int ball_at_10_5(const char *f)
{
    double x, y, vx, vy;
    const char *b = strstr(f, "((b) ");
    return b && sscanf(b, "((b) %lf %lf %lf %lf", &x, &y, &vx, &vy) == 4 && x == 10.0
           && y == 5.0 && vx == 0.0 && vy == 0.0;
}

static int l1_at_m20_m7(const char *f)
{
    int type;
    unsigned flags;
    double x, y, vx, vy, body;
    const char *p = strstr(f, "((l 1) ");
    return p && sscanf(p, "((l 1) %d %x %lf %lf %lf %lf %lf", &type, &flags, &x, &y, &vx, &vy,
                       &body) == 7
           && x == -20.0 && y == -7.0 && body == 90.0;
}

static int ball_in_left_goal(const char *f)
{
    double x, y;
    const char *b = strstr(f, "((b) ");
    return b && sscanf(b, "((b) %lf %lf", &x, &y) == 2 && x == -53.5 && y == 0.0;
}

static int play_on(const char *f)
{
    return strstr(f, "(pm 3)") != NULL; /* play_on is play mode 3 (docs/protocol/monitor.md §8) */
}

Test(monitor_coach, trainer_commands_from_a_monitor, .timeout = 60)
{
    const char *args[] = { "server::coach=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int pl = e2e_udp_open(), port = 0;
    e2e_send(pl, s.port, "(init TA (version 19))");
    cr_assert_gt(e2e_recv_prefix(pl, "(init l 1 ", buf, sizeof buf, 2000, NULL), 0);
    int fd = monitor(&s, &port);

    cr_expect_str_eq(ask(fd, port, "(move (ball) 10 5)"), "(ok move)");
    cr_expect(frame_where(fd, ball_at_10_5), "the ball at (10, 5) at rest");
    cr_expect_str_eq(ask(fd, port, "(move (player TA 1) -20 -7 90)"), "(ok move)");
    cr_expect(frame_where(fd, l1_at_m20_m7), "TA 1 at (-20, -7) facing 90");
    cr_expect_str_eq(ask(fd, port, "(move (player TB 1) 0 0)"), "(ok move)",
                     "no such team: ok, and nothing moves");
    cr_expect_str_eq(ask(fd, port, "(move (ball) 1 2 0.5 0.5)"), "(error illegal_command_form)");
    cr_expect_str_eq(ask(fd, port, "(move (player TA 12) 1 2)"), "(error illegal_object_form)");
    cr_expect_str_eq(ask(fd, port, "(change_mode nonsense)"), "(error illegal_mode)");
    cr_expect_str_eq(ask(fd, port, "(recover)"), "(ok recover)");
    int t = -1;
    cr_expect_eq(sscanf(ask(fd, port, "(check_ball)"), "(ok check_ball %d in_field)", &t), 1);
    cr_expect_str_eq(ask(fd, port, "(change_mode play_on)"), "(ok change_mode)");
    cr_expect(frame_where(fd, play_on), "play_on");
    cr_expect_str_eq(ask(fd, port, "(move (ball) -53.5 0)"), "(ok move)");
    cr_expect(frame_where(fd, ball_in_left_goal));
    cr_expect(strstr(ask(fd, port, "(check_ball)"), " goal_l)") != NULL, "%s", buf);
    cr_expect_str_eq(ask(fd, port, "(look)"), "(error illegal_command_form)");
    close(fd);
    close(pl);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(monitor_coach, only_in_coach_mode_and_for_operators, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int port = 0, fd = monitor(&s, &port);
    cr_expect_str_eq(ask(fd, port, "(move (ball) 1 2)"), "(error illegal_command_form)");
    cr_expect_str_eq(ask(fd, port, "(check_ball)"), "(error illegal_command_form)");
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);

    const char *args[] = { "server::coach_w_referee=true", "server::monitor_operators=10.9.9.9", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    fd = monitor(&s, &port);
    cr_expect_str_eq(ask(fd, port, "(move (ball) 1 2)"),
                     "(error referee_commands_need_operator_rights)");
    cr_expect_str_eq(ask(fd, port, "(start)"), "(error referee_commands_need_operator_rights)");
    cr_expect_str_eq(ask(fd, port, "(check_ball)"), "(ok check_ball 0 in_field)",
                     "reading the ball's place changes nothing");
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
