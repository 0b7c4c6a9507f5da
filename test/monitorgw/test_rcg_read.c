/* test_rcg_read.c -- the log reader on what real files hold: a gzip file of several
 * members, a file cut in the middle of a line, garbage lines, what is not a game log
 * (refused with a message, not a crash), play mode and team state carried into the
 * frames, the parameters of the log over the defaults. The binary and JSON versions:
 * test_rcg_formats.c. */
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
    "(server_param (goal_width 14.5)(log_date_format \"%Y-\")(no_such_param 3))\n"
    "(player_param (player_types 7))\n"
    "(player_type (id 0)(player_speed_max 1.25))\n"
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
    /* the log's values over the defaults; a parameter this server lacks is left out */
    cr_expect_eq(r.has_params, 1);
    cr_expect_eq(conf_real(&r.conf, SP_goal_width), 14.5);
    cr_expect_str_eq(conf_str(&r.conf, SP_log_date_format), "%Y-");
    cr_expect_eq(conf_int(&r.conf, PP_player_types), 7);
    cr_expect_eq(conf_real(&r.conf, SP_ball_decay), 0.94, "a default");
    cr_expect_eq(r.types.count, 1);
    cr_expect_eq(r.types.type[0].player_speed_max, 1.25);
    cr_expect_eq(r.bad_items, 2, "garbage, a broken show");
    cr_expect_eq(r.truncated, 1, "the cut last line");
    cr_expect_not_null(strstr(r.note, "ends inside a line"), "%s", r.note);
    cr_expect_not_null(strstr(r.note, "after frame 2, cycle 2"), "%s", r.note);
    cr_assert_eq(r.n_frames, 2);
    cr_expect_eq(r.frame[0].show.pmode, 5);
    cr_expect_str_eq(r.frame[0].show.team[1], "B");
    cr_expect_eq(r.frame[0].show.pen_miss[1], 4);
    cr_expect_eq(r.frame[0].show.bvy, 4.0);
    cr_expect_str_eq(r.frame[1].show.team[1], "", "null is no team");
    cr_expect_eq(r.frame[1].show.score[0], 1);
    cr_expect_eq(r.frame[1].show.pen_score[0], 0);
    cr_expect_eq(r.n_msgs, 1);
    cr_expect_str_eq(r.msg[0].text, "(team_graphic_l (0 0 \"8 8 1 1\" \"a c #FF0000\")");
    cr_expect_eq(r.has_seed, 0);
}

/* docs/protocol/logs.md §1: "[" JSON, ULG + 2 or 3 binary, ULG4..6 + newline text,
 * otherwise version 1 (whose first record is then a show, mode 1, or a message, mode 2) */
Test(rcg_read, versions_detected_and_strangers_refused)
{
    cr_expect_eq(rcg_read_mem("[\n{\"version\":\"19.0.0\"}\n]", 23, &r, err, sizeof err), 0);
    cr_expect_eq(r.version, -1);
    rcg_free(&r);
    cr_expect_eq(rcg_read_mem("ULG\x03", 4, &r, err, sizeof err), 0);
    cr_expect_eq(r.version, 3);
    rcg_free(&r);
    cr_expect_eq(rcg_read_mem("ULG\x02", 4, &r, err, sizeof err), 0);
    cr_expect_eq(r.version, 2);
    rcg_free(&r);
    cr_expect_eq(rcg_read_mem("\0\x01", 2, &r, err, sizeof err), 0);
    cr_expect_eq(r.version, 1);
    cr_expect_eq(r.truncated, 1, "2 bytes of a 2052-byte record");
    rcg_free(&r);
    cr_expect_eq(rcg_read_mem("\0\x07", 2, &r, err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "not a game log"), "%s", err);
    cr_expect_eq(rcg_read_mem("ULG7\n", 5, &r, err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "unknown version"), "%s", err);
    cr_expect_eq(rcg_read_mem("ULG4x", 5, &r, err, sizeof err), -1);
    cr_expect_eq(rcg_read_mem("hello", 5, &r, err, sizeof err), -1);
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
    cr_expect_eq(r.frame[1].show.bx, 1.0);
    cr_expect_eq(r.truncated, 1);
    /* zlib gives the cut member's bytes (or says the stream is cut): either way a note */
    cr_expect(strstr(r.note, "compressed data is cut short") || strstr(r.note, "inside a line"),
              "%s", r.note);
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
    cr_expect_eq(r.bad_items, 1);
    cr_assert_eq(r.n_msgs, 2);
    cr_expect_str_eq(r.msg[0].text, "");
    cr_expect_str_eq(r.msg[1].text, "a");
}
