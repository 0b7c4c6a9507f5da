/* lp_ctl.c -- playback state of rcss-logplayer and its commands (lp.h). Pure: the
 * process (lp_main.c) sends frames and arms its timer as the returned flags say. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lp.h"
#include "playmode.h"

void lp_init(lp_play_t *p, int n_frames)
{
    memset(p, 0, sizeof *p);
    p->n = n_frames;
    p->dir = 1;
    p->speed = 1.0;
}

int lp_period_ms(const lp_play_t *p)
{
    int ms = (int)(LP_STEP_MS / p->speed + 0.5);
    return ms < 1 ? 1 : ms;
}

void lp_status(const lp_play_t *p, const rcg_t *g, char *out, size_t len)
{
    int cycle = p->n > 0 ? g->frame[p->cur].show.time : 0;
    const char *pm = p->n > 0 ? playmode_name(g->frame[p->cur].show.pmode) : "";
    snprintf(out, len, "cycle %d frame %d/%d %s %s x%g%s%s", cycle, p->n ? p->cur + 1 : 0, p->n,
             p->playing ? "playing" : "paused", p->dir > 0 ? "forward" : "backwards",
             p->speed, pm[0] ? " " : "", pm);
}

int lp_status_json(const lp_play_t *p, const rcg_t *g, int after_cmd, char *out, size_t len)
{
    int cycle = p->n > 0 ? g->frame[p->cur].show.time : 0;
    const char *pm = p->n > 0 ? playmode_name(g->frame[p->cur].show.pmode) : "";
    int n = snprintf(out, len, "{\"replay\":{\"cycle\":%d,\"frame\":%d,\"frames\":%d,"
                     "\"playing\":%s,\"dir\":\"%s\",\"speed\":%g,\"mode\":\"%s\","
                     "\"first\":%d,\"last\":%d,\"version\":%d,\"cmd\":%s}}",
                     cycle, p->n ? p->cur + 1 : 0, p->n, p->playing ? "true" : "false",
                     p->dir > 0 ? "forward" : "backwards", p->speed, pm,
                     p->n ? g->frame[0].show.time : 0, p->n ? g->frame[p->n - 1].show.time : 0,
                     g->version, after_cmd ? "true" : "false");
    return n < 0 || (size_t)n >= len ? -1 : n;
}

/* move cur by k frames (clamped); LP_OUT_FRAME if it moved */
static int move(lp_play_t *p, long k)
{
    long to = (long)p->cur + k;
    if (to < 0)
        to = 0;
    if (to > p->n - 1)
        to = p->n - 1;
    if (to == p->cur || p->n == 0)
        return 0;
    p->cur = (int)to;
    return LP_OUT_FRAME;
}

int lp_tick(lp_play_t *p)
{
    if (!p->playing)
        return 0;
    int out = move(p, p->dir);
    if ((p->dir > 0 && p->cur >= p->n - 1) || (p->dir < 0 && p->cur <= 0)) {
        p->playing = 0;
        out |= LP_OUT_TIMER;
    }
    return out;
}

/* an optional count argument: default 1, at least 1 */
static long count_arg(const char *arg, int *bad)
{
    if (!arg || !*arg)
        return 1;
    char *end;
    long n = strtol(arg, &end, 10);
    if (*end != '\0' || n < 1) {
        *bad = 1;
        return 0;
    }
    return n;
}

static int speed_to(lp_play_t *p, double s)
{
    p->speed = s < LP_SPEED_MIN ? LP_SPEED_MIN : s > LP_SPEED_MAX ? LP_SPEED_MAX : s;
    return LP_OUT_TIMER;
}

/* the command word w with argument arg; -1 if unknown or malformed */
static int apply(lp_play_t *p, const rcg_t *g, const char *w, const char *arg)
{
    int bad = 0;
    char *end;
    if (!strcmp(w, "play") || !strcmp(w, "reverse")) {
        p->dir = w[0] == 'p' ? 1 : -1;
        p->playing = 1;
        return LP_OUT_TIMER;
    }
    if (!strcmp(w, "pause")) {
        p->playing = 0;
        return LP_OUT_TIMER;
    }
    if (!strcmp(w, "step") || !strcmp(w, "back")) {
        long k = count_arg(arg, &bad);
        if (bad)
            return -1;
        p->playing = 0;
        return move(p, w[0] == 's' ? k : -k) | LP_OUT_TIMER;
    }
    if (!strcmp(w, "faster") || !strcmp(w, "slower"))
        return speed_to(p, w[0] == 'f' ? p->speed * 2.0 : p->speed / 2.0);
    if (!strcmp(w, "speed")) {
        double s = arg ? strtod(arg, &end) : 0.0;
        return !arg || *end || !(s > 0.0) ? -1 : speed_to(p, s);
    }
    if (!strcmp(w, "jump")) {
        long c = arg ? strtol(arg, &end, 10) : 0;
        if (!arg || *end)
            return -1;
        return move(p, (long)rcg_frame_at(g, (int)c) - p->cur);
    }
    if (!strcmp(w, "first") || !strcmp(w, "last"))
        return move(p, w[0] == 'f' ? -(long)p->n : (long)p->n);
    if (!strcmp(w, "status") || !strcmp(w, "help"))
        return 0;
    if (!strcmp(w, "quit"))
        return LP_OUT_QUIT;
    return -1;
}

int lp_command(lp_play_t *p, const rcg_t *g, const char *line, char *reply, size_t len)
{
    char buf[128], *w, *arg, *extra, *save = NULL;
    snprintf(buf, sizeof buf, "%s", line);
    w = strtok_r(buf, " \t\r\n", &save);
    if (!w) {
        lp_status(p, g, reply, len);
        return 0;
    }
    arg = strtok_r(NULL, " \t\r\n", &save);
    extra = strtok_r(NULL, " \t\r\n", &save);
    int out = extra ? -1 : apply(p, g, w, arg);
    if (out < 0) {
        snprintf(reply, len, "error: \"%s\": commands are play, pause, step [N], back [N], "
                 "reverse, faster, slower, speed X, jump CYCLE, first, last, status, quit", line);
        return LP_OUT_ERROR;
    }
    lp_status(p, g, reply, len);
    return out;
}
