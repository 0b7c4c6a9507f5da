/* test_disp_json.c -- JSON monitor frames and log objects against the forms of
 * docs/protocol/monitor.md §2-§5 and docs/protocol/logs.md §2: key order, nulls for missing teams, integers for
 * integral values, 6 significant digits, the monitor/log differences. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "disp_json.h"

static disp_show_t show;
static char buf[32768];

/* nobody connected: players off the pitch at (-3 unum, -37) / (3 unum, -37) */
static void empty_show(void)
{
    memset(&show, 0, sizeof show);
    show.pmode = 1;
    for (int i = 0; i < DISP_PLAYERS; i++) {
        disp_player_t *p = &show.player[i];
        p->side = i < 11 ? 1 : -1;
        p->unum = i % 11 + 1;
        p->x = 3.0 * p->side * -1 * p->unum;
        p->y = -37;
        p->view_high = 1;
        p->view_width = 90;
        p->stamina = 8000;
        p->effort = 1;
        p->recovery = 1;
        p->capacity = 130600;
    }
}

Test(disp_json, empty_show_monitor_form)
{
    empty_show();
    int n = disp_json_show(&show, 0, buf, sizeof buf);
    cr_assert_gt(n, 0);
    cr_expect_eq((size_t)n, strlen(buf));
    const char *want =
        "{\"show\":{\"time\":0,\"mode\":\"before_kick_off\",\"team\":{\"l\":{\"name\":null,"
        "\"score\":0},\"r\":{\"name\":null,\"score\":0}},\"ball\":{\"x\":0,\"y\":0,\"vx\":0,"
        "\"vy\":0},\"players\":[{\"side\":\"l\",\"unum\":1,\"type\":0,\"state\":0,\"x\":-3,"
        "\"y\":-37,\"vx\":0,\"vy\":0,\"body\":0,\"neck\":0,\"vq\":\"h\",\"vw\":90,\"fdist\":0,"
        "\"fdir\":0,\"stamina\":8000,\"effort\":1,\"recovery\":1,\"capacity\":130600},";
    cr_expect(strncmp(buf, want, strlen(want)) == 0, "%.400s", buf);
    cr_expect(strstr(buf, "\"kick\"") == NULL, "no counters in the monitor JSON");
    cr_expect_str_eq(buf + n - 4, "}]}}");
    json_error_t e;
    json_t *root = json_loads(buf, 0, &e);
    cr_assert_not_null(root, "%s", e.text);
    cr_expect_eq(json_array_size(json_object_get(json_object_get(root, "show"), "players")), 22);
    json_decref(root);
}

Test(disp_json, connected_player_and_penalties)
{
    empty_show();
    strcpy(show.team[0], "HELIOS");
    strcpy(show.team[1], "Cyrus");
    show.score[0] = 2;
    show.pen_score[0] = 3;
    show.pen_miss[0] = 1;
    show.time = 6000;
    show.stime = 12;
    show.pmode = 3;
    show.bx = 1.234567;   /* quantised to 0.0001: 1.2346 */
    disp_player_t *p = &show.player[0];
    p->enabled = 1;
    p->state = 0x9;
    p->body = M_PI / 3;   /* 60 degrees */
    p->pointing = 1;
    p->point_x = 10.5;
    p->point_y = -3.25;
    p->focus_side = -1;
    p->focus_unum = 7;
    p->stamina = 7999.123456; /* 6 significant digits: 7999.12 */
    cr_assert_gt(disp_json_show(&show, 0, buf, sizeof buf), 0);
    cr_expect(strstr(buf, "{\"show\":{\"time\":6000,\"stime\":12,\"mode\":\"play_on\","
                          "\"team\":{\"l\":{\"name\":\"HELIOS\",\"score\":2,\"pen_score\":3,"
                          "\"pen_miss\":1},\"r\":{\"name\":\"Cyrus\",\"score\":0}},"
                          "\"ball\":{\"x\":1.2346,") == buf, "%.300s", buf);
    cr_expect(strstr(buf, "\"state\":9,") != NULL, "state in decimal");
    cr_expect(strstr(buf, "\"body\":60,\"neck\":0,\"px\":10.5,\"py\":-3.25,\"vq\":\"h\"") != NULL,
              "%.600s", buf);
    cr_expect(strstr(buf, "\"stamina\":7999.12,") != NULL);
    cr_expect(strstr(buf, "\"capacity\":130600,\"fside\":\"r\",\"fnum\":7}") != NULL);
}

Test(disp_json, log_form_has_counters_not_mode_team_or_focus_point)
{
    empty_show();
    show.player[0].count[DISP_CNT_KICK] = 4;
    show.player[0].count[DISP_CNT_CHANGE_FOCUS] = 2;
    cr_assert_gt(disp_json_show(&show, DISP_JSON_LOG, buf, sizeof buf), 0);
    cr_expect(strncmp(buf, "{\"show\":{\"time\":0,\"ball\":", 25) == 0, "%.100s", buf);
    cr_expect(strstr(buf, "\"mode\"") == NULL);
    cr_expect(strstr(buf, "\"fdist\"") == NULL);
    cr_expect(strstr(buf, "\"capacity\":130600,\"kick\":4,\"dash\":0,\"turn\":0,\"catch\":0,"
                          "\"move\":0,\"turn_neck\":0,\"change_view\":0,\"say\":0,\"tackle\":0,"
                          "\"pointto\":0,\"attentionto\":0,\"change_focus\":2}") != NULL,
              "%.500s", buf);
}

Test(disp_json, msg_escapes_and_team_graphic)
{
    cr_assert_gt(disp_json_msg(10, 0, 1, "(referee \"goal_l\")", buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "{\"msg\":{\"time\":10,\"board\":1,\"message\":\"(referee \\\"goal_l\\\")\"}}");
    cr_assert_gt(disp_json_msg(10, 3, 1, "x", buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "{\"msg\":{\"time\":10,\"stime\":3,\"board\":1,\"message\":\"x\"}}");
    cr_assert_gt(disp_json_team_graphic(-1, 3, 7, "\"8 8 2 1\" \"  c None\" \"........\"", buf,
                                        sizeof buf), 0);
    cr_expect_str_eq(buf, "{\"team_graphic\":{\"side\":\"r\",\"x\":3,\"y\":7,\"xpm\":"
                          "[\"8 8 2 1\",\"  c None\",\"........\"]}}");
    cr_expect_eq(disp_json_msg(10, 0, 1, "(referee kick_off_l)", buf, 20), -1, "too small");
}

Test(disp_json, parameters_and_player_type)
{
    conf_t *c = malloc(sizeof *c);
    conf_defaults(c);
    cr_assert_gt(disp_json_server_param(c, buf, sizeof buf), 0);
    cr_expect(strncmp(buf, "{\"server_param\":{\"audio_cut_dist\":50,\"auto_mode\":false,", 55) == 0,
              "%.100s", buf);
    cr_expect(strstr(buf, "\"goal_width\":14.02,") != NULL);
    cr_expect(strstr(buf, "\"max_monitors\":-1,") != NULL, "the 999 parameters too");
    cr_expect(strstr(buf, "\"coach_msg_file\":\"\",") != NULL);
    cr_expect(strstr(buf, "\"bind_address\"") == NULL, "never this server's extensions");
    cr_assert_gt(disp_json_player_param(c, buf, sizeof buf), 0);
    cr_expect(strstr(buf, "{\"player_param\":{\"allow_mult_default_type\":false,") == buf);
    cr_expect(strstr(buf, "\"player_types\":18,") != NULL);
    disp_ptype_t t;
    memset(&t, 0, sizeof t);
    t.id = 2;
    t.v[0] = 1.05;
    cr_assert_gt(disp_json_player_type(&t, buf, sizeof buf), 0);
    cr_expect(strstr(buf, "{\"player_type\":{\"id\":2,\"player_speed_max\":1.05,\"stamina_inc_max\":0,")
              == buf, "%s", buf);
    cr_expect(strstr(buf, "\"land_focus_dist_noise_rate\":0}}") != NULL);
    free(c);
}

Test(disp_json, log_playmode_and_team)
{
    empty_show();
    show.time = 5;
    show.pmode = 4;
    strcpy(show.team[0], "A");
    cr_assert_gt(disp_json_playmode(&show, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "{\"playmode\":{\"time\":5,\"mode\":\"kick_off_l\"}}");
    cr_assert_gt(disp_json_team(&show, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "{\"team\":{\"time\":5,\"l\":{\"name\":\"A\",\"score\":0},"
                          "\"r\":{\"name\":null,\"score\":0}}}");
}
