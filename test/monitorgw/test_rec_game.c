/* test_rec_game.c -- what the game log says and when (docs/protocol/logs.md §3),
 * independent of the file: shows only after the kick-off (none for a kick-off given
 * between steps) and a single one once time is over, play modes and teams only when they
 * change, messages by kind with and without server::record_messages, no message of this
 * server's own at the start, the result; and a whole match written in each
 * version (1-6, JSON) read back by the log reader to the same frames: each frame read
 * back writes exactly the show item the log holds. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "rcg.h"
#include "rec_fixture.h"

static rec_buf_t out;
static shm_rec_state_sh_t st;
static rec_game_t g;

static void setup(void)
{
    memset(&st, 0, sizeof st);
    memset(&out, 0, sizeof out);
    g.fmt = &rec_fmt_v6;
    g.record_messages = 0;
    g.out = &out;
    g.st = &st;
}

static void fini(void)
{
    rec_buf_free(&out);
}

TestSuite(rec_game, .init = setup, .fini = fini);

static shm_event_sh_t event(int kind, int side, int unum, int time, int stoppage, int arg)
{
    shm_event_sh_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.side = (int8_t)side;
    ev.unum = (int8_t)unum;
    ev.time = time;
    ev.stoppage = stoppage;
    ev.arg = arg;
    return ev;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* a trainer's (start) before a step: that step's snapshot (time 1) is the first show */
Test(rec_game, shows_only_in_play_and_one_at_time_over)
{
    shm_snapshot_sh_t s;
    fx_empty(&s);
    for (int i = 0; i < 3; i++)
        rec_game_snapshot(&g, &s); /* before_kick_off: nothing */
    cr_expect_eq(out.len, 0, "%s", out.p ? out.p : "");
    fx_busy(&s, 1);
    s.play_mode = 4; /* kick_off_l */
    rec_game_snapshot(&g, &s);
    s.play_mode = 3;
    for (int t = 2; t <= 4; t++) {
        s.time = t;
        rec_game_snapshot(&g, &s);
    }
    s.play_mode = 2; /* time_over */
    for (int i = 0; i < 3; i++)
        rec_game_snapshot(&g, &s);
    cr_expect_eq(count(out.p, "(show "), 5, "kick-off, three in play, one time_over");
    /* the reference's first play mode line compares with PM_NULL: always written */
    cr_expect_eq(count(out.p, "(playmode "), 3);
    cr_expect_not_null(strstr(out.p, "(playmode 1 kick_off_l)\n(team 1 Alpha Beta 0 0)\n(show 1 "));
    cr_expect_not_null(strstr(out.p, "(playmode 2 play_on)\n(show 2 "));
    cr_expect_not_null(strstr(out.p, "(playmode 4 time_over)\n(show 4 "));
    cr_expect_eq(count(out.p, "(team "), 1, "teams unchanged after the first line");
}

/* The automatic kick-off comes after the step that published before_kick_off's last
 * snapshot, so the sim publishes the kick-off at that step's time (0, and at half time
 * the half's last cycle): the reference writes no show for it (its show is written in the
 * step, before the kick-off); the kick-off's (playmode) and first show come with the next
 * step. The same at each half: nothing at time 30 (half_time, then before_kick_off), the
 * second half's first show at 31. */
Test(rec_game, no_show_for_a_kick_off_between_steps)
{
    shm_snapshot_sh_t s;
    fx_empty(&s);
    rec_game_snapshot(&g, &s);
    s.stoppage = 1;
    rec_game_snapshot(&g, &s);
    fx_busy(&s, 0);
    s.stoppage = 1;
    s.play_mode = 4; /* kick_off_l, at the time of the last before_kick_off step */
    rec_game_snapshot(&g, &s);
    cr_expect_eq(out.len, 0, "%s", out.p ? out.p : "");
    for (int t = 1; t <= 30; t++) {
        fx_busy(&s, t);
        /* kick_off_l, play_on, then the step of time 30 ends in before_kick_off (half time) */
        s.play_mode = t == 1 ? 4 : t < 30 ? 3 : 1;
        rec_game_snapshot(&g, &s);
    }
    for (int k = 1; k <= 3; k++) { /* the half-time break: before_kick_off, stoppage counts */
        s.stoppage = k;
        rec_game_snapshot(&g, &s);
    }
    s.play_mode = 5; /* kick_off_r, after the last break step */
    rec_game_snapshot(&g, &s);
    fx_busy(&s, 31);
    s.play_mode = 5;
    rec_game_snapshot(&g, &s);
    cr_expect_null(strstr(out.p, "(show 0 "), "%s", out.p);
    cr_expect_null(strstr(out.p, "(show 30 "), "%s", out.p);
    cr_expect_null(strstr(out.p, "(playmode 30 "), "%s", out.p);
    cr_expect_eq(count(out.p, "(show "), 30, "1-29 and 31");
    cr_expect_not_null(strstr(out.p, "(playmode 1 kick_off_l)\n(team 1 Alpha Beta 0 0)\n(show 1 "));
    cr_expect_not_null(strstr(out.p, "(show 29 "));
    cr_expect_not_null(strstr(out.p, "(playmode 31 kick_off_r)\n(show 31 "), "%s", out.p);
}

Test(rec_game, team_line_on_score_name_or_penalty_change)
{
    shm_snapshot_sh_t s;
    fx_busy(&s, 10);
    rec_game_snapshot(&g, &s);
    s.score[1] = 1;
    rec_game_snapshot(&g, &s);
    rec_game_snapshot(&g, &s);
    s.pen_miss[0] = 1;
    rec_game_snapshot(&g, &s);
    strcpy(s.team[1], "Gamma");
    rec_game_snapshot(&g, &s);
    cr_expect_eq(count(out.p, "(team "), 4);
    cr_expect_not_null(strstr(out.p, "(team 10 Alpha Beta 0 1)\n"));
    cr_expect_not_null(strstr(out.p, "(team 10 Alpha Beta 0 1 0 1 0 0)\n"));
    cr_expect_not_null(strstr(out.p, "(team 10 Alpha Gamma 0 1 0 1 0 0)\n"));
}

/* without record_messages only team graphics and explicit game-log messages are written */
Test(rec_game, messages_without_record_messages)
{
    shm_snapshot_sh_t s;
    fx_busy(&s, 5);
    const char *tile = "0 0 \"8 8 1 1\" \"a c #FF0000\"";
    shm_event_sh_t ev = event(SHM_EV_TEAM_GRAPHIC, SHM_SIDE_RIGHT, 0, 5, 0, 0);
    rec_game_event(&g, &ev, tile, strlen(tile), &s);
    ev = event(SHM_EV_REFEREE, 0, 0, 5, 0, 0);
    rec_game_event(&g, &ev, "goal_l_1", 8, &s);
    ev = event(SHM_EV_TEXTLOG, SHM_SIDE_LEFT, 3, 5, 0, 0);
    rec_game_event(&g, &ev, "(dash 100)", 10, &s);
    ev = event(SHM_EV_MSG, 0, 0, 5, 0, 2);
    rec_game_event(&g, &ev, "note", 4, &s);
    /* one closing paren after the tile, as the reference writes it */
    cr_expect_str_eq(out.p, "(msg 5 1 \"(team_graphic_r (0 0 \"8 8 1 1\" \"a c #FF0000\")\")\n"
                            "(msg 5 2 \"note\")\n");
}

Test(rec_game, messages_with_record_messages)
{
    shm_snapshot_sh_t s, idle;
    g.record_messages = 1;
    fx_busy(&s, 8);
    fx_empty(&idle);
    st.prev_pm = 1; /* the snapshot before was before_kick_off */
    shm_event_sh_t ev = event(SHM_EV_REFEREE, 0, 0, 0, 4, 0);
    rec_game_event(&g, &ev, "half_time", 9, &idle);      /* wholly idle: skipped */
    ev = event(SHM_EV_SAY, SHM_SIDE_LEFT, 4, 0, 4, 0);
    rec_game_event(&g, &ev, "hello", 5, &idle);          /* says are not logged idle */
    ev = event(SHM_EV_REFEREE, 0, 0, 8, 0, 0);
    rec_game_event(&g, &ev, "kick_off_l", 10, &s);       /* the mode it announces is on */
    ev = event(SHM_EV_SAY, SHM_SIDE_RIGHT, 4, 8, 0, 0);
    rec_game_event(&g, &ev, "hello", 5, &s);
    ev = event(SHM_EV_COACH_SAY, SHM_SIDE_RIGHT, 0, 8, 0, 0);
    rec_game_event(&g, &ev, "(freeform \"x\")", 14, &s);
    ev = event(SHM_EV_TRAINER_SAY, 0, 0, 8, 0, 0);
    rec_game_event(&g, &ev, "hi", 2, &s);
    ev = event(SHM_EV_CLANG, SHM_SIDE_LEFT, 0, 9, 0, 0);
    ev.x = 7;
    const char *clang = "(info (6000 (true) (do our {2} (pos (pt 0 0)))))";
    rec_game_event(&g, &ev, clang, strlen(clang), &s);
    ev = event(SHM_EV_TEXTLOG, SHM_SIDE_LEFT, 3, 9, 0, 0);
    rec_game_event(&g, &ev, "(dash 100)", 10, &s);
    ev = event(SHM_EV_TEXTLOG, SHM_SIDE_RIGHT, 0, 9, 0, 0);
    rec_game_event(&g, &ev, "(eye on)", 8, &s);
    ev = event(SHM_EV_TEXTLOG, 0, 0, 9, 0, 0);
    rec_game_event(&g, &ev, "(look)", 6, &s);
    ev = event(SHM_EV_CHANGE_TYPE, SHM_SIDE_LEFT, 2, 9, 0, 3);
    rec_game_event(&g, &ev, "", 0, &s);
    cr_expect_str_eq(out.p,
                     "(msg 8 1 \"(referee kick_off_l)\")\n"
                     "(msg 8 1 \"((player Beta 4) hello)\")\n"
                     "(msg 8 1 \"(online_coach_right (freeform \"x\"))\")\n"
                     "(msg 8 1 \"(referee hi)\")\n"
                     "(msg 9 1 \"(online_coach_left 7 (info (6000 (true) (do our {2} (pos (pt 0 0))))))\")\n"
                     "(msg 9 2 \"Recv Alpha_3: (dash 100)\")\n"
                     "(msg 9 2 \"Recv Beta_Coach: (eye on)\")\n"
                     "(msg 9 2 \"Recv Coach: (look)\")\n"
                     "(msg 9 2 \"(change_player_type l 2 3)\")\n");
}

/* the head is the reference's (no message of this server's: the seed stays on stdout) */
Test(rec_game, head_lost_note_and_result)
{
    rec_head_t h;
    shm_snapshot_sh_t s;
    fx_head(&h);
    rec_game_start(&g, &h);
    cr_expect_null(strstr(out.p, "(msg "), "%s", out.p);
    cr_expect_null(strstr(out.p, "rcssserver-shm"));
    cr_expect_eq(strncmp(out.p, "ULG6\n(server_param ", 19), 0, "%.40s", out.p);
    rec_buf_clear(&out);
    rec_game_lost(&g, 77, 12, 3);
    cr_expect_str_eq(out.p, "(msg 77 2 \"(rcssserver-shm (lost_snapshots 12) (lost_events 3))\")\n");
    rec_buf_clear(&out);
    fx_busy(&s, 6000);
    s.play_mode = 2;
    char info[128];
    char coach[2][SHM_TEAM_NAME_LEN] = { "Coachy", "" };
    cr_assert_gt(rec_teaminfo(&s, (const char (*)[SHM_TEAM_NAME_LEN])coach, info, sizeof info), 0);
    cr_expect_str_eq(info, "Alpha_Coachy_120-vs-Beta_0");
    rec_game_finish(&g, &s, 1700000000, info);
    /* result stamp: strftime("%Y%m%d%H%M") of the start in local time */
    char stamp[32];
    time_t t0 = 1700000000;
    struct tm tm;
    localtime_r(&t0, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d%H%M", &tm);
    char want[256];
    snprintf(want, sizeof want, "(msg 6000 1 \"(result %s Alpha_Coachy_120-vs-Beta_0)\")\n"
                                "(team 6000 Alpha Beta 120 0)\n", stamp);
    cr_expect_str_eq(out.p, want);
}

/* the team info of the final names (docs/protocol/logs.md §4): penalties only when the
 * regular score is level and both sides took some; "w" only for the winner of the coin toss
 * the sim publishes (pen_coin), not for a side that simply scored more penalties (the
 * reference's Team::penaltyWon is set by the coin toss alone) */
Test(rec_game, teaminfo_penalties_and_coin_toss)
{
    shm_snapshot_sh_t s;
    char info[128], coach[2][SHM_TEAM_NAME_LEN] = { "", "" };
    fx_busy(&s, 10);
    s.score[0] = s.score[1] = 1;
    s.pen_score[0] = 4;
    s.pen_miss[0] = 1;
    s.pen_score[1] = 3;
    s.pen_miss[1] = 2;
    cr_assert_gt(rec_teaminfo(&s, (const char (*)[SHM_TEAM_NAME_LEN])coach, info, sizeof info), 0);
    cr_expect_str_eq(info, "Alpha_1_4-vs-Beta_1_3");
    s.pen_score[1] = 4;
    s.pen_miss[1] = 1;
    s.pen_coin = SHM_SIDE_RIGHT;
    cr_assert_gt(rec_teaminfo(&s, (const char (*)[SHM_TEAM_NAME_LEN])coach, info, sizeof info), 0);
    cr_expect_str_eq(info, "Alpha_1_4-vs-Beta_1_4w");
    s.pen_coin = SHM_SIDE_LEFT;
    cr_assert_gt(rec_teaminfo(&s, (const char (*)[SHM_TEAM_NAME_LEN])coach, info, sizeof info), 0);
    cr_expect_str_eq(info, "Alpha_1_4w-vs-Beta_1_4");
}

/* a match written in version v and read back: the same frames */
static void match_round_trip(const rec_fmt_t *fmt)
{
    rec_head_t h;
    shm_snapshot_sh_t s;
    fx_head(&h);
    g.fmt = fmt;
    rec_game_start(&g, &h);
    fx_busy(&s, 0); /* a recorder that meets the match at its kick-off */
    s.play_mode = 4;
    rec_game_snapshot(&g, &s);
    for (int t = 1; t <= 120; t++) {
        fx_busy(&s, t);
        if (t == 60) {
            shm_event_sh_t ev = event(SHM_EV_MSG, 0, 0, t, 0, 1);
            rec_game_event(&g, &ev, "(hello \"monitor\")", 17, &s);
        }
        rec_game_snapshot(&g, &s);
    }
    s.play_mode = 2;
    rec_game_snapshot(&g, &s);
    rec_game_snapshot(&g, &s);
    rec_game_finish(&g, &s, 1700000000, "Alpha_2-vs-Beta_0");

    rcg_t r;
    char err[256];
    cr_assert_eq(rcg_read_mem(out.p, out.len, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.version, fmt->version);
    cr_expect_eq(r.bad_items, 0);
    cr_expect_eq(r.truncated, 0, "%s", r.note);
    /* parameters and types from version 3 on (v1 and v2 logs have none) */
    int params = fmt->version < 0 || fmt->version >= 3;
    cr_expect_eq(r.types.count, params ? 3u : 0u);
    cr_expect_eq(r.has_params, params);
    if (params) {
        cr_expect_eq(r.types.type[2].inertia_moment, 7.0);
        cr_expect_eq(conf_int(&r.conf, SP_half_time), 300);
    }
    cr_expect_eq(r.has_seed, 0);
    cr_assert_eq(r.n_frames, 122, "kick-off, 120 in play, one time_over");
    cr_expect_eq(r.frame[0].show.pmode, 4);
    cr_expect_eq(r.frame[0].show.time, 0);
    cr_expect_eq(r.frame[121].show.pmode, 2);
    cr_assert_eq(r.n_msgs, 2, "monitor message, result");
    cr_expect_str_eq(r.msg[0].text, "(hello \"monitor\")");
    cr_expect_eq(r.msg[1].board, 1);
    cr_expect(strncmp(r.msg[1].text, "(result ", 8) == 0
              && strstr(r.msg[1].text, " Alpha_2-vs-Beta_0)") != NULL, "%s", r.msg[1].text);
    cr_expect_eq(r.frame[59].msg_end, 0);
    cr_expect_eq(r.frame[60].msg_end, 1, "the message came before the show of time 60");
    cr_expect_eq(rcg_frame_at(&r, 60), 60);
    for (int i = 1; i <= 120; i++) {
        shm_snapshot_sh_t want;
        rec_buf_t a = { 0 }, b = { 0 };
        fx_busy(&want, i);
        const disp_show_t *got = &r.frame[i].show;
        cr_expect_eq(got->time, i);
        cr_expect_eq(got->pmode, 3);
        cr_expect_eq(got->score[0], want.score[0]);
        cr_expect_str_eq(got->team[1], "Beta");
        fmt->show(&a, &want);
        fmt->show_disp(&b, got);
        cr_expect(a.len == b.len && memcmp(a.p, b.p, a.len) == 0, "v%d frame %d differs",
                  fmt->version, i);
        rec_buf_free(&a);
        rec_buf_free(&b);
    }
    rcg_free(&r);
}

Test(rec_game, match_round_trip_v1) { match_round_trip(&rec_fmt_v1); }
Test(rec_game, match_round_trip_v2) { match_round_trip(&rec_fmt_v2); }
Test(rec_game, match_round_trip_v3) { match_round_trip(&rec_fmt_v3); }
Test(rec_game, match_round_trip_v4) { match_round_trip(&rec_fmt_v4); }
Test(rec_game, match_round_trip_v5) { match_round_trip(&rec_fmt_v5); }
Test(rec_game, match_round_trip_v6) { match_round_trip(&rec_fmt_v6); }
Test(rec_game, match_round_trip_json) { match_round_trip(&rec_fmt_json); }
