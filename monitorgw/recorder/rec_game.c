/* rec_game.c -- what the game log says and when, for any format (see
 * docs/protocol/logs.md §3): the head at the start; for each step's snapshot after the
 * kick-off (and the first one of time_over) a (playmode) item when the mode changed, a (team) item
 * when names, scores or penalties changed, then the show; messages as they come (team
 * graphics always, referee/says/coach/received commands/substitutions only with
 * server::record_messages, as the reference, which records referee messages in v1 logs
 * anyway); at the end the result message, the final
 * team item and the format's tail. The writer state lives in a shm_rec_state_sh_t so a
 * restarted recorder goes on with exactly what the file on disk says. Pure: no I/O. */
#include <stdio.h>
#include <string.h>
#include "playmode.h"
#include "rec.h"

#define MSG_MAX 20000   /* a message item: up to SHM_TEXT_MAX of text plus its frame */

static int idle_mode(int pm)
{
    return pm == PM_BEFORE_KICK_OFF || pm == PM_TIME_OVER;
}

static void msg(rec_game_t *g, int time, int stime, int board, const char *text, size_t len)
{
    if (g->fmt->msg)
        g->fmt->msg(g->out, time, stime, board, text, len);
}

void rec_game_start(rec_game_t *g, const rec_head_t *h)
{
    g->fmt->head(g->out, h);
}

/* the record_messages copies (docs/protocol/logs.md §3); mode is the play mode of the
 * event's snapshot */
static void game_message(rec_game_t *g, const shm_event_sh_t *ev, const char *text,
                         size_t len, const shm_snapshot_sh_t *snap)
{
    static char buf[MSG_MAX];
    const char *coach = ev->side == SHM_SIDE_RIGHT ? "online_coach_right" : "online_coach_left";
    int n = -1;
    int idle = idle_mode(snap->play_mode);
    int k = ev->side == SHM_SIDE_RIGHT ? 1 : 0;
    switch (ev->kind) {
    case SHM_EV_REFEREE: /* skipped only when it falls wholly inside an idle period */
        if (idle && idle_mode(g->st->prev_pm))
            return;
        n = snprintf(buf, sizeof buf, "(referee %.*s)", (int)len, text);
        break;
    case SHM_EV_SAY:
        if (!idle)
            n = snprintf(buf, sizeof buf, "((player %s %d) %.*s)", snap->team[k], ev->unum,
                         (int)len, text);
        break;
    case SHM_EV_COACH_SAY:
        if (!idle)
            n = snprintf(buf, sizeof buf, "(%s %.*s)", coach, (int)len, text);
        break;
    case SHM_EV_TRAINER_SAY:
        if (!idle)
            n = snprintf(buf, sizeof buf, "(referee %.*s)", (int)len, text);
        break;
    case SHM_EV_CLANG:
        if (!idle)
            n = snprintf(buf, sizeof buf, "(%s %d %.*s)", coach, (int)ev->x, (int)len, text);
        break;
    case SHM_EV_TEXTLOG:
        if (snap->play_mode != PM_TIME_OVER) {
            n = rec_text_recv(buf, sizeof buf, ev, text, len, snap->team);
            if (n >= 0) {
                msg(g, ev->time, ev->stoppage, REC_BOARD_LOG, buf, (size_t)n);
                return;
            }
        }
        return;
    case SHM_EV_CHANGE_TYPE:
        if (snap->play_mode == PM_TIME_OVER)
            return;
        if (ev->arg < 0)
            n = snprintf(buf, sizeof buf, "(change_player_type %c %d goalie)", "lr"[k], ev->unum);
        else
            n = snprintf(buf, sizeof buf, "(change_player_type %c %d %d)", "lr"[k], ev->unum,
                         ev->arg);
        msg(g, ev->time, ev->stoppage, REC_BOARD_LOG, buf, n < 0 ? 0 : (size_t)n);
        return;
    default:
        return;
    }
    if (n >= 0)
        msg(g, ev->time, ev->stoppage, REC_BOARD_MSG, buf,
            (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void rec_game_event(rec_game_t *g, const shm_event_sh_t *ev, const char *text, size_t len,
                    const shm_snapshot_sh_t *snap)
{
    static char buf[MSG_MAX];
    switch (ev->kind) {
    case SHM_EV_TEAM_GRAPHIC: { /* always written; one closing paren, as the reference */
        int n = snprintf(buf, sizeof buf, "(team_graphic_%c (%.*s)",
                         ev->side == SHM_SIDE_RIGHT ? 'r' : 'l', (int)len, text);
        if (n > 0 && (size_t)n < sizeof buf)
            msg(g, ev->time, ev->stoppage, REC_BOARD_MSG, buf, (size_t)n);
        return;
    }
    case SHM_EV_MSG:
        msg(g, ev->time, ev->stoppage, ev->arg == REC_BOARD_LOG ? REC_BOARD_LOG : REC_BOARD_MSG,
            text, len);
        return;
    default:
        if (g->record_messages || (g->fmt->referee_always && ev->kind == SHM_EV_REFEREE))
            game_message(g, ev, text, len, snap);
        return;
    }
}

static int team_changed(const shm_rec_state_sh_t *st, const shm_snapshot_sh_t *s)
{
    for (int k = 0; k < 2; k++) {
        if (st->score[k] != s->score[k] || st->pen_taken[k] != s->pen_score[k] + s->pen_miss[k]
            || strncmp(st->team[k], s->team[k], SHM_TEAM_NAME_LEN) != 0)
            return 1;
    }
    return 0;
}

/* A play mode set between two steps, out of before_kick_off, at the game time of the last
 * step: the automatic kick-off decided after a step (auto mode, the second half's), or a
 * command the sim applied between steps. The reference writes a show only from its step,
 * before its automatic kick-off, and a kick-off given between steps first shows at the
 * step that follows (time 1, not 0; the half's first cycle, not the half-time one). */
static int set_between_steps(const shm_rec_state_sh_t *st, const shm_snapshot_sh_t *s)
{
    return st->prev_pm == PM_BEFORE_KICK_OFF && s->time == st->prev_time
           && s->play_mode != PM_BEFORE_KICK_OFF && s->play_mode != PM_TIME_OVER;
}

void rec_game_snapshot(rec_game_t *g, const shm_snapshot_sh_t *s)
{
    shm_rec_state_sh_t *st = g->st;
    int pm = s->play_mode;
    int show = (!idle_mode(pm) && !set_between_steps(st, s))
               || (pm == PM_TIME_OVER && !st->time_over_shown);
    if (show) {
        if (pm == PM_TIME_OVER)
            st->time_over_shown = 1;
        if (st->pm != pm && g->fmt->playmode) {
            st->pm = pm;
            g->fmt->playmode(g->out, s);
        }
        if (team_changed(st, s)) {
            for (int k = 0; k < 2; k++) {
                st->score[k] = s->score[k];
                st->pen_taken[k] = s->pen_score[k] + s->pen_miss[k];
                memcpy(st->team[k], s->team[k], SHM_TEAM_NAME_LEN);
                st->team[k][SHM_TEAM_NAME_LEN - 1] = '\0';
            }
            if (g->fmt->team)
                g->fmt->team(g->out, s);
        }
        g->fmt->show(g->out, s);
    }
    st->prev_pm = pm;
    st->prev_time = s->time;
}

void rec_game_lost(rec_game_t *g, int time, uint64_t snaps, uint64_t events)
{
    char note[128];
    int n = snprintf(note, sizeof note,
                     "(rcssserver-shm (lost_snapshots %llu) (lost_events %llu))",
                     (unsigned long long)snaps, (unsigned long long)events);
    msg(g, time, 0, REC_BOARD_LOG, note, (size_t)n);
}

void rec_game_finish(rec_game_t *g, const shm_snapshot_sh_t *last, int64_t start_time,
                     const char *teaminfo)
{
    char stamp[32] = "", note[LOGPATH_MAX];
    time_t t = (time_t)start_time;
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d%H%M", &tm);
    int n = snprintf(note, sizeof note, "(result %s %s)", stamp, teaminfo);
    if (n > 0 && (size_t)n < sizeof note)
        msg(g, last->time, last->stoppage, REC_BOARD_MSG, note, (size_t)n);
    if (g->fmt->tail)
        g->fmt->tail(g->out, last);
}

int rec_teaminfo(const shm_snapshot_sh_t *s, const char coach[2][SHM_TEAM_NAME_LEN],
                 char *out, size_t len)
{
    logpath_team_t t[2];
    int taken[2];
    for (int k = 0; k < 2; k++)
        taken[k] = s->pen_score[k] + s->pen_miss[k];
    for (int k = 0; k < 2; k++) {
        t[k].name = s->team[k];
        t[k].coach = coach[k];
        t[k].score = s->score[k];
        t[k].pen_score = s->pen_score[k];
        t[k].pen_taken = taken[k];
        /* "w": the winner of the coin toss that ends a shoot-out still level after every
         * extra kick (the reference marks only that winner, Stadium::penaltyWinner) */
        t[k].pen_won = s->pen_coin == (k == 0 ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT);
    }
    return logpath_teaminfo(&t[0], &t[1], out, len);
}
