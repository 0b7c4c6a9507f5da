/* test_disp_bin.c -- the binary monitor/log structs byte for byte. Every expected value
 * is derived by hand from docs/protocol/monitor.md §4; docs/protocol/logs.md §2 and
 * Appendix A: offsets as listed there, big-endian integers, positions x 16 (v1) or x 65536
 * (v2/v3) rounded, server parameters x 65536 truncated, player parameters (int)(v x 65536 +
 * 0.5). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "disp_bin.h"

static disp_show_t show;
static uint8_t out[4096];

/* a show of a real match: HELIOS 2 - Cyrus 1 in play_on at cycle 1234 */
static void sample_show(void)
{
    memset(&show, 0, sizeof show);
    show.time = 1234;
    show.pmode = 3;
    strcpy(show.team[0], "HELIOS");
    strcpy(show.team[1], "Cyrus");
    show.score[0] = 2;
    show.score[1] = 1;
    show.bx = 1.03;   /* x16 = 16.48 -> 16;  x65536 = 67502.08 -> 67502 */
    show.by = -2.5;   /* x16 = -40;          x65536 = -163840 */
    show.bvx = 1.5;   /* x65536 = 98304 */
    for (int i = 0; i < DISP_PLAYERS; i++) {
        disp_player_t *p = &show.player[i];
        p->side = i < 11 ? 1 : -1;
        p->unum = i % 11 + 1;
        p->view_width = 90;
        p->view_high = 1;
    }
    disp_player_t *p = &show.player[0];
    p->enabled = 1;
    p->type = 3;
    p->state = 0x40009;          /* yellow card + goalie + stand: 16 bits keep 0x0009 */
    p->x = -50.12345;            /* x16 = -801.9752 -> -802 = 0xfcde */
    p->y = -50.5;                /* x65536 = -3309568 = 0xffcd8000 */
    p->body = M_PI / 2;          /* 90 degrees; x65536 = 102943.7 -> 102944 = 0x00019220 */
    p->neck = -M_PI / 4;         /* x65536 = -51471.85 -> -51472 = 0xffff36f0 */
    p->view_high = 0;
    p->stamina = 8000;           /* x65536 = 524288000 = 0x1f400000 */
    p->effort = 0.8;             /* 52428.8 -> 52429 = 0x0000cccd */
    p->recovery = 1;             /* 0x00010000 */
    for (int k = 0; k < DISP_CNT_N; k++)
        p->count[k] = 0;
    p->count[DISP_CNT_KICK] = 1;
    p->count[DISP_CNT_DASH] = 2;
    p->count[DISP_CNT_TURN] = 3;
    p->count[DISP_CNT_SAY] = 4;
    p->count[DISP_CNT_TURN_NECK] = 5;
    p->count[DISP_CNT_CATCH] = 6;
    p->count[DISP_CNT_MOVE] = 7;
    p->count[DISP_CNT_CHANGE_VIEW] = 8;
}

#define EXPECT_BYTES(off, ...) do { \
        const uint8_t want_[] = { __VA_ARGS__ }; \
        for (size_t k_ = 0; k_ < sizeof want_; k_++) \
            cr_expect_eq(out[(off) + k_], want_[k_], "byte %zu: 0x%02x, expected 0x%02x", \
                         (size_t)(off) + k_, out[(off) + k_], want_[k_]); \
    } while (0)

static int all_zero(size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (out[i])
            return 0;
    return 1;
}

Test(disp_bin, showinfo_v1_layout)
{
    sample_show();
    memset(out, 0xaa, sizeof out);
    cr_assert_eq(disp_bin_showinfo(&show, out), 316);
    EXPECT_BYTES(0, 3, 0);                                  /* pmode, pad */
    EXPECT_BYTES(2, 'H', 'E', 'L', 'I', 'O', 'S', 0, 0);    /* team[0].name */
    cr_expect(all_zero(8, 18));
    EXPECT_BYTES(18, 0, 2);                                 /* team[0].score */
    EXPECT_BYTES(20, 'C', 'y', 'r', 'u', 's', 0);
    EXPECT_BYTES(36, 0, 1);
    /* pos[0] = ball @38: only x, y */
    EXPECT_BYTES(38, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x10, 0xff, 0xd8);
    /* pos[1] = left 1 @50: enable 9, side 1, unum 1, angle 90, x -802, y -808 */
    EXPECT_BYTES(50, 0, 9, 0, 1, 0, 1, 0, 90, 0xfc, 0xde, 0xfc, 0xd8);
    /* pos[22] = right 11 @302: side -1, unum 11 */
    EXPECT_BYTES(302, 0, 0, 0xff, 0xff, 0, 11);
    EXPECT_BYTES(314, 0x04, 0xd2);                          /* time 1234 */
}

Test(disp_bin, showinfo_v1_long_team_name_and_saturation)
{
    sample_show();
    strcpy(show.team[0], "ABCDEFGHIJKLMNOP"); /* 16 chars: no terminator in team_t */
    show.player[1].x = 1e9;                    /* saturates instead of wrapping */
    show.player[1].y = NAN;
    cr_assert_eq(disp_bin_showinfo(&show, out), 316);
    EXPECT_BYTES(2, 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P');
    EXPECT_BYTES(18, 0, 2);
    EXPECT_BYTES(62 + 8, 0x7f, 0xff, 0, 0);
}

Test(disp_bin, showinfo2_layout)
{
    sample_show();
    memset(out, 0xaa, sizeof out);
    cr_assert_eq(disp_bin_showinfo2(&show, out), 1468);
    EXPECT_BYTES(0, 3, 0, 'H', 'E', 'L');
    EXPECT_BYTES(38, 0, 0);                                 /* pad after team[2] */
    /* ball @40: x 67502 = 0x000107ae, y -163840 = 0xfffd8000, vx 98304, vy 0 */
    EXPECT_BYTES(40, 0x00, 0x01, 0x07, 0xae, 0xff, 0xfd, 0x80, 0x00,
                 0x00, 0x01, 0x80, 0x00, 0, 0, 0, 0);
    /* player_t[0] @56 */
    EXPECT_BYTES(56, 0, 9, 0, 3);                           /* mode (16 bits), type */
    /* x -50.12345 x 65536 = -3284890.4 -> -3284890 = 0xffcde066 */
    EXPECT_BYTES(60, 0xff, 0xcd, 0xe0, 0x66, 0xff, 0xcd, 0x80, 0x00);
    EXPECT_BYTES(76, 0x00, 0x01, 0x92, 0x20);               /* body pi/2 */
    EXPECT_BYTES(80, 0xff, 0xff, 0x36, 0xf0);               /* neck -pi/4 */
    EXPECT_BYTES(84, 0x00, 0x01, 0x92, 0x20);               /* view width 90 deg = pi/2 */
    EXPECT_BYTES(88, 0, 0, 0, 0);                           /* view_quality low, pad */
    EXPECT_BYTES(92, 0x1f, 0x40, 0x00, 0x00, 0x00, 0x00, 0xcc, 0xcd, 0x00, 0x01, 0x00, 0x00);
    /* counters kick dash turn say turn_neck catch move change_view */
    EXPECT_BYTES(104, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8);
    /* player_t[1] @120: high quality */
    EXPECT_BYTES(120 + 32, 0, 1);
    EXPECT_BYTES(1464, 0x04, 0xd2, 0, 0);
}

Test(disp_bin, short_showinfo2_layout)
{
    sample_show();
    memset(out, 0xaa, sizeof out);
    cr_assert_eq(disp_bin_short_showinfo2(&show, out), 1428);
    EXPECT_BYTES(0, 0x00, 0x01, 0x07, 0xae);                /* ball first */
    EXPECT_BYTES(16, 0, 9, 0, 3, 0xff, 0xcd, 0xe0, 0x66);   /* player_t[0] */
    EXPECT_BYTES(16 + 48, 0, 1, 0, 2);
    EXPECT_BYTES(1424, 0x04, 0xd2, 0, 0);
}

Test(disp_bin, msginfo_and_datagrams)
{
    uint8_t body[DISP_MSGINFO_SIZE];
    memset(out, 0xaa, sizeof out);
    cr_assert_eq(disp_bin_msginfo(1, "(referee kick_off_l)", body), 2050);
    cr_assert_eq(disp_bin_v1(DISP_MSG_MODE, body, sizeof body, out), 2052);
    EXPECT_BYTES(0, 0, 2, 0, 1, '(', 'r', 'e');
    cr_expect(all_zero(2 + 2 + 20, 2052));
    memset(out, 0xaa, sizeof out);
    cr_assert_eq(disp_bin_v2(DISP_MSG_MODE, body, sizeof body, out), 2056);
    EXPECT_BYTES(0, 0, 2, 0, 0, 0, 1, '(', 'r');            /* mode, 2 pad bytes, board */
    cr_expect(all_zero(4 + 2 + 20, 2056));
    /* a text longer than the message field keeps 2047 chars and a NUL */
    char *big = malloc(3000);
    memset(big, 'x', 2999);
    big[2999] = '\0';
    disp_bin_msginfo(1, big, body);
    cr_expect_eq(body[2 + 2046], 'x');
    cr_expect_eq(body[2 + 2047], 0);
    free(big);
    uint8_t show2[DISP_SHOWINFO2_SIZE];
    sample_show();
    disp_bin_showinfo2(&show, show2);
    cr_assert_eq(disp_bin_v2(DISP_SHOW_MODE, show2, sizeof show2, out), 2056);
    EXPECT_BYTES(0, 0, 1, 0, 0, 3);
    cr_expect_eq(disp_bin_v1(DISP_SHOW_MODE, out, 2051, out + 4096 - 2052), 0, "too long");
}

Test(disp_bin, server_params_defaults)
{
    conf_t *c = malloc(sizeof *c);
    conf_defaults(c);
    memset(out, 0xaa, sizeof out);
    cr_assert_eq(disp_bin_server_params(c, out), 396);
    EXPECT_BYTES(0, 0x00, 0x0e, 0x05, 0x1e);     /* goal_width 14.02 x 65536 = 918814.72 -> 918814 */
    EXPECT_BYTES(32, 0x1f, 0x40, 0x00, 0x00);    /* stamina_max 8000 */
    EXPECT_BYTES(84, 0, 0);                      /* team_actuator_noise (short) */
    EXPECT_BYTES(144, 0x00, 0x01, 0xb3, 0x33);   /* control_radius - player_size = 1.7: 111411 */
    EXPECT_BYTES(180, 0x00, 0x5a, 0x00, 0x00);   /* visible_angle: degrees x 65536 */
    EXPECT_BYTES(204, 0x00, 0x01, 0x15, 0xc2);   /* kickable area 1.085: 71106.56 -> 71106 */
    EXPECT_BYTES(220, 0, 2);                     /* goalie_max_moves */
    EXPECT_BYTES(240, 0x01, 0x2c);               /* clang_win_size 300 */
    EXPECT_BYTES(254, 0x01, 0x2c, 0, 100, 0, 150, 0, 10, 0, 100, 0x01, 0x2c);
    /* half_time 300 s raw, sim 100, send 150, recv 10, sense_body 100, lcm 300 */
    EXPECT_BYTES(278, 0, 1, 0, 1, 0, 0);         /* use_offside, forbid_kick_off_offside, pad */
    EXPECT_BYTES(284, 0x00, 0x09, 0x26, 0x66);   /* offside_kick_margin 9.15: 599654.4 */
    EXPECT_BYTES(292, 0x00, 0x00, 0x19, 0x99);   /* quantize_step 0.1: 6553.6 -> 6553 */
    EXPECT_BYTES(296, 0x00, 0x00, 0x02, 0x8f);   /* quantize_step_l 0.01: 655.36 -> 655 */
    for (int off = 300; off <= 324; off += 4)    /* the seven others: -1 x 65536 */
        EXPECT_BYTES(off, 0xff, 0xff, 0x00, 0x00);
    EXPECT_BYTES(328, 0, 0, 0, 0, 0, 0, 0, 100); /* coach, coach_w_referee, old hear, send_vi_step */
    EXPECT_BYTES(336, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00); /* slowness l, r */
    EXPECT_BYTES(344, 0x00, 0x14, 0x00, 0x00);   /* keepaway_length 20 */
    EXPECT_BYTES(356, 0x00, 0x64, 0x00, 0x00);   /* max_tackle_power 100 */
    EXPECT_BYTES(372, 0x00, 0x01, 0x40, 0x00);   /* tackle_width 1.25 */
    EXPECT_BYTES(384, 0, 100, 0, 0, 0, 60, 0, 1, 0, 5, 0, 20);
    /* drop_ball_time, synch_mode, synch_offset, synch_micro_sleep, point_to_ban, _duration */
    free(c);
}

/* the reference fills both slowness_on_top fields of server_params_t with the left
 * team's value (a player of the right team learns his own from server_param) */
Test(disp_bin, server_params_slowness_left_twice)
{
    conf_t *c = malloc(sizeof *c);
    char err[256];
    conf_defaults(c);
    cr_assert_eq(conf_set(c, "server", "slowness_on_top_for_left_team", "0.5", err, sizeof err), 0,
                 "%s", err);
    cr_assert_eq(conf_set(c, "server", "slowness_on_top_for_right_team", "0.25", err, sizeof err),
                 0, "%s", err);
    memset(out, 0xaa, sizeof out);
    cr_assert_eq(disp_bin_server_params(c, out), 396);
    EXPECT_BYTES(336, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x80, 0x00); /* 0.5 x 65536, twice */
    free(c);
}

Test(disp_bin, player_params_defaults)
{
    conf_t *c = malloc(sizeof *c);
    conf_defaults(c);
    memset(out, 0xaa, sizeof out);
    cr_assert_eq(disp_bin_player_params(c, out), 132);
    EXPECT_BYTES(0, 0, 18, 0, 3, 0, 1, 0, 0);    /* player_types, subs_max, pt_max, pad */
    /* player_size_delta_factor -100: -6553600 + 0.5 truncated = -6553599 = 0xff9c0001 */
    EXPECT_BYTES(40, 0xff, 0x9c, 0x00, 0x01);
    /* kickable_margin_delta_min -0.1: -6553.6 + 0.5 -> -6553 = 0xffffe667; max 0.1 -> 6554 */
    EXPECT_BYTES(44, 0xff, 0xff, 0xe6, 0x67, 0x00, 0x00, 0x19, 0x9a);
    EXPECT_BYTES(56, 0x00, 0x00, 0x00, 0x00, 0x00, 0x32, 0x00, 0x00); /* extra_stamina 0, 50 */
    EXPECT_BYTES(72, 0xff, 0xff, 0xff, 0xff);    /* random_seed -1 unscaled */
    /* new_stamina_inc_max_delta_factor -6000: -393216000 + 0.5 -> -393215999 */
    EXPECT_BYTES(84, 0xe8, 0x90, 0x00, 0x01);
    EXPECT_BYTES(104, 0x00, 0x01, 0x4c, 0xcd);   /* catchable_area_l_stretch_max 1.3: 85197.3 */
    EXPECT_BYTES(108, 0, 0, 0, 0, 0, 0);         /* spare, allow_mult_default_type false */
    cr_expect(all_zero(114, 132));
    free(c);
}

Test(disp_bin, player_type_layout)
{
    disp_ptype_t t;
    memset(&t, 0, sizeof t);
    t.id = 5;
    t.v[0] = 1.05;       /* player_speed_max: 68812.8 -> 68813 = 0x00010ccd */
    t.v[2] = 0.4;        /* player_decay: 26214.4 -> 26214 = 0x00006666 */
    t.v[13] = 1.3;       /* catchable_area_l_stretch: 85196.8 -> 85197 */
    t.v[14] = 99;        /* observation lengths are not in player_type_t */
    memset(out, 0xaa, sizeof out);
    cr_assert_eq(disp_bin_player_type(&t, out), 88);
    EXPECT_BYTES(0, 0, 5, 0, 0, 0x00, 0x01, 0x0c, 0xcd, 0, 0, 0, 0, 0x00, 0x00, 0x66, 0x66);
    EXPECT_BYTES(56, 0x00, 0x01, 0x4c, 0xcd);
    cr_expect(all_zero(60, 88), "seven spare longs");
}

/* ---- reading back ---------------------------------------------------------------------
 * Each struct read back and written again gives the same bytes; the values come back at
 * the struct's precision (v1: x 16 and whole degrees; v2/v3: x 65536). */
Test(disp_bin, showinfo_read_back)
{
    static disp_show_t back;
    uint8_t again[DISP_SHOWINFO_SIZE];
    sample_show();
    disp_bin_showinfo(&show, out);
    disp_bin_read_showinfo(out, &back);
    disp_bin_showinfo(&back, again);
    cr_expect_eq(memcmp(out, again, DISP_SHOWINFO_SIZE), 0);
    cr_expect_eq(back.time, 1234);
    cr_expect_eq(back.pmode, 3);
    cr_expect_str_eq(back.team[0], "HELIOS");
    cr_expect_eq(back.score[1], 1);
    cr_expect_eq(back.bx, 16 / 16.0, "1.03 x 16 rounds to 16");
    cr_expect_eq(back.player[0].x, -802 / 16.0);
    cr_expect_eq(back.player[0].state, 0x9u, "16 bits of the flags");
    cr_expect_eq(back.player[0].enabled, 1);
    cr_expect(fabs(back.player[0].body - M_PI / 2) < 1e-12, "90 degrees");
    cr_expect_eq(back.player[12].side, -1);
    cr_expect_eq(back.player[12].unum, 2);
}

Test(disp_bin, showinfo2_and_short_showinfo2_read_back)
{
    static disp_show_t back;
    uint8_t again[DISP_SHOWINFO2_SIZE];
    sample_show();
    disp_bin_showinfo2(&show, out);
    disp_bin_read_showinfo2(out, &back);
    disp_bin_showinfo2(&back, again);
    cr_expect_eq(memcmp(out, again, DISP_SHOWINFO2_SIZE), 0);
    cr_expect_eq(back.player[0].type, 3);
    cr_expect_eq(back.player[0].y, -3309568 / 65536.0);
    cr_expect_eq(back.player[0].effort, 52429 / 65536.0);
    cr_expect_eq(back.player[0].count[DISP_CNT_CHANGE_VIEW], 8u);
    cr_expect_eq(back.player[0].view_high, 0);
    cr_expect(fabs(back.player[1].view_width - 90.0) < 1e-9, "degrees again");
    /* the short form keeps the play mode and teams the caller has (v3 log chunks) */
    disp_bin_short_showinfo2(&show, out);
    memset(&back, 0, sizeof back);
    back.pmode = 7;
    strcpy(back.team[0], "X");
    disp_bin_read_short_showinfo2(out, &back);
    cr_expect_eq(back.pmode, 7);
    cr_expect_str_eq(back.team[0], "X");
    cr_expect_eq(back.time, 1234);
    disp_bin_short_showinfo2(&back, again);
    cr_expect_eq(memcmp(out, again, DISP_SHORT_SHOWINFO2_SIZE), 0);
}

Test(disp_bin, msginfo_and_params_read_back)
{
    char text[DISP_MSG_TEXT_MAX + 1];
    disp_bin_msginfo(2, "(referee play_on)", out);
    cr_expect_eq(disp_bin_read_msginfo(out, text, sizeof text), 2);
    cr_expect_str_eq(text, "(referee play_on)");
    /* a message that fills all 2048 chars (no NUL, as the reference may write) */
    memset(out + 2, 'a', DISP_MSG_TEXT_MAX);
    disp_bin_read_msginfo(out, text, sizeof text);
    cr_expect_eq(strlen(text), (size_t)DISP_MSG_TEXT_MAX);

    /* the parameters the structs carry, at their precision (derived fields -- control
     * width, kickable area, the step lcm -- and constants are not read back) */
    static conf_t c, back;
    conf_defaults(&c);
    conf_defaults(&back);
    back.num[SP_half_time] = 1;
    back.num[SP_goal_width] = 1;
    disp_bin_server_params(&c, out);
    disp_bin_read_server_params(out, &back);
    cr_expect_eq(conf_int(&back, SP_half_time), 300);
    cr_expect_eq(conf_real(&back, SP_goal_width), 918814 / 65536.0, "truncated x 65536");
    cr_expect_eq(conf_real(&back, SP_ball_decay), (int)(0.94 * 65536) / 65536.0);
    cr_expect_eq(conf_bool(&back, SP_use_offside), 1);
    disp_bin_player_params(&c, out);
    disp_bin_read_player_params(out, &back);
    cr_expect_eq(conf_int(&back, PP_player_types), 18);
    cr_expect_eq(conf_real(&back, PP_player_decay_delta_max), (int)(0.1 * 65536 + 0.5) / 65536.0);
}
