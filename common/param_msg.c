/* param_msg.c -- (server_param ...), (player_param ...) and (player_type ...) messages.
 * v7 clients get fixed positional lists (docs/protocol/player.md §4); v8+ get (name value)
 * pairs in params.def order (alphabetical per module), filtered by version tag. Used by
 * netgw (players, coaches), monitorgw and the game/text log writers. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "param_msg.h"
#include "playmode.h"
#include "strbuf.h"

static int finish(strbuf_t *o)
{
    if (o->overflow) {
        if (o->len)
            o->buf[0] = '\0';
        return -1;
    }
    return (int)o->pos;
}

/* v7 server_param: the derived and positional entries. */
enum { V7_PARAM, V7_CTRL_WIDTH, V7_KICKABLE_AREA, V7_HALF_CYCLES, V7_STEP_SLOW, V7_LCM,
       V7_MINUS_ONE };

typedef struct v7_item {
    int kind;
    int id;
} v7_item_t;

#define P(n)  { V7_PARAM, SP_##n }
#define S(n)  { V7_STEP_SLOW, SP_##n }
static const v7_item_t v7_server[] = {
    P(goal_width), P(inertia_moment), P(player_size), P(player_decay), P(player_rand),
    P(player_weight), P(player_speed_max), P(player_accel_max), P(stamina_max),
    P(stamina_inc_max), P(recover_init), P(recover_dec_thr), P(recover_min), P(recover_dec),
    P(effort_init), P(effort_dec_thr), P(effort_min), P(effort_dec), P(effort_inc_thr),
    P(effort_inc), P(kick_rand), P(team_actuator_noise), P(prand_factor_l),
    P(prand_factor_r), P(kick_rand_factor_l), P(kick_rand_factor_r), P(ball_size),
    P(ball_decay), P(ball_rand), P(ball_weight), P(ball_speed_max), P(ball_accel_max),
    P(dash_power_rate), P(kick_power_rate), P(kickable_margin), P(control_radius),
    { V7_CTRL_WIDTH, 0 }, P(maxpower), P(minpower), P(maxmoment), P(minmoment),
    P(maxneckmoment), P(minneckmoment), P(maxneckang), P(minneckang), P(visible_angle),
    P(visible_distance), P(wind_dir), P(wind_force), P(wind_ang), P(wind_rand),
    { V7_KICKABLE_AREA, 0 }, P(catchable_area_l), P(catchable_area_w),
    P(catch_probability), P(goalie_max_moves), P(ckick_margin),
    P(offside_active_area_size), P(wind_none), P(wind_random), P(say_coach_cnt_max),
    P(say_coach_msg_size), P(clang_win_size), P(clang_define_win), P(clang_meta_win),
    P(clang_advice_win), P(clang_info_win), P(clang_mess_delay), P(clang_mess_per_cycle),
    { V7_HALF_CYCLES, SP_half_time }, S(simulator_step), S(send_step), P(recv_step),
    S(sense_body_step), { V7_LCM, 0 }, P(say_msg_size), P(hear_max), P(hear_inc),
    P(hear_decay), P(catch_ban_cycle), P(slow_down_factor), P(use_offside),
    P(forbid_kick_off_offside), P(offside_kick_margin), P(audio_cut_dist),
    P(quantize_step), P(quantize_step_l),
    { V7_MINUS_ONE, 0 }, { V7_MINUS_ONE, 0 }, { V7_MINUS_ONE, 0 }, { V7_MINUS_ONE, 0 },
    { V7_MINUS_ONE, 0 }, { V7_MINUS_ONE, 0 }, { V7_MINUS_ONE, 0 },
    P(coach), P(coach_w_referee), P(old_coach_hear), S(send_vi_step), P(start_goal_l),
    P(start_goal_r), P(fullstate_l), P(fullstate_r), P(drop_ball_time),
};
#undef P
#undef S

static const int v7_player[] = {
    PP_player_types, PP_subs_max, PP_pt_max, PP_player_speed_max_delta_min,
    PP_player_speed_max_delta_max, PP_stamina_inc_max_delta_factor,
    PP_player_decay_delta_min, PP_player_decay_delta_max, PP_inertia_moment_delta_factor,
    PP_dash_power_rate_delta_min, PP_dash_power_rate_delta_max, PP_player_size_delta_factor,
    PP_kickable_margin_delta_min, PP_kickable_margin_delta_max, PP_kick_rand_delta_factor,
    PP_extra_stamina_delta_min, PP_extra_stamina_delta_max, PP_effort_max_delta_factor,
    PP_effort_min_delta_factor,
};

static long long gcd_ll(long long a, long long b)
{
    while (b) {
        long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* lcm of the (slowed-down) step lengths; non-positive steps are ignored, capped at
 * INT_MAX so hostile configurations cannot overflow */
static long long v7_lcm(const conf_t *c)
{
    long long slow = conf_int(c, SP_slow_down_factor);
    long long steps[] = {
        conf_int(c, SP_simulator_step) * slow, conf_int(c, SP_sense_body_step) * slow,
        conf_int(c, SP_send_step) * slow, conf_int(c, SP_send_vi_step) * slow,
        conf_int(c, SP_recv_step),
    };
    long long l = 1;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        if (steps[i] <= 0 || steps[i] > 2147483647LL)
            continue;
        l = l / gcd_ll(l, steps[i]) * steps[i];
        if (l > 2147483647LL)
            return 2147483647LL;
    }
    return l;
}

static void put_param(strbuf_t *o, const conf_t *c, int id)
{
    char tmp[CONF_STR_LEN + 16];
    conf_format_value(c, (param_id_t)id, 0, tmp, sizeof tmp);
    strbuf_printf(o, " %s", tmp);
}

static void v7_server_item(strbuf_t *o, const conf_t *c, const v7_item_t *it)
{
    switch (it->kind) {
    case V7_PARAM:
        put_param(o, c, it->id);
        break;
    case V7_CTRL_WIDTH:
        strbuf_real(o, conf_real(c, SP_control_radius) - conf_real(c, SP_player_size));
        break;
    case V7_KICKABLE_AREA:
        strbuf_real(o, conf_real(c, SP_player_size) + conf_real(c, SP_kickable_margin)
                        + conf_real(c, SP_ball_size));
        break;
    case V7_HALF_CYCLES: {
        double step = conf_real(c, SP_simulator_step);
        double cyc = step > 0 ? conf_real(c, SP_half_time) * 1000.0 / step : 0.0;
        strbuf_printf(o, " %lld", (long long)llround(cyc));
        break;
    }
    case V7_STEP_SLOW:
        strbuf_printf(o, " %lld", (long long)conf_int(c, it->id) * conf_int(c, SP_slow_down_factor));
        break;
    case V7_LCM:
        strbuf_printf(o, " %lld", v7_lcm(c));
        break;
    default:
        strbuf_printf(o, " -1");
        break;
    }
}

/* v8+: every parameter of module with 0 < tag <= version. */
static void named_params(strbuf_t *o, const conf_t *c, const char *module, double version)
{
    int v = (int)version;
    for (int i = 0; i < PARAM_COUNT; i++) {
        const param_def_t *d = &param_defs[i];
        if (d->tag == PARAM_TAG_EXTENSION || d->tag > v || strcmp(d->module, module) != 0)
            continue;
        char tmp[CONF_STR_LEN + 16];
        conf_format_value(c, (param_id_t)i, 0, tmp, sizeof tmp);
        strbuf_printf(o, "(%s %s)", d->name, tmp);
    }
}

int param_msg_server(const conf_t *c, double version, char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    if (!buf || !len)
        return -1;
    buf[0] = '\0';
    strbuf_printf(&o, "(server_param");
    if ((int)version < 8) {
        for (size_t i = 0; i < sizeof v7_server / sizeof v7_server[0]; i++)
            v7_server_item(&o, c, &v7_server[i]);
    } else {
        strbuf_printf(&o, " ");
        named_params(&o, c, "server", version);
    }
    strbuf_printf(&o, ")");
    return finish(&o);
}

int param_msg_player(const conf_t *c, double version, char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    if (!buf || !len)
        return -1;
    buf[0] = '\0';
    strbuf_printf(&o, "(player_param");
    if ((int)version < 8) {
        for (size_t i = 0; i < sizeof v7_player / sizeof v7_player[0]; i++)
            put_param(&o, c, v7_player[i]);
    } else {
        strbuf_printf(&o, " ");
        named_params(&o, c, "player", version);
    }
    strbuf_printf(&o, ")");
    return finish(&o);
}

int param_msg_type(const shm_ptype_sh_t *t, int id, double version, char *buf, size_t len)
{
    static const char *const names[] = {
        "player_speed_max", "stamina_inc_max", "player_decay", "inertia_moment",
        "dash_power_rate", "player_size", "kickable_margin", "kick_rand", "extra_stamina",
        "effort_max", "effort_min",
        "kick_power_rate", "foul_detect_probability", "catchable_area_l_stretch",
        "unum_far_length", "unum_too_far_length", "team_far_length", "team_too_far_length",
        "player_max_observation_length", "ball_vel_far_length", "ball_vel_too_far_length",
        "ball_max_observation_length", "flag_chg_far_length", "flag_chg_too_far_length",
        "flag_max_observation_length",
        "dist_noise_rate", "focus_dist_noise_rate", "land_dist_noise_rate",
        "land_focus_dist_noise_rate",
    };
    const double vals[] = {
        t->player_speed_max, t->stamina_inc_max, t->player_decay, t->inertia_moment,
        t->dash_power_rate, t->player_size, t->kickable_margin, t->kick_rand,
        t->extra_stamina, t->effort_max, t->effort_min,
        t->kick_power_rate, t->foul_detect_probability, t->catchable_area_l_stretch,
        t->unum_far_length, t->unum_too_far_length, t->team_far_length,
        t->team_too_far_length, t->player_max_observation_length, t->ball_vel_far_length,
        t->ball_vel_too_far_length, t->ball_max_observation_length, t->flag_chg_far_length,
        t->flag_chg_too_far_length, t->flag_max_observation_length,
        t->dist_noise_rate, t->focus_dist_noise_rate, t->land_dist_noise_rate,
        t->land_focus_dist_noise_rate,
    };
    _Static_assert(sizeof names / sizeof names[0] == 29, "player_type field names");
    strbuf_t o = { buf, len, 0, 0 };
    if (!buf || !len || !t)
        return -1;
    buf[0] = '\0';
    int v = (int)version;
    if (v < 8) {
        strbuf_printf(&o, "(player_type %d", id);
        for (int i = 0; i < 11; i++)
            strbuf_real(&o, vals[i]);
        strbuf_printf(&o, ")");
        return finish(&o);
    }
    size_t n = v >= 19 ? 29 : v >= 18 ? 25 : v >= 14 ? 14 : 11;
    strbuf_printf(&o, "(player_type (id %d)", id);
    for (size_t i = 0; i < n; i++) {
        char tmp[64];
        fmt_real(tmp, sizeof tmp, vals[i]);
        strbuf_printf(&o, "(%s %s)", names[i], tmp);
    }
    strbuf_printf(&o, ")");
    return finish(&o);
}
