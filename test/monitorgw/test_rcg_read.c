/* test_rcg_read.c -- the log reader on what real files hold: a gzip file of several
 * members, a file cut in the middle of a line, garbage lines, other versions (refused
 * with a message, not a crash), play mode and team state carried into the frames. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rcg.h"
#include "rec_fixture.h"

static rcg_t r;
static char err[256];

static void fini(void)
{
    rcg_free(&r);
}

TestSuite(rcg_read, .fini = fini);

static const char *small =
    "ULG5\n"
    "(server_param (goal_width 14.02))\n"
    "(player_param (player_types 18))\n"
    "(player_type (id 0)(player_speed_max 1.05))\n"
    "(msg 0 1 \"(team_graphic_l (0 0 \"8 8 1 1\" \"a c #FF0000\")\")\n"
    "(playmode 1 kick_off_r)\n"
    "(team 1 A B 0 2 1 2 3 4)\n"
    "(show 1 ((b) 1 2 3 4))\n"
    "garbage\n"
    "(show 2 ((b) broken\n"
    "(team 2 A null 1 2)\n"
    "(show 2 ((b) 5 6 7 8))\n"
    "(show 3 ((b) 5 6 7";

Test(rcg_read, state_carried_and_bad_lines_skipped)
{
    cr_assert_eq(rcg_read_mem(small, strlen(small), &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.version, 5);
    cr_expect_str_eq(r.server_param, "(server_param (goal_width 14.02))");
    cr_expect_eq(r.n_types, 1);
    cr_expect_eq(r.bad_lines, 3, "garbage, a broken show, the cut last line");
    cr_assert_eq(r.n_frames, 2);
    cr_expect_eq(r.frame[0].snap.play_mode, 5);
    cr_expect_str_eq(r.frame[0].snap.team[1], "B");
    cr_expect_eq(r.frame[0].snap.pen_miss[1], 4);
    cr_expect_eq(r.frame[0].snap.ball.vy, 4.0);
    cr_expect_str_eq(r.frame[1].snap.team[1], "", "null is no team");
    cr_expect_eq(r.frame[1].snap.score[0], 1);
    cr_expect_eq(r.frame[1].snap.pen_score[0], 0);
    cr_expect_eq(r.n_msgs, 1);
    cr_expect_str_eq(r.msg[0].text, "(team_graphic_l (0 0 \"8 8 1 1\" \"a c #FF0000\")");
    cr_expect_eq(r.has_seed, 0);
}

Test(rcg_read, other_versions_refused)
{
    cr_expect_eq(rcg_read_mem("[\n{\"version\":\"19.0.0\"}", 21, &r, err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "JSON"), "%s", err);
    cr_expect_eq(rcg_read_mem("ULG\x03\0\x08", 6, &r, err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "binary game log (version 3)"), "%s", err);
    cr_expect_eq(rcg_read_mem("\0\x01", 2, &r, err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "not a game log"), "%s", err);
    cr_expect_eq(rcg_read_mem("ULG7\n", 5, &r, err, sizeof err), -1);
    cr_expect_eq(rcg_read_mem("", 0, &r, err, sizeof err), -1);
}

Test(rcg_read, missing_file)
{
    cr_expect_eq(rcg_read_file("/nonexistent/x.rcg", &r, err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "/nonexistent/x.rcg"), "%s", err);
}

/* a compressed log of three members, the last one cut short: what came before reads */
Test(rcg_read, gzip_members_and_cut_member)
{
    char path[] = "/tmp/rcss-rcgread-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    rec_buf_t z = { 0 };
    const char *parts[2] = { "ULG4\n(show 1 ((b) 0 0 0 0))\n", "(show 2 ((b) 1 0 0 0))\n" };
    for (int i = 0; i < 2; i++)
        cr_assert_eq(rec_gzip_member(parts[i], strlen(parts[i]), 6, &z), 0);
    size_t whole = z.len;
    cr_assert_eq(rec_gzip_member("(show 3 ((b) 2 0 0 0))\n", 23, 6, &z), 0);
    cr_assert_eq(write(fd, z.p, whole + (z.len - whole) / 2), (ssize_t)(whole + (z.len - whole) / 2));
    close(fd);
    rec_buf_free(&z);
    cr_assert_eq(rcg_read_file(path, &r, err, sizeof err), 0, "%s", err);
    unlink(path);
    cr_expect_eq(r.version, 4);
    cr_expect_geq(r.n_frames, 2);
    cr_expect_eq(r.frame[1].snap.ball.x, 1.0);
}

Test(rcg_read, frame_at)
{
    const char *log = "ULG6\n(show 0 ((b) 0 0 0 0))\n(show 0 ((b) 0 0 0 0))\n"
                      "(show 5 ((b) 0 0 0 0))\n(show 9 ((b) 0 0 0 0))\n";
    cr_assert_eq(rcg_read_mem(log, strlen(log), &r, err, sizeof err), 0);
    cr_expect_eq(rcg_frame_at(&r, 0), 0);
    cr_expect_eq(rcg_frame_at(&r, 3), 2);
    cr_expect_eq(rcg_frame_at(&r, 5), 2);
    cr_expect_eq(rcg_frame_at(&r, 6), 3);
    cr_expect_eq(rcg_frame_at(&r, 100), 3);
    cr_expect_eq(rcg_frame_at(&r, -5), 0);
}

/* found by fuzz_rcg: a message whose closing quote is its opening one */
Test(rcg_read, message_without_text)
{
    const char *log = "ULG6\n(msg 1 1 \")\n(msg 1 1 \"\")\n(msg 2 1 \"a\")\n";
    cr_assert_eq(rcg_read_mem(log, strlen(log), &r, err, sizeof err), 0);
    cr_expect_eq(r.bad_lines, 1);
    cr_assert_eq(r.n_msgs, 2);
    cr_expect_str_eq(r.msg[0].text, "");
    cr_expect_str_eq(r.msg[1].text, "a");
}
