/* disp_bin.c -- monitor protocol 1/2 and binary game-log structs, written byte by byte
 * (docs/protocol/monitor.md §4, §9; docs/protocol/logs.md §2). Big-endian integers; pad bytes are
 * zero; out-of-range values saturate instead of wrapping (the reference's casts are
 * undefined there). Used by monitorgw, and by the game-log recorder. */
#include <math.h>
#include <string.h>
#include "disp_bin.h"

/* ---- scalars ---------------------------------------------------------------------- */
static void put16(uint8_t *p, long v)
{
    uint16_t u = (uint16_t)(int16_t)v;
    p[0] = (uint8_t)(u >> 8);
    p[1] = (uint8_t)u;
}

static void put32(uint8_t *p, long long v)
{
    uint32_t u = (uint32_t)(int32_t)v;
    p[0] = (uint8_t)(u >> 24);
    p[1] = (uint8_t)(u >> 16);
    p[2] = (uint8_t)(u >> 8);
    p[3] = (uint8_t)u;
}

static double sat(double v, double lo, double hi)
{
    if (isnan(v))
        return 0.0;
    return v < lo ? lo : v > hi ? hi : v;
}

/* rint(v * k) as a 16- or 32-bit integer */
static long r16(double v, double k)
{
    return (long)sat(rint(v * k), -32768.0, 32767.0);
}

static long long r32(double v, double k)
{
    return (long long)sat(rint(v * k), -2147483648.0, 2147483647.0);
}

/* ---- show ------------------------------------------------------------------------- */
/* team_t: name[16] (not necessarily terminated) + score */
static void put_team(uint8_t *p, const char *name, int score)
{
    memset(p, 0, DISP_TEAM_SIZE);
    memcpy(p, name, strnlen(name, 16));
    put16(p + 16, name[0] ? score : 0);
}

size_t disp_bin_teams(const disp_show_t *s, uint8_t *out)
{
    put_team(out, s->team[0], s->score[0]);
    put_team(out + DISP_TEAM_SIZE, s->team[1], s->score[1]);
    return 2 * DISP_TEAM_SIZE;
}

/* showinfo_t: pmode@0, team[2]@2, pos_t[23]@38 (enable side unum angle x y; x, y
 * metres x 16; angle integer degrees, rounded), time@314 */
size_t disp_bin_showinfo(const disp_show_t *s, uint8_t *out)
{
    memset(out, 0, DISP_SHOWINFO_SIZE);
    out[0] = (uint8_t)s->pmode;
    disp_bin_teams(s, out + 2);
    uint8_t *pos = out + 38;
    put16(pos + 8, r16(s->bx, DISP_SCALE));
    put16(pos + 10, r16(s->by, DISP_SCALE));
    for (int i = 0; i < DISP_PLAYERS; i++) {
        const disp_player_t *p = &s->player[i];
        uint8_t *q = pos + 12 * (i + 1);
        put16(q, (long)(p->state & 0xffffu));
        put16(q + 2, p->side);
        put16(q + 4, p->unum);
        put16(q + 6, r16(p->body * 180.0 / M_PI, 1.0));
        put16(q + 8, r16(p->x, DISP_SCALE));
        put16(q + 10, r16(p->y, DISP_SCALE));
    }
    put16(out + 314, s->time);
    return DISP_SHOWINFO_SIZE;
}

/* ball_t: x y deltax deltay, int32 x 65536 */
static void put_ball(uint8_t *p, const disp_show_t *s)
{
    put32(p, r32(s->bx, DISP_SCALE2));
    put32(p + 4, r32(s->by, DISP_SCALE2));
    put32(p + 8, r32(s->bvx, DISP_SCALE2));
    put32(p + 12, r32(s->bvy, DISP_SCALE2));
}

/* player_t (64 bytes): mode@0 type@2 x@4 y@8 deltax@12 deltay@16 body_angle@20
 * head_angle@24 view_width@28 (radians x 65536) view_quality@32 pad stamina@36
 * effort@40 recovery@44, counters kick dash turn say turn_neck catch move change_view
 * @48..62 */
static void put_player(uint8_t *q, const disp_player_t *p)
{
    memset(q, 0, 64);
    put16(q, (long)(p->state & 0xffffu));
    put16(q + 2, p->type);
    put32(q + 4, r32(p->x, DISP_SCALE2));
    put32(q + 8, r32(p->y, DISP_SCALE2));
    put32(q + 12, r32(p->vx, DISP_SCALE2));
    put32(q + 16, r32(p->vy, DISP_SCALE2));
    put32(q + 20, r32(p->body, DISP_SCALE2));
    put32(q + 24, r32(p->neck, DISP_SCALE2));
    put32(q + 28, r32(p->view_width * M_PI / 180.0, DISP_SCALE2));
    put16(q + 32, p->view_high ? 1 : 0);
    put32(q + 36, r32(p->stamina, DISP_SCALE2));
    put32(q + 40, r32(p->effort, DISP_SCALE2));
    put32(q + 44, r32(p->recovery, DISP_SCALE2));
    static const int order[8] = { DISP_CNT_KICK, DISP_CNT_DASH, DISP_CNT_TURN, DISP_CNT_SAY,
                                  DISP_CNT_TURN_NECK, DISP_CNT_CATCH, DISP_CNT_MOVE,
                                  DISP_CNT_CHANGE_VIEW };
    for (int k = 0; k < 8; k++)
        put16(q + 48 + 2 * k, (long)(p->count[order[k]] & 0xffffu));
}

/* showinfo_t2: pmode@0, team[2]@2, pad, ball@40, player_t[22]@56, time@1464, pad */
size_t disp_bin_showinfo2(const disp_show_t *s, uint8_t *out)
{
    memset(out, 0, DISP_SHOWINFO2_SIZE);
    out[0] = (uint8_t)s->pmode;
    disp_bin_teams(s, out + 2);
    put_ball(out + 40, s);
    for (int i = 0; i < DISP_PLAYERS; i++)
        put_player(out + 56 + 64 * i, &s->player[i]);
    put16(out + 1464, s->time);
    return DISP_SHOWINFO2_SIZE;
}

/* short_showinfo_t2: ball@0, player_t[22]@16, time@1424, pad (log v3 SHOW_MODE) */
size_t disp_bin_short_showinfo2(const disp_show_t *s, uint8_t *out)
{
    memset(out, 0, DISP_SHORT_SHOWINFO2_SIZE);
    put_ball(out, s);
    for (int i = 0; i < DISP_PLAYERS; i++)
        put_player(out + 16 + 64 * i, &s->player[i]);
    put16(out + 1424, s->time);
    return DISP_SHORT_SHOWINFO2_SIZE;
}

size_t disp_bin_msginfo(int board, const char *text, uint8_t *out)
{
    memset(out, 0, DISP_MSGINFO_SIZE);
    put16(out, board);
    memcpy(out + 2, text, strnlen(text, DISP_MSG_TEXT_MAX - 1));
    return DISP_MSGINFO_SIZE;
}

/* ---- parameters -------------------------------------------------------------------- */
enum { F_REAL, F_SHORT, F_CONST, F_CTRL_WIDTH, F_KICKABLE, F_LCM };
typedef struct bin_field {
    uint16_t off;
    uint8_t  kind;
    int16_t  id;          /* param id (F_REAL, F_SHORT) or constant (F_CONST, x 65536) */
} bin_field_t;

#define R(o, n) { o, F_REAL, SP_##n }
#define S(o, n) { o, F_SHORT, SP_##n }
/* server_params_t, Appendix A; reals (x 65536, truncated) unless S */
static const bin_field_t server_fields[] = {
    R(0, goal_width), R(4, inertia_moment), R(8, player_size), R(12, player_decay),
    R(16, player_rand), R(20, player_weight), R(24, player_speed_max), R(28, player_accel_max),
    R(32, stamina_max), R(36, stamina_inc_max), R(40, recover_init), R(44, recover_dec_thr),
    R(48, recover_min), R(52, recover_dec), R(56, effort_init), R(60, effort_dec_thr),
    R(64, effort_min), R(68, effort_dec), R(72, effort_inc_thr), R(76, effort_inc),
    R(80, kick_rand), S(84, team_actuator_noise), R(88, prand_factor_l), R(92, prand_factor_r),
    R(96, kick_rand_factor_l), R(100, kick_rand_factor_r), R(104, ball_size),
    R(108, ball_decay), R(112, ball_rand), R(116, ball_weight), R(120, ball_speed_max),
    R(124, ball_accel_max), R(128, dash_power_rate), R(132, kick_power_rate),
    R(136, kickable_margin), R(140, control_radius), { 144, F_CTRL_WIDTH, 0 },
    R(148, maxpower), R(152, minpower), R(156, maxmoment), R(160, minmoment),
    R(164, maxneckmoment), R(168, minneckmoment), R(172, maxneckang), R(176, minneckang),
    R(180, visible_angle), R(184, visible_distance), R(188, wind_dir), R(192, wind_force),
    R(196, wind_ang), R(200, wind_rand), { 204, F_KICKABLE, 0 }, R(208, catchable_area_l),
    R(212, catchable_area_w), R(216, catch_probability), S(220, goalie_max_moves),
    R(224, ckick_margin), R(228, offside_active_area_size), S(232, wind_none),
    S(234, wind_random), S(236, say_coach_cnt_max), S(238, say_coach_msg_size),
    S(240, clang_win_size), S(242, clang_define_win), S(244, clang_meta_win),
    S(246, clang_advice_win), S(248, clang_info_win), S(250, clang_mess_delay),
    S(252, clang_mess_per_cycle), S(254, half_time), S(256, simulator_step),
    S(258, send_step), S(260, recv_step), S(262, sense_body_step), { 264, F_LCM, 0 },
    S(266, say_msg_size), S(268, hear_max), S(270, hear_inc), S(272, hear_decay),
    S(274, catch_ban_cycle), S(276, slow_down_factor), S(278, use_offside),
    S(280, forbid_kick_off_offside), R(284, offside_kick_margin), R(288, audio_cut_dist),
    R(292, quantize_step), R(296, quantize_step_l),
    /* the seven other quantize steps: -1 (compiled out in the reference) */
    { 300, F_CONST, -1 }, { 304, F_CONST, -1 }, { 308, F_CONST, -1 }, { 312, F_CONST, -1 },
    { 316, F_CONST, -1 }, { 320, F_CONST, -1 }, { 324, F_CONST, -1 },
    S(328, coach), S(330, coach_w_referee), S(332, old_coach_hear), S(334, send_vi_step),
    /* both slowness fields carry the left team's value, as the reference writes them */
    R(336, slowness_on_top_for_left_team), R(340, slowness_on_top_for_left_team),
    R(344, keepaway_length), R(348, keepaway_width), R(352, ball_stuck_area),
    R(356, max_tackle_power), R(360, max_back_tackle_power), R(364, tackle_dist),
    R(368, tackle_back_dist), R(372, tackle_width), S(376, start_goal_l), S(378, start_goal_r),
    S(380, fullstate_l), S(382, fullstate_r), S(384, drop_ball_time), S(386, synch_mode),
    S(388, synch_offset), S(390, synch_micro_sleep), S(392, point_to_ban),
    S(394, point_to_duration),
};
#undef R
#undef S

/* (int32)(v x 65536): the reference truncates server parameters */
static long long trunc32(double v)
{
    return (long long)sat(trunc(v * DISP_SCALE2), -2147483648.0, 2147483647.0);
}

static long long gcd_ll(long long a, long long b)
{
    while (b) {
        long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* lcm of the step lengths (ms), 0 or negative steps ignored, capped at 32767 */
static long step_lcm(const conf_t *c)
{
    const int ids[] = { SP_simulator_step, SP_sense_body_step, SP_send_step, SP_send_vi_step,
                        SP_recv_step };
    long long l = 1;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        long long s = conf_int(c, (param_id_t)ids[i]);
        if (s <= 0 || s > 32767)
            continue;
        l = l / gcd_ll(l, s) * s;
        if (l > 32767)
            return 32767;
    }
    return (long)l;
}

size_t disp_bin_server_params(const conf_t *c, uint8_t *out)
{
    memset(out, 0, DISP_SERVER_PARAMS_SIZE);
    for (size_t i = 0; i < sizeof server_fields / sizeof server_fields[0]; i++) {
        const bin_field_t *f = &server_fields[i];
        uint8_t *p = out + f->off;
        switch (f->kind) {
        case F_REAL:
            put32(p, trunc32(conf_real(c, (param_id_t)f->id)));
            break;
        case F_SHORT:
            put16(p, (long)sat(conf_real(c, (param_id_t)f->id), -32768.0, 32767.0));
            break;
        case F_CONST:
            put32(p, trunc32(f->id));
            break;
        case F_CTRL_WIDTH:
            put32(p, trunc32(conf_real(c, SP_control_radius) - conf_real(c, SP_player_size)));
            break;
        case F_KICKABLE:
            put32(p, trunc32(conf_real(c, SP_player_size) + conf_real(c, SP_kickable_margin)
                             + conf_real(c, SP_ball_size)));
            break;
        default:
            put16(p, step_lcm(c));
            break;
        }
    }
    return DISP_SERVER_PARAMS_SIZE;
}

/* player_params_t, Appendix A: reals (int32)(v x 65536 + 0.5) as the reference (which
 * rounds negative values towards zero), random_seed unscaled */
static const struct { uint16_t off; int16_t id; } player_reals[] = {
    { 8, PP_player_speed_max_delta_min }, { 12, PP_player_speed_max_delta_max },
    { 16, PP_stamina_inc_max_delta_factor }, { 20, PP_player_decay_delta_min },
    { 24, PP_player_decay_delta_max }, { 28, PP_inertia_moment_delta_factor },
    { 32, PP_dash_power_rate_delta_min }, { 36, PP_dash_power_rate_delta_max },
    { 40, PP_player_size_delta_factor }, { 44, PP_kickable_margin_delta_min },
    { 48, PP_kickable_margin_delta_max }, { 52, PP_kick_rand_delta_factor },
    { 56, PP_extra_stamina_delta_min }, { 60, PP_extra_stamina_delta_max },
    { 64, PP_effort_max_delta_factor }, { 68, PP_effort_min_delta_factor },
    { 76, PP_new_dash_power_rate_delta_min }, { 80, PP_new_dash_power_rate_delta_max },
    { 84, PP_new_stamina_inc_max_delta_factor }, { 88, PP_kick_power_rate_delta_min },
    { 92, PP_kick_power_rate_delta_max }, { 96, PP_foul_detect_probability_delta_factor },
    { 100, PP_catchable_area_l_stretch_min }, { 104, PP_catchable_area_l_stretch_max },
};

size_t disp_bin_player_params(const conf_t *c, uint8_t *out)
{
    memset(out, 0, DISP_PLAYER_PARAMS_SIZE);
    put16(out, conf_int(c, PP_player_types));
    put16(out + 2, conf_int(c, PP_subs_max));
    put16(out + 4, conf_int(c, PP_pt_max));
    for (size_t i = 0; i < sizeof player_reals / sizeof player_reals[0]; i++) {
        double v = conf_real(c, (param_id_t)player_reals[i].id) * DISP_SCALE2 + 0.5;
        put32(out + player_reals[i].off, (long long)sat(trunc(v), -2147483648.0, 2147483647.0));
    }
    put32(out + 72, (long long)sat(conf_real(c, PP_random_seed), -2147483648.0, 2147483647.0));
    put16(out + 112, conf_bool(c, PP_allow_mult_default_type));
    return DISP_PLAYER_PARAMS_SIZE;
}

/* player_type_t: id@0, pad, 14 reals rint(v x 65536) @4.., 7 spares */
size_t disp_bin_player_type(const disp_ptype_t *t, uint8_t *out)
{
    memset(out, 0, DISP_PLAYER_TYPE_SIZE);
    put16(out, t->id);
    for (int i = 0; i < DISP_PTYPE_BIN_FIELDS; i++)
        put32(out + 4 + 4 * i, r32(t->v[i], DISP_SCALE2));
    return DISP_PLAYER_TYPE_SIZE;
}

/* ---- reading back (game-log readers, tests) ------------------------------------------ */
static int16_t get16(const uint8_t *p)
{
    return disp_get16(p);
}

static double get32s(const uint8_t *p, double k)
{
    return disp_get32(p) / k;
}

static void get_team(const uint8_t *p, char *name, int *score)
{
    memset(name, 0, DISP_NAME_LEN);
    memcpy(name, p, strnlen((const char *)p, 16));
    *score = get16(p + 16);
}

void disp_bin_read_teams(const uint8_t *in, disp_show_t *s)
{
    get_team(in, s->team[0], &s->score[0]);
    get_team(in + DISP_TEAM_SIZE, s->team[1], &s->score[1]);
}

/* side and unum of player slot i: left 1..11, then right 1..11 */
static void slot(disp_player_t *p, int i)
{
    p->side = i < DISP_PLAYERS / 2 ? 1 : -1;
    p->unum = i % (DISP_PLAYERS / 2) + 1;
}

void disp_bin_read_showinfo(const uint8_t *in, disp_show_t *s)
{
    memset(s, 0, sizeof *s);
    s->pmode = in[0];
    disp_bin_read_teams(in + 2, s);
    const uint8_t *pos = in + 38;
    s->bx = get16(pos + 8) / DISP_SCALE;
    s->by = get16(pos + 10) / DISP_SCALE;
    for (int i = 0; i < DISP_PLAYERS; i++) {
        const uint8_t *q = pos + 12 * (i + 1);
        disp_player_t *p = &s->player[i];
        slot(p, i);
        p->state = (uint16_t)get16(q);
        p->enabled = p->state != 0;
        p->body = get16(q + 6) * M_PI / 180.0;
        p->x = get16(q + 8) / DISP_SCALE;
        p->y = get16(q + 10) / DISP_SCALE;
    }
    s->time = get16(in + 314);
}

static void get_ball(const uint8_t *p, disp_show_t *s)
{
    s->bx = get32s(p, DISP_SCALE2);
    s->by = get32s(p + 4, DISP_SCALE2);
    s->bvx = get32s(p + 8, DISP_SCALE2);
    s->bvy = get32s(p + 12, DISP_SCALE2);
}

/* player_t, the inverse of put_player */
static void get_player(const uint8_t *q, disp_player_t *p)
{
    p->state = (uint16_t)get16(q);
    p->enabled = p->state != 0;
    p->type = get16(q + 2);
    p->x = get32s(q + 4, DISP_SCALE2);
    p->y = get32s(q + 8, DISP_SCALE2);
    p->vx = get32s(q + 12, DISP_SCALE2);
    p->vy = get32s(q + 16, DISP_SCALE2);
    p->body = get32s(q + 20, DISP_SCALE2);
    p->neck = get32s(q + 24, DISP_SCALE2);
    p->view_width = rint(get32s(q + 28, DISP_SCALE2) * 180.0 / M_PI * 1000.0) / 1000.0;
    p->view_high = get16(q + 32) != 0;
    p->stamina = get32s(q + 36, DISP_SCALE2);
    p->effort = get32s(q + 40, DISP_SCALE2);
    p->recovery = get32s(q + 44, DISP_SCALE2);
    static const int order[8] = { DISP_CNT_KICK, DISP_CNT_DASH, DISP_CNT_TURN, DISP_CNT_SAY,
                                  DISP_CNT_TURN_NECK, DISP_CNT_CATCH, DISP_CNT_MOVE,
                                  DISP_CNT_CHANGE_VIEW };
    for (int k = 0; k < 8; k++)
        p->count[order[k]] = (uint16_t)get16(q + 48 + 2 * k);
}

void disp_bin_read_showinfo2(const uint8_t *in, disp_show_t *s)
{
    memset(s, 0, sizeof *s);
    s->pmode = in[0];
    disp_bin_read_teams(in + 2, s);
    get_ball(in + 40, s);
    for (int i = 0; i < DISP_PLAYERS; i++) {
        slot(&s->player[i], i);
        get_player(in + 56 + 64 * i, &s->player[i]);
    }
    s->time = get16(in + 1464);
}

void disp_bin_read_short_showinfo2(const uint8_t *in, disp_show_t *s)
{
    int pmode = s->pmode, score[2] = { s->score[0], s->score[1] };
    char team[2][DISP_NAME_LEN];
    memcpy(team, s->team, sizeof team);
    memset(s, 0, sizeof *s);
    s->pmode = pmode;   /* the play mode and teams of the log's own chunks stay */
    memcpy(s->team, team, sizeof team);
    s->score[0] = score[0];
    s->score[1] = score[1];
    get_ball(in, s);
    for (int i = 0; i < DISP_PLAYERS; i++) {
        slot(&s->player[i], i);
        get_player(in + 16 + 64 * i, &s->player[i]);
    }
    s->time = get16(in + 1424);
}

int disp_bin_read_msginfo(const uint8_t *in, char *text, size_t len)
{
    size_t n = strnlen((const char *)in + 2, DISP_MSG_TEXT_MAX);
    if (len == 0)
        return get16(in);
    if (n >= len)
        n = len - 1;
    memcpy(text, in + 2, n);
    text[n] = '\0';
    return get16(in);
}

/* set parameter id to v on c, rounded for an integer parameter */
static void set_param(conf_t *c, int id, double v)
{
    if (param_defs[id].type == PARAM_INT || param_defs[id].type == PARAM_BOOL)
        v = rint(v);
    if (param_defs[id].type == PARAM_BOOL)
        v = v != 0.0;
    c->num[id] = v;
}

void disp_bin_read_server_params(const uint8_t *in, conf_t *c)
{
    for (size_t i = 0; i < sizeof server_fields / sizeof server_fields[0]; i++) {
        const bin_field_t *f = &server_fields[i];
        if (f->kind == F_REAL)
            set_param(c, f->id, get32s(in + f->off, DISP_SCALE2));
        else if (f->kind == F_SHORT)
            set_param(c, f->id, get16(in + f->off));
    }
}

void disp_bin_read_player_params(const uint8_t *in, conf_t *c)
{
    set_param(c, PP_player_types, get16(in));
    set_param(c, PP_subs_max, get16(in + 2));
    set_param(c, PP_pt_max, get16(in + 4));
    for (size_t i = 0; i < sizeof player_reals / sizeof player_reals[0]; i++)
        set_param(c, player_reals[i].id, get32s(in + player_reals[i].off, DISP_SCALE2));
    set_param(c, PP_random_seed, disp_get32(in + 72));
    set_param(c, PP_allow_mult_default_type, get16(in + 112));
}

void disp_bin_read_player_type(const uint8_t *in, disp_ptype_t *t)
{
    memset(t, 0, sizeof *t);
    t->id = get16(in);
    for (int i = 0; i < DISP_PTYPE_BIN_FIELDS; i++)
        t->v[i] = get32s(in + 4 + 4 * i, DISP_SCALE2);
}

/* ---- datagrams --------------------------------------------------------------------- */
size_t disp_bin_v1(int mode, const uint8_t *body, size_t len, uint8_t *out)
{
    if (len > DISP_V1_SIZE - 2)
        return 0;
    memset(out, 0, DISP_V1_SIZE);
    put16(out, mode);
    memcpy(out + 2, body, len);
    return DISP_V1_SIZE;
}

size_t disp_bin_v2(int mode, const uint8_t *body, size_t len, uint8_t *out)
{
    if (len > DISP_V2_SIZE - 4)
        return 0;
    memset(out, 0, DISP_V2_SIZE);
    put16(out, mode);
    memcpy(out + 4, body, len);
    return DISP_V2_SIZE;
}
