/* rcg_read.c -- game logs back into frames (rcg.h). Text versions 4-6: one item per
 * line (spec monitor-log-coach.md 2.2): the header "ULGn", parameter lines kept as text
 * (a monitor gets exactly these), (playmode T name) and (team T L R SL SR [pens]) set the
 * state the next shows carry, (msg T B "text") is kept, (show ...) becomes a frame
 * (rcg_show.c parses it). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "playmode.h"
#include "rcg.h"

#define RCG_MAX_BYTES (1ull << 31)   /* refuse logs past 2 GB uncompressed */

typedef struct rcg_state {
    int  pm;
    char team[2][SHM_TEAM_NAME_LEN];
    int  score[2], pen_score[2], pen_miss[2];
    int  cap_frames, cap_msgs;
} rcg_state_t;

static char *dup_line(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static int header_version(const char *data, size_t len, char *err, size_t errlen)
{
    if (len >= 1 && data[0] == '[') {
        snprintf(err, errlen, "a JSON game log: not read by this version of the player");
        return -1;
    }
    if (len < 4 || memcmp(data, "ULG", 3) != 0) {
        snprintf(err, errlen, "no ULG header: not a game log, or one of version 1 (not read yet)");
        return -1;
    }
    if (data[3] >= '4' && data[3] <= '6' && (len == 4 || data[4] == '\n' || data[4] == '\r'))
        return data[3] - '0';
    if (data[3] >= 1 && data[3] <= 3) {
        snprintf(err, errlen, "a binary game log (version %d): not read yet", data[3]);
        return -1;
    }
    snprintf(err, errlen, "unknown game log version");
    return -1;
}

/* (playmode T name) */
static int parse_playmode(const char *line, rcg_state_t *st)
{
    char name[64];
    int t;
    if (sscanf(line, "(playmode %d %63[a-z_]", &t, name) != 2)
        return -1;
    int pm = playmode_lookup(name);
    if (pm < 0)
        return -1;
    st->pm = pm;
    return 0;
}

/* (team T L R SL SR [LPS LPM RPS RPM]) */
static int parse_team(const char *line, rcg_state_t *st)
{
    char l[SHM_TEAM_NAME_LEN], r[SHM_TEAM_NAME_LEN];
    int t, sl, sr, p[4] = { 0, 0, 0, 0 };
    int n = sscanf(line, "(team %d %15s %15s %d %d %d %d %d %d", &t, l, r, &sl, &sr,
                   &p[0], &p[1], &p[2], &p[3]);
    if (n != 5 && n != 9)
        return -1;
    char *nm[2] = { l, r };
    for (int k = 0; k < 2; k++) {
        size_t m = strcspn(nm[k], ")");
        nm[k][m] = '\0';
        snprintf(st->team[k], SHM_TEAM_NAME_LEN, "%s", strcmp(nm[k], "null") ? nm[k] : "");
    }
    st->score[0] = sl;
    st->score[1] = sr;
    st->pen_score[0] = p[0];
    st->pen_miss[0] = p[1];
    st->pen_score[1] = p[2];
    st->pen_miss[1] = p[3];
    return 0;
}

/* (msg T B "text"): the text runs to the last `")` of the line (it is not escaped) */
static int parse_msg(rcg_t *g, const char *line, size_t n, rcg_state_t *st)
{
    int t, b, off = 0;
    if (sscanf(line, "(msg %d %d \"%n", &t, &b, &off) != 2 || off == 0)
        return -1;
    const char *end = line + n; /* the text is [line + off, end - 2) */
    while (end - 2 >= line + off && !(end[-1] == ')' && end[-2] == '"'))
        end--;
    if (end - 2 < line + off)
        return -1;
    if (g->n_msgs == st->cap_msgs) {
        int cap = st->cap_msgs ? st->cap_msgs * 2 : 256;
        rcg_msg_t *m = realloc(g->msg, (size_t)cap * sizeof *m);
        if (!m)
            return -1;
        g->msg = m;
        st->cap_msgs = cap;
    }
    rcg_msg_t *m = &g->msg[g->n_msgs];
    m->time = t;
    m->board = b;
    m->text = dup_line(line + off, (size_t)(end - 2 - (line + off)));
    if (!m->text)
        return -1;
    g->n_msgs++;
    unsigned long long seed;
    if (b == 2 && sscanf(m->text, "(rcssserver-shm (random_seed %llu)", &seed) == 1) {
        g->has_seed = 1;
        g->seed = seed;
    }
    return 0;
}

static int add_frame(rcg_t *g, const char *line, rcg_state_t *st)
{
    if (g->n_frames == st->cap_frames) {
        int cap = st->cap_frames ? st->cap_frames * 2 : 1024;
        rcg_frame_t *f = realloc(g->frame, (size_t)cap * sizeof *f);
        if (!f)
            return -1;
        g->frame = f;
        st->cap_frames = cap;
    }
    rcg_frame_t *f = &g->frame[g->n_frames];
    memset(f, 0, sizeof *f);
    shm_snapshot_sh_t *s = &f->snap;
    s->play_mode = st->pm;
    memcpy(s->team, st->team, sizeof s->team);
    for (int k = 0; k < 2; k++) {
        s->score[k] = st->score[k];
        s->pen_score[k] = st->pen_score[k];
        s->pen_miss[k] = st->pen_miss[k];
    }
    if (rcg_parse_show(line, s) < 0)
        return -1;
    s->step = (uint64_t)g->n_frames + 1;
    f->msg_end = g->n_msgs;
    g->n_frames++;
    return 0;
}

static int add_type(rcg_t *g, const char *line, size_t n)
{
    char **t = realloc(g->player_type, (size_t)(g->n_types + 1) * sizeof *t);
    if (!t)
        return -1;
    g->player_type = t;
    if (!(t[g->n_types] = dup_line(line, n)))
        return -1;
    g->n_types++;
    return 0;
}

static int parse_line(rcg_t *g, const char *line, size_t n, rcg_state_t *st)
{
    if (strncmp(line, "(show ", 6) == 0)
        return add_frame(g, line, st);
    if (strncmp(line, "(msg ", 5) == 0)
        return parse_msg(g, line, n, st);
    if (strncmp(line, "(playmode ", 10) == 0)
        return parse_playmode(line, st);
    if (strncmp(line, "(team ", 6) == 0)
        return parse_team(line, st);
    if (strncmp(line, "(player_type ", 13) == 0)
        return add_type(g, line, n);
    if (strncmp(line, "(server_param ", 14) == 0 && !g->server_param)
        return (g->server_param = dup_line(line, n)) ? 0 : -1;
    if (strncmp(line, "(player_param ", 14) == 0 && !g->player_param)
        return (g->player_param = dup_line(line, n)) ? 0 : -1;
    return -1;
}

int rcg_read_mem(const char *data, size_t len, rcg_t *g, char *err, size_t errlen)
{
    rcg_state_t st;
    memset(g, 0, sizeof *g);
    memset(&st, 0, sizeof st);
    int v = header_version(data, len, err, errlen);
    if (v < 0)
        return -1;
    g->version = v;
    const char *p = memchr(data, '\n', len);
    const char *end = data + len;
    p = p ? p + 1 : end;
    static char line[1 << 20];  /* one line, NUL-terminated (longer ones are skipped) */
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        if (n > 0 && p[n - 1] == '\r')
            n--;
        if (n > 0 && n < sizeof line) {
            memcpy(line, p, n);
            line[n] = '\0';
            if (strlen(line) != n || parse_line(g, line, n, &st) < 0)
                g->bad_lines++;
        } else if (n > 0) {
            g->bad_lines++;
        }
        p = nl ? nl + 1 : end;
    }
    return 0;
}

int rcg_read_file(const char *path, rcg_t *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    gzFile f = gzopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno ? errno : ENOENT));
        return -1;
    }
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap);
    int n = 0;
    while (buf && (n = gzread(f, buf + len, (unsigned)(cap - len))) > 0) {
        len += (size_t)n;
        if (len == cap) {
            char *b = cap < RCG_MAX_BYTES ? realloc(buf, cap * 2) : NULL;
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    int zerr = 0;
    const char *zmsg = n < 0 ? gzerror(f, &zerr) : NULL;
    gzclose(f);
    if (!buf) {
        snprintf(err, errlen, "%s: too large or out of memory", path);
        return -1;
    }
    /* a cut gzip stream still gives what came before the cut: read that */
    if (zmsg && len == 0) {
        snprintf(err, errlen, "%s: %s", path, zmsg);
        free(buf);
        return -1;
    }
    int rc = rcg_read_mem(buf, len, g, err, errlen);
    free(buf);
    return rc;
}

void rcg_free(rcg_t *g)
{
    free(g->server_param);
    free(g->player_param);
    for (int i = 0; i < g->n_types; i++)
        free(g->player_type[i]);
    free(g->player_type);
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
        if (g->frame[mid].snap.time < cycle)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
