/* rcg_text.c -- text game logs, versions 4-6 (docs/protocol/logs.md §2): one item per
 * line after "ULGn". The parameter lines set the log's parameters and player types,
 * (playmode T name) and (team T L R SL SR [pens]) the state the next shows carry,
 * (msg T B "text") is kept, (show ...) becomes a frame (rcg_show.c). A last line without
 * its newline that does not read is the cut of a killed writer: noted, not counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "playmode.h"
#include "rcg.h"
#include "sexp.h"

#define LINE_MAX_LEN (1 << 20)   /* longer lines are skipped as malformed */
#define PARAM_NODES  4096

/* (playmode T name) */
static int parse_playmode(rcg_t *g, const char *line)
{
    char name[64];
    int t;
    if (sscanf(line, "(playmode %d %63[a-z_]", &t, name) != 2)
        return -1;
    int pm = playmode_lookup(name);
    if (pm < 0)
        return -1;
    g->cur.pmode = pm;
    return 0;
}

/* (team T L R SL SR [LPS LPM RPS RPM]) */
static int parse_team(rcg_t *g, const char *line)
{
    char l[64], r[64];
    int t, sl, sr, p[4] = { 0, 0, 0, 0 };
    int n = sscanf(line, "(team %d %63s %63s %d %d %d %d %d %d", &t, l, r, &sl, &sr,
                   &p[0], &p[1], &p[2], &p[3]);
    if (n != 5 && n != 9)
        return -1;
    char *nm[2] = { l, r };
    for (int k = 0; k < 2; k++) {
        nm[k][strcspn(nm[k], ")")] = '\0';
        if (strlen(nm[k]) >= DISP_NAME_LEN)
            return -1;
        snprintf(g->cur.team[k], DISP_NAME_LEN, "%s", strcmp(nm[k], "null") ? nm[k] : "");
    }
    g->cur.score[0] = sl;
    g->cur.score[1] = sr;
    g->cur.pen_score[0] = p[0];
    g->cur.pen_miss[0] = p[1];
    g->cur.pen_score[1] = p[2];
    g->cur.pen_miss[1] = p[3];
    return 0;
}

/* (msg T B "text"): the text runs to the last `")` of the line (it is not escaped) */
static int parse_msg(rcg_t *g, const char *line, size_t n)
{
    int t, b, off = 0;
    if (sscanf(line, "(msg %d %d \"%n", &t, &b, &off) != 2 || off == 0)
        return -1;
    const char *end = line + n; /* the text is [line + off, end - 2) */
    while (end - 2 >= line + off && !(end[-1] == ')' && end[-2] == '"'))
        end--;
    if (end - 2 < line + off)
        return -1;
    return rcg_add_msg(g, t, b, line + off, (size_t)(end - 2 - (line + off))) < 0 ? -2 : 0;
}

static int parse_show(rcg_t *g, const char *line)
{
    static disp_show_t d;
    d = g->cur; /* the play mode and teams in force, unless the line has its own */
    if (rcg_parse_show(line, &d) < 0)
        return -1;
    return rcg_add_frame(g, &d) < 0 ? -2 : 0;
}

/* ---- parameters -------------------------------------------------------------------------- */
static void set_conf(rcg_t *g, const char *module, const sexp_t *pair)
{
    char name[128], value[CONF_STR_LEN], err[128];
    const sexp_t *k = pair->child, *v = k ? k->next : NULL;
    if (!pair->is_list || !k || k->is_list || !v || v->is_list)
        return;
    sexp_copy(k, name, sizeof name);
    sexp_copy(v, value, sizeof value);
    /* a parameter this server does not know is left out, not an error */
    conf_set(&g->conf, module, name, value, err, sizeof err);
}

static void set_type(disp_ptype_t *t, const sexp_t *pair)
{
    char name[64];
    double v;
    const sexp_t *k = pair->child, *val = k ? k->next : NULL;
    if (!pair->is_list || !k || k->is_list || !val || sexp_number(val, &v) < 0)
        return;
    sexp_copy(k, name, sizeof name);
    if (strcmp(name, "id") == 0)
        t->id = (int)v;
    for (int i = 0; i < DISP_PTYPE_FIELDS; i++) {
        if (strcmp(name, disp_ptype_names[i]) == 0)
            t->v[i] = v;
    }
}

int rcg_text_params(rcg_t *g, const char *line, size_t n)
{
    static sexp_t nodes[PARAM_NODES];
    sexp_arena_t a = { nodes, PARAM_NODES, 0 };
    char err[64];
    const sexp_t *root = sexp_parse(&a, line, n, NULL, err, sizeof err);
    if (!root || !root->is_list || !root->child)
        return -1;
    const sexp_t *head = root->child;
    if (sexp_is(head, "player_type")) {
        disp_ptype_t t;
        memset(&t, 0, sizeof t);
        t.id = -1;
        for (const sexp_t *p = head->next; p; p = p->next)
            set_type(&t, p);
        if (t.id < 0)
            return -1;
        rcg_add_ptype(g, &t);
        return 0;
    }
    const char *module = sexp_is(head, "server_param") ? "server"
                         : sexp_is(head, "player_param") ? "player" : NULL;
    if (!module)
        return -1;
    for (const sexp_t *p = head->next; p; p = p->next)
        set_conf(g, module, p);
    if (module[0] == 's')
        g->has_params = 1;
    return 0;
}

/* ---- lines ------------------------------------------------------------------------------- */
/* 0 read, -1 malformed, -2 out of memory */
static int parse_line(rcg_t *g, const char *line, size_t n)
{
    if (strncmp(line, "(show ", 6) == 0)
        return parse_show(g, line);
    if (strncmp(line, "(msg ", 5) == 0)
        return parse_msg(g, line, n);
    if (strncmp(line, "(playmode ", 10) == 0)
        return parse_playmode(g, line);
    if (strncmp(line, "(team ", 6) == 0)
        return parse_team(g, line);
    return rcg_text_params(g, line, n);
}

int rcg_text_read(rcg_t *g, const char *data, size_t len)
{
    static char line[LINE_MAX_LEN];  /* one line, NUL-terminated */
    const char *p = memchr(data, '\n', len), *end = data + len;
    p = p ? p + 1 : end;               /* past the rest of the header line */
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        if (n > 0 && p[n - 1] == '\r')
            n--;
        int rc = -1;
        if (n > 0 && n < sizeof line) {
            memcpy(line, p, n);
            line[n] = '\0';
            rc = strlen(line) == n ? parse_line(g, line, n) : -1;
        }
        if (rc == -2)
            return -1;
        if (rc == -1 && n > 0) {
            if (nl) {
                g->bad_items++;
            } else { /* the last line, cut */
                g->truncated = 1;
                rcg_note(g, "the file ends inside a line (%zu bytes after frame %d, cycle %d): "
                         "read up to there", n, g->n_frames,
                         g->n_frames ? g->frame[g->n_frames - 1].show.time : 0);
            }
        }
        p = nl ? nl + 1 : end;
    }
    return 0;
}
