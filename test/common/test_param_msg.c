/* test_param_msg.c -- server_param / player_param / player_type messages: v7 positional
 * counts and derived values, v8+ named pairs filtered by version tag, buffer limits. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "param_msg.h"

#define BIG 16384

static conf_t *fresh(void)
{
    conf_t *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    conf_defaults(c);
    return c;
}

/* number of blank-separated values after the head word of "(head v1 v2 ...)" */
static int count_values(const char *msg)
{
    int n = 0;
    const char *p = strchr(msg, ' ');
    while (p && *p && *p != ')') {
        while (*p == ' ')
            p++;
        if (*p == ')' || !*p)
            break;
        n++;
        while (*p && *p != ' ' && *p != ')')
            p++;
    }
    return n;
}

/* the i-th (0-based) value of a positional message, as text */
static void nth_value(const char *msg, int i, char *out, size_t len)
{
    const char *p = strchr(msg, ' ');
    for (int k = 0; k <= i && p; k++) {
        while (*p == ' ')
            p++;
        const char *s = p;
        while (*p && *p != ' ' && *p != ')')
            p++;
        if (k == i) {
            snprintf(out, len, "%.*s", (int)(p - s), s);
            return;
        }
    }
    out[0] = '\0';
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int count_pairs(const char *msg)
{
    int n = 0;
    for (const char *p = msg + 1; *p; p++)
        n += *p == '(';
    return n;
}

Test(param_msg, v7_server_positional)
{
    conf_t *c = fresh();
    char *buf = malloc(BIG), v[64];
    int n = param_msg_server(c, 7.0, buf, BIG);
    cr_assert_gt(n, 0);
    cr_assert_eq((size_t)n, strlen(buf));
    cr_assert(starts(buf, "(server_param 14.02 5 0.3 0.4 0.1 60 1.05 1 8000 45 1 0.3"),
              "%s", buf);
    cr_assert_eq(count_values(buf), 103, "%s", buf);
    cr_assert_eq(buf[n - 1], ')');
    nth_value(buf, 36, v, sizeof v);
    cr_assert_str_eq(v, "1.7", "control_radius_width");
    nth_value(buf, 51, v, sizeof v);
    cr_assert_str_eq(v, "1.085", "kickable_area");
    nth_value(buf, 69, v, sizeof v);
    cr_assert_str_eq(v, "3000", "half_time in cycles");
    nth_value(buf, 74, v, sizeof v);
    cr_assert_str_eq(v, "300", "lcm_step");
    for (int i = 87; i < 94; i++) {
        nth_value(buf, i, v, sizeof v);
        cr_assert_str_eq(v, "-1", "placeholder %d", i);
    }
    nth_value(buf, 102, v, sizeof v);
    cr_assert_str_eq(v, "100", "drop_ball_time last");
    cr_assert_null(strstr(buf, "(port"));
    free(buf);
    free(c);
}

Test(param_msg, v7_slow_down_and_half_time)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN], *buf = malloc(BIG), v[64];
    cr_assert_eq(conf_parse_text(c, "server::slow_down_factor=2 server::half_time=60 "
                                    "server::simulator_step=50", "t", NULL, err, sizeof err,
                                 NULL, 0), 0, "%s", err);
    cr_assert_gt(param_msg_server(c, 7.9, buf, BIG), 0);
    nth_value(buf, 69, v, sizeof v);
    cr_assert_str_eq(v, "1200", "60 s at 50 ms");
    nth_value(buf, 70, v, sizeof v);
    cr_assert_str_eq(v, "100", "simulator_step x slow_down");
    nth_value(buf, 71, v, sizeof v);
    cr_assert_str_eq(v, "300", "send_step x slow_down");
    nth_value(buf, 72, v, sizeof v);
    cr_assert_str_eq(v, "10", "recv_step unchanged");
    nth_value(buf, 97, v, sizeof v);
    cr_assert_str_eq(v, "200", "send_vi_step x slow_down");
    /* v8 keeps seconds and raw steps */
    cr_assert_gt(param_msg_server(c, 8, buf, BIG), 0);
    cr_assert(strstr(buf, "(half_time 60)"));
    cr_assert(strstr(buf, "(simulator_step 50)"));
    free(buf);
    free(c);
}

Test(param_msg, v7_player_and_type)
{
    conf_t *c = fresh();
    char *buf = malloc(BIG);
    cr_assert_gt(param_msg_player(c, 7, buf, BIG), 0);
    cr_assert_eq(count_values(buf), 19, "%s", buf);
    cr_assert(starts(buf, "(player_param 18 3 1 0 0 0 -0.1 0.1 25 "), "%s", buf);
    shm_ptype_sh_t t;
    memset(&t, 0, sizeof t);
    t.player_speed_max = 1.05;
    t.stamina_inc_max = 45;
    t.player_decay = 0.4;
    t.inertia_moment = 5;
    t.dash_power_rate = 0.006;
    t.player_size = 0.3;
    t.kickable_margin = 0.7;
    t.kick_rand = 0.1;
    t.extra_stamina = 50;
    t.effort_max = 1;
    t.effort_min = 0.6;
    cr_assert_gt(param_msg_type(&t, 0, 7, buf, BIG), 0);
    cr_assert_str_eq(buf, "(player_type 0 1.05 45 0.4 5 0.006 0.3 0.7 0.1 50 1 0.6)");
    free(buf);
    free(c);
}

Test(param_msg, v8_named_by_version)
{
    conf_t *c = fresh();
    char *buf = malloc(BIG);
    int n = param_msg_server(c, 8, buf, BIG);
    cr_assert_gt(n, 0);
    cr_assert(starts(buf, "(server_param (audio_cut_dist 50)(back_passes 1)"),
              "%s", buf);
    cr_assert(strstr(buf, "(port 6000)"));
    cr_assert(strstr(buf, "(game_log_dir \"./\")"));
    cr_assert_null(strstr(buf, "(auto_mode"), "tag 9");
    cr_assert_null(strstr(buf, ") ("), "no separators");
    cr_assert(strstr(buf, "(half_time 300)"));
    cr_assert_gt(param_msg_server(c, 9.1, buf, BIG), 0);
    cr_assert(strstr(buf, "(auto_mode 0)"));
    cr_assert_null(strstr(buf, "(dist_noise_rate"));
    cr_assert_gt(param_msg_server(c, 19, buf, BIG), 0);
    cr_assert_eq(count_pairs(buf), 200, "%s", buf);
    cr_assert(strstr(buf, "(dist_noise_rate 0.0125)"));
    cr_assert_null(strstr(buf, "(max_monitors"));
    cr_assert_null(strstr(buf, "(coach_msg_file"));
    cr_assert_gt(param_msg_server(c, PARAM_MSG_ALL, buf, BIG), 0);
    cr_assert_eq(count_pairs(buf), 202);
    cr_assert(strstr(buf, "(max_monitors -1)"));
    cr_assert(strstr(buf, "(coach_msg_file \"\")"));
    cr_assert_null(strstr(buf, "bind_address"));
    cr_assert_null(strstr(buf, "shm_name"));
    cr_assert_null(strstr(buf, "netgw_processes"));
    cr_assert_null(strstr(buf, "(random_seed"), "server::random_seed is an extension");
    free(buf);
    free(c);
}

Test(param_msg, v8_alphabetical)
{
    conf_t *c = fresh();
    char *buf = malloc(BIG);
    const char *msgs[2] = { "server", "player" };
    for (int m = 0; m < 2; m++) {
        if (m == 0)
            cr_assert_gt(param_msg_server(c, PARAM_MSG_ALL, buf, BIG), 0);
        else
            cr_assert_gt(param_msg_player(c, PARAM_MSG_ALL, buf, BIG), 0);
        char prev[64] = "";
        int k = 0;
        for (const char *p = strchr(buf + 1, '('); p; p = strchr(p + 1, '(')) {
            char name[64];
            cr_assert_eq(sscanf(p, "(%63[^ )]", name), 1);
            cr_assert_lt(strcmp(prev, name), 0, "%s: %s before %s", msgs[m], prev, name);
            snprintf(prev, sizeof prev, "%s", name);
            k++;
        }
        cr_assert_eq(k, m == 0 ? 202 : 29);
    }
    free(buf);
    free(c);
}

Test(param_msg, player_param_versions)
{
    conf_t *c = fresh();
    char *buf = malloc(BIG);
    cr_assert_gt(param_msg_player(c, 8, buf, BIG), 0);
    cr_assert(strstr(buf, "(random_seed -1)"));
    cr_assert(strstr(buf, "(new_dash_power_rate_delta_max 0.0008)"));
    cr_assert_null(strstr(buf, "allow_mult_default_type"));
    cr_assert_eq(count_pairs(buf), 23, "%s", buf);
    cr_assert_gt(param_msg_player(c, 19, buf, BIG), 0);
    cr_assert_eq(count_pairs(buf), 29);
    cr_assert(strstr(buf, "(allow_mult_default_type 0)"));
    free(buf);
    free(c);
}

Test(param_msg, player_type_versions)
{
    shm_ptype_sh_t t;
    memset(&t, 0, sizeof t);
    t.player_speed_max = 1.05;
    t.kick_power_rate = 0.027;
    t.team_far_length = 125.1;
    t.land_focus_dist_noise_rate = 0.00125;
    char *buf = malloc(BIG);
    cr_assert_gt(param_msg_type(&t, 3, 8, buf, BIG), 0);
    cr_assert(starts(buf, "(player_type (id 3)(player_speed_max 1.05)(stamina_inc_max 0)"),
              "%s", buf);
    cr_assert_eq(count_pairs(buf), 12);
    cr_assert(strstr(buf, "(effort_min 0))"));
    cr_assert_gt(param_msg_type(&t, 3, 14, buf, BIG), 0);
    cr_assert_eq(count_pairs(buf), 15);
    cr_assert(strstr(buf, "(kick_power_rate 0.027)(foul_detect_probability 0)"
                          "(catchable_area_l_stretch 0))"));
    cr_assert_gt(param_msg_type(&t, 3, 18.5, buf, BIG), 0);
    cr_assert_eq(count_pairs(buf), 26);
    cr_assert(strstr(buf, "(team_far_length 125.1)"));
    cr_assert(strstr(buf, "(flag_max_observation_length 0))"));
    cr_assert_gt(param_msg_type(&t, 3, 19, buf, BIG), 0);
    cr_assert_eq(count_pairs(buf), 30);
    cr_assert(strstr(buf, "(dist_noise_rate 0)(focus_dist_noise_rate 0)(land_dist_noise_rate 0)"
                          "(land_focus_dist_noise_rate 0.00125))"), "%s", buf);
    free(buf);
}

Test(param_msg, buffer_too_small)
{
    conf_t *c = fresh();
    char *buf = malloc(BIG);
    shm_ptype_sh_t t;
    memset(&t, 0, sizeof t);
    int full = param_msg_server(c, 19, buf, BIG);
    cr_assert_gt(full, 0);
    /* exactly enough (message + NUL) works, one less fails */
    cr_assert_eq(param_msg_server(c, 19, buf, (size_t)full + 1), full);
    cr_assert_eq(param_msg_server(c, 19, buf, (size_t)full), -1);
    cr_assert_eq(buf[0], '\0');
    cr_assert_eq(param_msg_server(c, 7, buf, 20), -1);
    cr_assert_eq(param_msg_player(c, 19, buf, 20), -1);
    cr_assert_eq(param_msg_player(c, 7, buf, 20), -1);
    cr_assert_eq(param_msg_type(&t, 0, 19, buf, 20), -1);
    cr_assert_eq(param_msg_type(&t, 0, 7, buf, 20), -1);
    cr_assert_eq(param_msg_server(c, 19, buf, 0), -1);
    free(buf);
    free(c);
}

Test(param_msg, hostile_steps_do_not_overflow)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN], *buf = malloc(BIG);
    cr_assert_eq(conf_parse_text(c, "server::simulator_step=2147483647 server::slow_down_factor="
                                    "2147483647 server::send_step=2147483629 "
                                    "server::sense_body_step=0 server::recv_step=-5 "
                                    "server::half_time=-2147483648", "t", NULL, err,
                                 sizeof err, NULL, 0), 0, "%s", err);
    cr_assert_gt(param_msg_server(c, 7, buf, BIG), 0);
    cr_assert_eq(count_values(buf), 103);
    free(buf);
    free(c);
}

/* Every version boundary of the named lists (docs/protocol/player.md §4, the registration
 * version of each parameter): the first parameter(s) of each version appear from that
 * version on and not one version before. */
Test(param_msg, every_version_boundary)
{
    static const struct {
        int         version;
        const char *server[3];     /* server_param names new in this version */
        const char *player;        /* player_param name new in this version, or NULL */
    } b[] = {
        { 9,  { "(auto_mode ", "(nr_extra_halfs ", "(recover_init " }, NULL },
        { 11, { "(ball_stuck_area ", NULL, NULL }, NULL },
        { 12, { "(synch_see_offset ", "(max_tackle_power ", "(extra_stamina " },
          "(allow_mult_default_type " },
        { 13, { "(stamina_capacity ", "(max_dash_angle ", "(extra_half_time " }, NULL },
        { 14, { "(golden_goal ", "(foul_cycles ", "(tackle_rand_factor " },
          "(kick_power_rate_delta_min " },
        { 15, { "(red_card_probability ", NULL, NULL }, NULL },
        { 16, { "(fixed_teamname_l ", "(illegal_defense_number ", NULL }, NULL },
        { 17, { "(max_catch_angle ", "(min_catch_angle ", NULL }, NULL },
        { 19, { "(dist_noise_rate ", "(land_focus_dist_noise_rate ", NULL }, NULL },
    };
    conf_t *c = fresh();
    char *now = malloc(BIG), *before = malloc(BIG);
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        int v = b[i].version;
        cr_assert_gt(param_msg_server(c, v, now, BIG), 0);
        cr_assert_gt(param_msg_server(c, v - 1, before, BIG), 0);
        for (int k = 0; k < 3 && b[i].server[k]; k++) {
            cr_assert(strstr(now, b[i].server[k]), "v%d has %s", v, b[i].server[k]);
            cr_assert_null(strstr(before, b[i].server[k]), "v%d has no %s", v - 1,
                           b[i].server[k]);
        }
        /* nothing goes away from one version to the next */
        cr_assert_gt(count_pairs(now), count_pairs(before), "v%d", v);
        if (!b[i].player)
            continue;
        cr_assert_gt(param_msg_player(c, v, now, BIG), 0);
        cr_assert_gt(param_msg_player(c, v - 1, before, BIG), 0);
        cr_assert(strstr(now, b[i].player), "v%d has %s", v, b[i].player);
        cr_assert_null(strstr(before, b[i].player), "v%d", v - 1);
    }
    /* v7 is positional, v8 the first named list: port and the v8 player params */
    cr_assert_gt(param_msg_server(c, 8, now, BIG), 0);
    cr_assert(strstr(now, "(port 6000)") && strstr(now, "(tackle_cycles 10)"));
    cr_assert_gt(param_msg_server(c, 7, now, BIG), 0);
    cr_assert_null(strstr(now, "(port"));
    free(now);
    free(before);
    free(c);
}
