/* test_rcg_formats.c -- the binary (1-3) and JSON game log readers on logs built by hand
 * from docs/protocol/logs.md §1, §2: records and chunks with their modes and sizes,
 * messages of every form (v1 msginfo_t without a NUL, v2/v3 board + length + text), play
 * mode and team chunks carried into the frames, a record of an unknown mode, files cut
 * inside a record or object, the JSON objects of the reference's layout, a malformed
 * object between good ones, an array never closed. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "disp_bin.h"
#include "rcg.h"

static rcg_t r;
static char err[256];
static uint8_t file[1 << 16];
static size_t len;

static void fini(void)
{
    rcg_free(&r);
}

TestSuite(rcg_formats, .fini = fini);

static void put(const void *p, size_t n)
{
    memcpy(file + len, p, n);
    len += n;
}

static void put16(int v)
{
    uint8_t b[2] = { (uint8_t)((unsigned)v >> 8), (uint8_t)v };
    put(b, 2);
}

/* a show: HELIOS vs Cyrus, cycle t, the ball at (t, -2) */
static void sample(disp_show_t *s, int t)
{
    memset(s, 0, sizeof *s);
    s->time = t;
    s->pmode = 3;
    strcpy(s->team[0], "HELIOS");
    strcpy(s->team[1], "Cyrus");
    s->score[0] = 2;
    s->bx = t;
    s->by = -2;
    for (int i = 0; i < DISP_PLAYERS; i++) {
        s->player[i].side = i < 11 ? 1 : -1;
        s->player[i].unum = i % 11 + 1;
    }
    s->player[3].state = 1;
    s->player[3].x = -10.5;
}

/* v1: whole 2052-byte records; a 2048-char message without NUL; a record of another
 * mode skipped; the cut last record noted */
Test(rcg_formats, version_1)
{
    static uint8_t rec[DISP_V1_SIZE], body[DISP_MSGINFO_SIZE];
    disp_show_t s;
    len = 0;
    memset(body, 0, sizeof body);
    body[1] = 1;                                /* board 1 */
    memset(body + 2, 'x', DISP_MSG_TEXT_MAX);   /* no NUL */
    disp_bin_v1(DISP_MSG_MODE, body, sizeof body, rec);
    put(rec, sizeof rec);
    sample(&s, 7);
    disp_bin_showinfo(&s, body);
    disp_bin_v1(DISP_SHOW_MODE, body, DISP_SHOWINFO_SIZE, rec);
    put(rec, sizeof rec);
    disp_bin_v1(DISP_DRAW_MODE, body, 10, rec);
    put(rec, sizeof rec);
    put(rec, 100);                              /* a record cut short */
    cr_assert_eq(rcg_read_mem((const char *)file, len, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.version, 1);
    cr_expect_eq(r.has_params, 0);
    cr_assert_eq(r.n_msgs, 1);
    cr_expect_eq(strlen(r.msg[0].text), (size_t)DISP_MSG_TEXT_MAX);
    cr_expect_eq(r.msg[0].board, 1);
    cr_assert_eq(r.n_frames, 1);
    cr_expect_eq(r.frame[0].show.time, 7);
    cr_expect_str_eq(r.frame[0].show.team[0], "HELIOS");
    cr_expect_eq(r.frame[0].show.player[3].x, -10.5);
    cr_expect_eq(r.bad_items, 1, "the draw record");
    cr_expect_eq(r.truncated, 1);
    cr_expect_not_null(strstr(r.note, "100 of its 2052 bytes"), "%s", r.note);
}

/* v2: "ULG" 2, then mode + body: a message (board, length, text without NUL), a show */
Test(rcg_formats, version_2)
{
    static uint8_t body[DISP_SHOWINFO_SIZE];
    disp_show_t s;
    len = 0;
    put("ULG\x02", 4);
    put16(DISP_MSG_MODE);
    put16(1);
    put16(17);
    put("(referee play_on)", 17);
    sample(&s, 9);
    disp_bin_showinfo(&s, body);
    put16(DISP_SHOW_MODE);
    put(body, sizeof body);
    cr_assert_eq(rcg_read_mem((const char *)file, len, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.version, 2);
    cr_assert_eq(r.n_msgs, 1);
    cr_expect_str_eq(r.msg[0].text, "(referee play_on)");
    cr_assert_eq(r.n_frames, 1);
    cr_expect_eq(r.frame[0].msg_end, 1);
    cr_expect_eq(r.frame[0].show.bx, 9.0);
    cr_expect_eq(r.frame[0].show.pmode, 3);
    cr_expect_eq(r.truncated, 0);
    cr_expect_str_eq(r.note, "");
}

/* v3: parameters, a player type, play mode and team chunks carried into the frames, a
 * show of short_showinfo_t2; a record of an unknown mode stops the reading */
Test(rcg_formats, version_3)
{
    static uint8_t body[DISP_SHORT_SHOWINFO2_SIZE];
    static conf_t c;
    disp_show_t s;
    disp_ptype_t t = { .id = 2 };
    conf_defaults(&c);
    c.num[SP_half_time] = 7;
    len = 0;
    put("ULG\x03", 4);
    disp_bin_server_params(&c, body);
    put16(DISP_PARAM_MODE);
    put(body, DISP_SERVER_PARAMS_SIZE);
    t.v[0] = 1.25;
    disp_bin_player_type(&t, body);
    put16(DISP_PT_MODE);
    put(body, DISP_PLAYER_TYPE_SIZE);
    put16(DISP_PM_MODE);
    put("\x05", 1);                             /* kick_off_r */
    sample(&s, 4);
    disp_bin_teams(&s, body);
    put16(DISP_TEAM_MODE);
    put(body, 2 * DISP_TEAM_SIZE);
    disp_bin_short_showinfo2(&s, body);
    put16(DISP_SHOW_MODE);
    put(body, DISP_SHORT_SHOWINFO2_SIZE);
    put16(42);
    put("rest", 4);
    cr_assert_eq(rcg_read_mem((const char *)file, len, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.version, 3);
    cr_expect_eq(r.has_params, 1);
    cr_expect_eq(conf_int(&r.conf, SP_half_time), 7);
    cr_expect_eq(r.types.count, 3u, "types up to id 2");
    cr_expect_eq(r.types.type[2].player_speed_max, 1.25);
    cr_assert_eq(r.n_frames, 1);
    cr_expect_eq(r.frame[0].show.pmode, 5, "from the PM chunk");
    cr_expect_str_eq(r.frame[0].show.team[1], "Cyrus", "from the TEAM chunk");
    cr_expect_eq(r.frame[0].show.score[0], 2);
    cr_expect_eq(r.frame[0].show.time, 4);
    cr_expect_eq(r.bad_items, 1);
    cr_expect_not_null(strstr(r.note, "unknown record (mode 42)"), "%s", r.note);
}

static const char *json_log =
    "[\n{\"version\":\"19.0.0\"},\n{\"timestamp\":\"2026-11-22T10:22:00+0000\"},\n"
    "{\"server_param\":{\"half_time\":3,\"log_date_format\":\"%Y-\",\"use_offside\":false,"
    "\"goal_width\":14.5,\"no_such\":1}},\n"
    "{\"player_param\":{\"player_types\":7}},\n"
    "{\"player_type\":{\"id\":1,\"player_speed_max\":1.1,\"catchable_area_l_stretch\":1.2}},\n"
    "{\"playmode\":{\"time\":1,\"mode\":\"kick_off_r\"}},\n"
    "{\"team\":{\"time\":1,\"l\":{\"name\":\"A\",\"score\":1},\"r\":{\"name\":null,\"score\":0,"
    "\"pen_score\":2,\"pen_miss\":1}}},\n"
    "{\"msg\":{\"time\":1,\"stime\":3,\"board\":1,\"message\":\"hi \\\"there\\\"\"}},\n"
    "{\"team_graphic\":{\"side\":\"r\",\"x\":1,\"y\":2,\"xpm\":[\"8 8 1 1\",\"a c #FF0000\"]}},\n"
    "{\"show\":{\"time\":1,\"stime\":2,\"ball\":{\"x\":1.5,\"y\":2,\"vx\":3,\"vy\":4},\"players\":["
    "{\"side\":\"r\",\"unum\":3,\"type\":2,\"state\":9,\"x\":5,\"y\":-6,\"vx\":0.5,\"vy\":0,"
    "\"body\":90,\"neck\":-45,\"px\":1,\"py\":2,\"vq\":\"h\",\"vw\":120,\"stamina\":7000,"
    "\"effort\":0.9,\"recovery\":1,\"capacity\":1000,\"fside\":\"l\",\"fnum\":4,\"kick\":3,"
    "\"change_focus\":5}]}},\n"
    "{\"show\":{\"time\":2,\"ball\" BROKEN},\n"
    "{\"show\":{\"time\":3,\"mode\":\"play_on\",\"team\":{\"l\":{\"name\":\"A\",\"score\":2},"
    "\"r\":{\"name\":\"B\",\"score\":0}},\"ball\":{\"x\":0,\"y\":0,\"vx\":0,\"vy\":0},"
    "\"players\":[]}}\n]\n";

Test(rcg_formats, json)
{
    cr_assert_eq(rcg_read_mem(json_log, strlen(json_log), &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.version, -1);
    cr_expect_eq(r.has_params, 1);
    cr_expect_eq(conf_int(&r.conf, SP_half_time), 3);
    cr_expect_str_eq(conf_str(&r.conf, SP_log_date_format), "%Y-");
    cr_expect_eq(conf_bool(&r.conf, SP_use_offside), 0);
    cr_expect_eq(conf_real(&r.conf, SP_goal_width), 14.5);
    cr_expect_eq(conf_int(&r.conf, PP_player_types), 7);
    cr_expect_eq(r.types.type[1].player_speed_max, 1.1);
    cr_expect_eq(r.types.type[1].catchable_area_l_stretch, 1.2);
    cr_expect_eq(r.bad_items, 1, "the broken show");
    cr_expect_eq(r.truncated, 0);
    cr_expect_str_eq(r.note, "");
    cr_assert_eq(r.n_msgs, 2);
    cr_expect_str_eq(r.msg[0].text, "hi \"there\"");
    cr_expect_str_eq(r.msg[1].text, "(team_graphic_r (1 2 \"8 8 1 1\" \"a c #FF0000\")");
    cr_assert_eq(r.n_frames, 2);
    const disp_show_t *s = &r.frame[0].show;
    cr_expect_eq(s->pmode, 5, "the playmode object");
    cr_expect_str_eq(s->team[0], "A");
    cr_expect_str_eq(s->team[1], "", "null: no team");
    cr_expect_eq(s->pen_score[1], 2);
    cr_expect_eq(s->pen_miss[1], 1);
    cr_expect_eq(s->stime, 2);
    cr_expect_eq(s->bx, 1.5);
    const disp_player_t *p = &s->player[13];     /* right 3 */
    cr_expect_eq(p->unum, 3);
    cr_expect_eq(p->type, 2);
    cr_expect_eq(p->state, 9u);
    cr_expect_eq(p->enabled, 1);
    cr_expect(fabs(p->body - M_PI / 2) < 1e-12 && fabs(p->neck + M_PI / 4) < 1e-12);
    cr_expect_eq(p->pointing, 1);
    cr_expect_eq(p->view_high, 1);
    cr_expect_eq(p->view_width, 120.0);
    cr_expect_eq(p->focus_side, 1);
    cr_expect_eq(p->focus_unum, 4);
    cr_expect_eq(p->count[DISP_CNT_KICK], 3u);
    cr_expect_eq(p->count[DISP_CNT_CHANGE_FOCUS], 5u);
    cr_expect_eq(s->player[0].enabled, 0, "not in the list: not connected");
    /* the monitor form carries its own mode and team */
    cr_expect_eq(r.frame[1].show.pmode, 3);
    cr_expect_str_eq(r.frame[1].show.team[1], "B");
    cr_expect_eq(r.frame[1].show.score[0], 2);
}

/* a killed server's JSON log: no "]"; cut inside an object: read to the one before */
Test(rcg_formats, json_not_closed_and_cut)
{
    size_t n = strlen(json_log) - 3;   /* without "\n]\n" */
    cr_assert_eq(rcg_read_mem(json_log, n, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.n_frames, 2);
    cr_expect_eq(r.truncated, 0);
    cr_expect_not_null(strstr(r.note, "not closed"), "%s", r.note);
    rcg_free(&r);
    cr_assert_eq(rcg_read_mem(json_log, n - 20, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.n_frames, 1);
    cr_expect_eq(r.truncated, 1);
    cr_expect_not_null(strstr(r.note, "ends inside an object"), "%s", r.note);
}

/* rcg_json_show: a JSON monitor's frame alone */
Test(rcg_formats, json_show_alone)
{
    disp_show_t s;
    memset(&s, 0, sizeof s);
    const char *m = "{\"show\":{\"time\":12,\"mode\":\"goal_l\",\"team\":{\"l\":{\"name\":\"A\","
                    "\"score\":1},\"r\":{\"name\":\"B\",\"score\":0}},\"ball\":{\"x\":1,\"y\":0,"
                    "\"vx\":0,\"vy\":0},\"players\":[]}}";
    cr_assert_eq(rcg_json_show(m, strlen(m) + 1, &s), 0);
    cr_expect_eq(s.time, 12);
    cr_expect_eq(s.pmode, 14);
    cr_expect_eq(rcg_json_show("{\"msg\":{}}", 10, &s), -1);
    cr_expect_eq(rcg_json_show("{\"show\":", 8, &s), -1);
}
