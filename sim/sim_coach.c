/* sim_coach.c -- what the sim does for the trainer and the online coaches (see
 * docs/protocol/coach.md §7, §8; docs/protocol/clang.md §3): records of their rings (long
 * texts in parts), the queue of coach-language messages released after clang_mess_delay in
 * play_on and at the next step otherwise, the substitution rules of online coaches with the
 * team bookkeeping they need (substitutions counted after the first kick-off, how often a
 * type was used, how many players have it), the goalie change, the automatic type
 * assignment at the first kick-off, and the events every gateway turns into notices and
 * replies. Called from sim_ctrl.c (drain, substitutions of the trainer and monitors) and
 * by the referee at the first kick-off (its table's first_kick_off, sim_step.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "sim.h"
#include "playmode.h"

#define COACH_REPLY_MAX 128

static int team_of(int side)
{
    return side == SHM_SIDE_RIGHT ? 1 : 0;
}

static void reply(sim_world_t *w, int side, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void reply(sim_world_t *w, int side, const char *fmt, ...)
{
    char msg[COACH_REPLY_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sim_world_emit(w, SHM_EV_COACH_REPLY, side, 0, 0.0, 0.0, 0, msg, strlen(msg));
}

/* ---- substitutions --------------------------------------------------------------- */
/* the type a player counts under: its own once substituted, -1 before (index + 1) */
static int counted_slot(const sim_world_t *w, int idx)
{
    int t = w->pl[idx].sh.type;
    return w->coach.substituted[idx] && t >= 0 && t < SHM_MAX_PTYPES ? t + 1 : 0;
}

/* players that connected for the first time join their team's count (as "no type") */
static void coach_sync(sim_world_t *w)
{
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (w->pl[idx].seen && !w->coach.joined[idx]) {
            int k = idx / SHM_TEAM_SIZE;
            w->coach.joined[idx] = 1;
            w->coach.count[k][0]++;
            w->coach.used[k][0]++;
        }
    }
}

static void change_type(sim_world_t *w, int idx, int type)
{
    sim_player_t *p = &w->pl[idx];
    p->sh.type = type;
    p->sh.card = 0;
    sim_player_reset_stamina(w, p);
    w->coach.substituted[idx] = 1;
    sim_world_emit(w, SHM_EV_CHANGE_TYPE, p->sh.side, p->sh.unum, 0.0, 0.0, type, NULL, 0);
}

void sim_coach_substitute(sim_world_t *w, int idx, int type)
{
    if (idx < 0 || idx >= SHM_MAX_PLAYERS || type < 0 || (uint32_t)type >= w->types.count
        || type >= SHM_MAX_PTYPES)
        return;
    coach_sync(w);
    int k = idx / SHM_TEAM_SIZE, old = counted_slot(w, idx);
    if (w->coach.count[k][old] > 0)
        w->coach.count[k][old]--;
    w->coach.count[k][type + 1]++;
    change_type(w, idx, type);
    if (w->time > 0) { /* after the first kick-off every substitution counts */
        w->coach.subs[k]++;
        w->coach.used[k][type + 1]++;
    }
}

/* the player of team k with this number that ever connected, -1 if none */
static int team_player(const sim_world_t *w, int k, int unum)
{
    if (unum < 1 || unum > SHM_TEAM_SIZE)
        return -1;
    int idx = k * SHM_TEAM_SIZE + unum - 1;
    return w->pl[idx].seen ? idx : -1;
}

/* trainer: (change_player_type TEAM UNUM TYPE), team resolved by the gateway (c->i) */
static void trainer_change_type(sim_world_t *w, const shm_cmd_sh_t *c)
{
    int side = c->i, unum = (int)(c->flags & 0xffu);
    int type = isfinite(c->d[0]) ? (int)c->d[0] : -1;
    if (side != SHM_SIDE_LEFT && side != SHM_SIDE_RIGHT)
        return;
    if (type < 0 || (uint32_t)type >= w->types.count) {
        reply(w, 0, "(error out_of_range_player_type)");
        return;
    }
    int idx = team_player(w, team_of(side), unum);
    if (idx < 0) {
        reply(w, 0, "(warning no_such_player)");
        return;
    }
    sim_coach_substitute(w, idx, type);
    reply(w, 0, "(ok change_player_type %s %d %d)", w->team[team_of(side)], unum, type);
}

/* the online coach's rules, in the reference's order; NULL when allowed */
static const char *subs_refusal(const sim_world_t *w, int k, int idx_or_unum, int type,
                                int *idx)
{
    const conf_t *c = w->conf;
    if (w->play_mode == PM_PLAY_ON)
        return "(warning cannot_sub_while_playon)";
    int step = conf_int(c, SP_simulator_step);
    int extra = step > 0 ? (int)(conf_real(c, SP_extra_half_time) * 1000.0 / step + 0.5) : 0;
    int regular = w->half_cycles * conf_int(c, SP_nr_normal_halfs)
                + extra * conf_int(c, SP_nr_extra_halfs);
    if (conf_real(c, SP_half_time) >= 0.0 && w->time >= regular)
        return "(warning cannot_sub_while_penalty_shootouts)";
    int pt_max = conf_int(c, PP_pt_max);
    int mult0 = conf_bool(c, PP_allow_mult_default_type);
    if (w->coach.subs[k] >= conf_int(c, PP_subs_max))
        return "(warning no_subs_left)";
    if (type < 0 || (uint32_t)type >= w->types.count || type >= SHM_MAX_PTYPES)
        return "(error out_of_range_player_type)";
    int used = w->coach.used[k][type + 1];
    if (used > 0 && !(type == 0 && mult0) && used >= pt_max)
        return "(warning no_left_of_that_type)";
    *idx = team_player(w, k, idx_or_unum);
    if (*idx < 0)
        return "(warning no_such_player)";
    if (!(type == 0 && mult0) && w->coach.count[k][type + 1] >= pt_max
        && !(w->coach.substituted[*idx] && w->pl[*idx].sh.type == type))
        return "(warning max_of_that_type_on_field)";
    return NULL;
}

static void olcoach_change_type(sim_world_t *w, const shm_cmd_sh_t *c, int side)
{
    int unum = (int)(c->flags & 0xffu), idx = -1;
    int type = isfinite(c->d[0]) && fabs(c->d[0]) < 1e9 ? (int)c->d[0] : -1;
    coach_sync(w);
    const char *no = subs_refusal(w, team_of(side), unum, type, &idx);
    if (no) {
        reply(w, side, "%s", no);
        return;
    }
    sim_coach_substitute(w, idx, type);
    reply(w, side, "(ok change_player_type %d %d)", unum, type);
}

static void olcoach_goalie(sim_world_t *w, const shm_cmd_sh_t *c, int side)
{
    int pm = w->play_mode, unum = (int)(c->flags & 0xffu), k = team_of(side), idx = -1;
    if (pm == PM_PLAY_ON) {
        reply(w, side, "(warning cannot_change_goalie_while_playon)");
        return;
    }
    if (pm == PM_PENALTY_READY_L || pm == PM_PENALTY_READY_R || pm == PM_PENALTY_TAKEN_L
        || pm == PM_PENALTY_TAKEN_R) {
        reply(w, side, "(warning cannot_change_goalie_while_penalty_taken)");
        return;
    }
    for (int u = 0; u < SHM_TEAM_SIZE; u++) {
        const sim_player_t *p = &w->pl[k * SHM_TEAM_SIZE + u];
        if (!p->sh.enabled)
            continue;
        if (p->sh.goalie) {
            reply(w, side, "(error goalie_already_exists)");
            return;
        }
        if (p->sh.unum == unum)
            idx = k * SHM_TEAM_SIZE + u;
    }
    if (idx < 0) {
        reply(w, side, "(warning no_such_player)");
        return;
    }
    w->pl[idx].sh.goalie = 1;
    sim_world_emit(w, SHM_EV_CHANGE_TYPE, side, unum, 0.0, 0.0, -1, NULL, 0);
    reply(w, side, "(ok change_player_type %d goalie)", unum);
}

void sim_coach_kick_off(sim_world_t *w)
{
    const conf_t *c = w->conf;
    int pt_max = conf_int(c, PP_pt_max);
    coach_sync(w);
    for (int k = 0; k < 2; k++) {
        sim_coach_t *co = &w->coach;
        /* the counts start again from the players' current types */
        memset(co->count[k], 0, sizeof co->count[k]);
        for (int u = 0; u < SHM_TEAM_SIZE; u++) {
            int idx = k * SHM_TEAM_SIZE + u;
            if (w->pl[idx].seen)
                co->count[k][counted_slot(w, idx)]++;
        }
        memcpy(co->used[k], co->count[k], sizeof co->used[k]);
        if (conf_bool(c, PP_allow_mult_default_type)
            || (conf_int(c, SP_nr_normal_halfs) == 0 && conf_int(c, SP_nr_extra_halfs) == 0))
            continue;
        int order[SHM_TEAM_SIZE], n = 0;
        for (int pass = 0; pass < 2; pass++) { /* the goalie first */
            for (int u = 0; u < SHM_TEAM_SIZE; u++) {
                int idx = k * SHM_TEAM_SIZE + u;
                if (w->pl[idx].seen && (w->pl[idx].sh.goalie != 0) == (pass == 0))
                    order[n++] = idx;
            }
        }
        for (int i = 0; i < n; i++) {
            int idx = order[i], old = counted_slot(w, idx);
            if (old > 0 && co->used[k][old] <= pt_max)
                continue;
            for (int t = 0; t < (int)w->types.count && t < SHM_MAX_PTYPES; t++) {
                if (co->used[k][t + 1] >= pt_max)
                    continue;
                co->count[k][t + 1]++;
                co->used[k][t + 1]++;
                co->count[k][old]--;
                co->used[k][old]--;
                if (w->pl[idx].sh.type != t) {
                    sim_world_note(w, "rcssserver changes (player %s %d) to type %d", w->team[k],
                                   idx % SHM_TEAM_SIZE + 1, t);
                    change_type(w, idx, t);
                }
                break;
            }
        }
    }
}

/* ---- coach-language queue --------------------------------------------------------- */
static void clang_queue(sim_world_t *w, const shm_cmd_sh_t *c, int side, const char *text,
                        size_t len)
{
    int k = team_of(side);
    sim_coach_t *co = &w->coach;
    if (co->nq[k] >= SIM_CLANG_QUEUE || co->pool_used[k] + len > SIM_CLANG_POOL) {
        co->dropped++;
        return;
    }
    sim_clang_msg_t *m = &co->q[k][co->nq[k]++];
    m->recv_time = (int32_t)c->recv_time;
    m->span = (uint32_t)(c->i & 0xffff) | (c->flags & 0xffu) << 16;
    m->len = (uint32_t)len;
    memcpy(co->pool[k] + co->pool_used[k], text, len);
    co->pool_used[k] += (uint32_t)len;
}

void sim_coach_release(sim_world_t *w)
{
    sim_coach_t *co = &w->coach;
    coach_sync(w);
    int delay = conf_int(w->conf, SP_clang_mess_delay);
    /* the reference's release loop never runs when clang_mess_per_cycle <= 0 and is
     * otherwise not limited by it */
    if (conf_int(w->conf, SP_clang_mess_per_cycle) <= 0)
        return;
    for (int k = 0; k < 2; k++) {
        int n = 0;
        uint32_t off = 0;
        while (n < co->nq[k]) {
            const sim_clang_msg_t *m = &co->q[k][n];
            if (w->play_mode == PM_PLAY_ON && w->time - m->recv_time < delay)
                break;
            sim_world_emit_text(w, SHM_EV_CLANG, k == 0 ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT, 0,
                                (int)m->span, (double)m->recv_time, co->pool[k] + off, m->len);
            off += m->len;
            n++;
        }
        if (n == 0)
            continue;
        memmove(co->pool[k], co->pool[k] + off, co->pool_used[k] - off);
        co->pool_used[k] -= off;
        memmove(co->q[k], co->q[k] + n, (size_t)(co->nq[k] - n) * sizeof co->q[k][0]);
        co->nq[k] -= n;
    }
}

/* ---- records ------------------------------------------------------------------ */
/* the record's text assembled with the parts before it; NULL for a part (more follow) */
static shm_text_t *record_text(sim_world_t *w, const shm_cmd_sh_t *c, int side)
{
    shm_text_t *t = &w->coach.part[side == 0 ? 0 : side == SHM_SIDE_LEFT ? 1 : 2];
    size_t len = strnlen(c->text, c->len < SHM_CMD_TEXT_LEN ? c->len : SHM_CMD_TEXT_LEN);
    shm_text_feed(t, c->kind == SHM_CMD_CONT, c->text, len);
    return c->kind == SHM_CMD_CONT ? NULL : t;
}

void sim_coach_record_gone(sim_world_t *w, const shm_cmd_sh_t *c, int side)
{
    shm_text_t *t = record_text(w, c, side);
    if (t && c->kind == SHM_CMD_RAW)
        sim_world_emit_text(w, SHM_EV_TEXTLOG, side, 0, 0, 0.0, t->buf, t->len);
}

int sim_coach_record(sim_world_t *w, const shm_cmd_sh_t *c, int side)
{
    shm_text_t *t = record_text(w, c, side);
    if (!t)
        return 1;
    switch (c->kind) {
    case SHM_CMD_RAW:
        sim_world_emit_text(w, SHM_EV_TEXTLOG, side, 0, 0, 0.0, t->buf, t->len);
        break;
    case SHM_CMD_CLANG:
        if (side != 0)
            clang_queue(w, c, side, t->buf, t->len);
        break;
    case SHM_CMD_COACH_SAY:
        sim_world_emit_text(w, side ? SHM_EV_COACH_SAY : SHM_EV_TRAINER_SAY, side, 0, 0, 0.0,
                            t->buf, t->len);
        break;
    case SHM_CMD_CHANGE_TYPE:
        if (side == 0)
            trainer_change_type(w, c);
        else
            olcoach_change_type(w, c, side);
        break;
    case SHM_CMD_GOALIE:
        if (side != 0)
            olcoach_goalie(w, c, side);
        break;
    case SHM_CMD_TEAM_GRAPHIC:
        if (side != 0)
            sim_world_emit_text(w, SHM_EV_TEAM_GRAPHIC, side, 0, 0, 0.0, t->buf, t->len);
        break;
    default:
        return 0; /* a world command (sim_cmd_control) */
    }
    return 1;
}
