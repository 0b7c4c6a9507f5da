/* rcg_store.c -- the frames, messages and player types of a game log read back (rcg.h):
 * what the format readers (rcg_bin.c, rcg_text.c, rcg_json.c) add one by one, the notes
 * about what they skipped, and the lookups the log player makes. rcg_read.c finds the
 * format and calls its reader. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rcg.h"

/* ---- the builder ------------------------------------------------------------------------ */
int rcg_add_frame(rcg_t *g, const disp_show_t *d)
{
    if (g->n_frames == g->cap_frames) {
        int cap = g->cap_frames ? g->cap_frames * 2 : 1024;
        rcg_frame_t *f = realloc(g->frame, (size_t)cap * sizeof *f);
        if (!f)
            return -1;
        g->frame = f;
        g->cap_frames = cap;
    }
    rcg_frame_t *f = &g->frame[g->n_frames++];
    f->show = *d;
    f->msg_end = g->n_msgs;
    return 0;
}

int rcg_add_msg(rcg_t *g, int time, int board, const char *text, size_t n)
{
    n = strnlen(text, n);
    if (g->n_msgs == g->cap_msgs) {
        int cap = g->cap_msgs ? g->cap_msgs * 2 : 256;
        rcg_msg_t *m = realloc(g->msg, (size_t)cap * sizeof *m);
        if (!m)
            return -1;
        g->msg = m;
        g->cap_msgs = cap;
    }
    rcg_msg_t *m = &g->msg[g->n_msgs];
    if (!(m->text = malloc(n + 1)))
        return -1;
    memcpy(m->text, text, n);
    m->text[n] = '\0';
    m->time = time;
    m->board = board;
    g->n_msgs++;
    unsigned long long seed;
    if (board == 2 && sscanf(m->text, "(rcssserver-shm (random_seed %llu)", &seed) == 1) {
        g->has_seed = 1;
        g->seed = seed;
    }
    return 0;
}

void rcg_add_ptype(rcg_t *g, const disp_ptype_t *t)
{
    if (t->id < 0 || t->id >= SHM_MAX_PTYPES)
        return;
    _Static_assert(sizeof(shm_ptype_sh_t) >= DISP_PTYPE_FIELDS * sizeof(double), "ptype fields");
    memcpy(&g->types.type[t->id], t->v, DISP_PTYPE_FIELDS * sizeof(double));
    if ((uint32_t)t->id >= g->types.count)
        g->types.count = (uint32_t)t->id + 1;
}

void rcg_note(rcg_t *g, const char *fmt, ...)
{
    if (g->note[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->note, sizeof g->note, fmt, ap);
    va_end(ap);
}

void rcg_free(rcg_t *g)
{
    for (int i = 0; i < g->n_msgs; i++)
        free(g->msg[i].text);
    free(g->msg);
    free(g->frame);
    memset(g, 0, sizeof *g);
}

int rcg_frame_at(const rcg_t *g, int cycle)
{
    int lo = 0, hi = g->n_frames - 1;
    if (hi < 0)
        return 0;
    /* times never decrease along a log: binary search for the first time >= cycle */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (g->frame[mid].show.time < cycle)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
