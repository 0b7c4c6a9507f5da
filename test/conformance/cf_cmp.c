/* cf_cmp.c -- the comparer (cf_cmp.h): rules applied to each stream, line differences
 * (cf_diff.c) or phase clusters (cf_clust.c), deviations (cf_dev.c), the report.
 * Called by cf_main.c once per scenario. */
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_mem.h"
#include "cf_clust.h"
#include "cf_cmp.h"
#include "cf_diff.h"

#define MIN_POINTS   8       /* fewer arrivals of a kind in a window are not compared */
#define STALL_TAIL   300000  /* µs after a stall that still count as "during the stall" */
#define SHOW_CHARS   240     /* longer lines are shown as an excerpt ... */
int cf_cmp_full_lines;        /* ... unless this is set (--full) */
#define MOVE_GAP     4       /* a message this many lines away is "moved", not two differences */

/* ---- rules ---------------------------------------------------------------------------- */

static size_t zlib_prefix(const char *l)
{
    return strncmp(l, "[zlib] ", 7) == 0 ? 7 : 0;
}

char *cf_cmp_notime(const char *line)
{
    char *out = cf_xstrdup(line);
    size_t p = zlib_prefix(out);
    if (out[p] != '(')
        return out;
    size_t w = p + 1;
    while (isalnum((unsigned char)out[w]) || out[w] == '_' || out[w] == '-')
        w++;
    if (w == p + 1 || out[w] != ' ')
        return out;
    /* a trainer's or coach's referee hear has the cycle after "referee" */
    if (w - p - 1 == 4 && strncmp(out + p + 1, "hear", 4) == 0
        && strncmp(out + w + 1, "referee ", 8) == 0)
        w += 8;
    size_t d = w + 1, e = d;
    if (out[e] == '-')
        e++;
    while (isdigit((unsigned char)out[e]))
        e++;
    if (e == d || !isdigit((unsigned char)out[e - 1]) || (out[e] != ' ' && out[e] != ')'))
        return out;
    out[d] = 'T';
    memmove(out + d + 1, out + e, strlen(out + e) + 1);
    return out;
}

char *cf_cmp_shape(const char *line)
{
    size_t len = strlen(line);
    char *out = cf_xmalloc(len + 1), *o = out;
    for (size_t i = 0; i < len; ) {
        int start = i == 0 || !(isalnum((unsigned char)line[i - 1]) || line[i - 1] == '_'
                                || line[i - 1] == '.');
        size_t j = i;
        if (start && line[j] == '-' && isdigit((unsigned char)line[j + 1]))
            j++;
        if (start && (isdigit((unsigned char)line[j])
                      || (line[j] == '.' && isdigit((unsigned char)line[j + 1])))) {
            while (isdigit((unsigned char)line[j]))
                j++;
            if (line[j] == '.')
                for (j++; isdigit((unsigned char)line[j]); j++)
                    ;
            if ((line[j] == 'e' || line[j] == 'E')
                && (isdigit((unsigned char)line[j + 1])
                    || ((line[j + 1] == '-' || line[j + 1] == '+')
                        && isdigit((unsigned char)line[j + 2])))) {
                j += 2;
                while (isdigit((unsigned char)line[j]))
                    j++;
            }
            if (!isalpha((unsigned char)line[j]) && line[j] != '_') {
                *o++ = '#';
                i = j;
                continue;
            }
        }
        *o++ = line[i++];
    }
    *o = '\0';
    return out;
}

/* one object of a see message, "((NAME) N...)" at p: name and value words split out;
 * returns the length consumed, 0 if p is not such an object */
typedef struct seeobj {
    char name[64];
    char val[8][24];
    int  nval;
} seeobj_t;

static size_t see_object(const char *p, seeobj_t *o)
{
    if (p[0] != '(' || p[1] != '(')
        return 0;
    const char *ne = strchr(p + 2, ')');
    if (!ne || (size_t)(ne - p - 2) >= sizeof o->name)
        return 0;
    snprintf(o->name, sizeof o->name, "%.*s", (int)(ne - p - 2), p + 2);
    const char *q = ne + 1;
    o->nval = 0;
    for (;;) {
        while (*q == ' ')
            q++;
        if (*q == ')')
            return (size_t)(q + 1 - p);
        size_t n = strcspn(q, " ()");
        if (!n || n >= sizeof o->val[0] || o->nval == 8)
            return 0;
        snprintf(o->val[o->nval++], sizeof o->val[0], "%.*s", (int)n, q);
        q += n;
    }
}

char *cf_cmp_seecanon(const char *line)
{
    size_t pre = zlib_prefix(line);
    if (strncmp(line + pre, "(see ", 5) != 0)
        return cf_xstrdup(line);
    size_t len = strlen(line);
    char *out = cf_xmalloc(len + 1);
    /* "(see T" is copied as it is */
    const char *p = line + pre + 5;
    p += strcspn(p, " )");
    size_t o = (size_t)(p - line);
    memcpy(out, line, o);
    while (*p) {
        seeobj_t ob;
        size_t n = *p == ' ' ? see_object(p + 1, &ob) : 0;
        if (!n) {
            out[o++] = *p++;
            continue;
        }
        p += 1 + n;
        char kind = ob.name[0];
        int player = kind == 'p' || (kind == 'P' && ob.name[1] == ' ');
        int thing = strchr("fgbFGB", kind) && (ob.name[1] == ' ' || ob.name[1] == '\0'
                                                || strncmp(ob.name, "flag", 4) == 0
                                                || strncmp(ob.name, "goal", 4) == 0
                                                || strncmp(ob.name, "ball", 4) == 0);
        double d = ob.nval >= 2 ? atof(ob.val[0]) : -1;
        int between = d >= 19.9 && d <= 40.1;
        int keep = ob.nval;
        if (player && (d >= 19.9 || ob.nval == 1)) {
            /* the kind of object only: its first word */
            ob.name[strcspn(ob.name, " ")] = '\0';
            keep = ob.nval == 1 ? 1 : 2;
        } else if (thing && between && ob.nval > 2) {
            keep = 2;
        } else if (player && ob.nval >= 7 && (isdigit((unsigned char)ob.val[6][0])
                                              || ob.val[6][0] == '-')) {
            /* a close player's arm direction carries noise */
            for (int i = 6; i + 1 < ob.nval; i++)
                memcpy(ob.val[i], ob.val[i + 1], sizeof ob.val[i]);
            keep = --ob.nval;
        }
        o += (size_t)sprintf(out + o, " ((%s)", ob.name);
        for (int i = 0; i < keep; i++)
            o += (size_t)sprintf(out + o, " %s", ob.val[i]);
        out[o++] = ')';
    }
    out[o] = '\0';
    return out;
}

static void lines_add(cf_lines_t *l, char *text, int rec)
{
    l->text = cf_xrealloc(l->text, (size_t)(l->n + 1) * sizeof *l->text);
    l->rec = cf_xrealloc(l->rec, (size_t)(l->n + 1) * sizeof *l->rec);
    l->text[l->n] = text;
    l->rec[l->n++] = rec;
}

void cf_lines_free(cf_lines_t *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->text[i]);
    free(l->text);
    free(l->rec);
    memset(l, 0, sizeof *l);
}

char *cf_cmp_seenames(const char *line)
{
    size_t pre = zlib_prefix(line);
    if (strncmp(line + pre, "(see ", 5) != 0)
        return cf_xstrdup(line);
    char *out = cf_xmalloc(strlen(line) + 1);
    const char *p = line + pre + 5;
    p += strcspn(p, " )");
    size_t o = (size_t)(p - line);
    memcpy(out, line, o);
    for (; *p; p++) {
        seeobj_t ob;
        size_t n = *p == ' ' ? see_object(p + 1, &ob) : 0;
        if (!n)
            continue;
        p += n;
        char kind = ob.name[0];
        if (kind == 'p' || (kind == 'P' && ob.name[1] == ' '))
            ob.name[strcspn(ob.name, " ")] = '\0';
        o += (size_t)sprintf(out + o, " (%s)", ob.name);
    }
    out[o++] = ')';
    out[o] = '\0';
    return out;
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every maximal run of consecutive lines matching re sorted (the records they came from
 * keep their places) */
static void sort_runs(cf_lines_t *l, regex_t *re)
{
    for (int i = 0; i < l->n; ) {
        int j = i;
        while (j < l->n && regexec(re, l->text[j], 0, NULL, 0) == 0)
            j++;
        if (j - i > 1)
            qsort(l->text + i, (size_t)(j - i), sizeof *l->text, str_cmp);
        i = j > i ? j : i + 1;
    }
}

/* t with every part matching re (compiled with sub-matches) replaced by with ("#" for
 * blank, "" for strip) */
char *cf_cmp_blank(const char *t, const regex_t *re, const char *with)
{
    size_t wl = strlen(with);
    size_t cap = strlen(t) * (wl + 1) + 1, len = 0;
    char *out = cf_xmalloc(cap);
    const char *p = t;
    regmatch_t m;
    int flags = 0;
    while (*p && regexec(re, p, 1, &m, flags) == 0 && m.rm_eo > m.rm_so) {
        memcpy(out + len, p, (size_t)m.rm_so);
        len += (size_t)m.rm_so;
        memcpy(out + len, with, wl);
        len += wl;
        p += m.rm_eo;
        flags = REG_NOTBOL;
    }
    size_t rest = strlen(p);
    memcpy(out + len, p, rest + 1);
    return out;
}

static void apply_rule(const cf_rule_t *r, cf_lines_t *l)
{
    if (r->kind == CF_RULE_BLANK || r->kind == CF_RULE_STRIP) {
        regex_t sub;
        if (regcomp(&sub, r->re, REG_EXTENDED) != 0)
            return;
        for (int i = 0; i < l->n; i++) {
            char *n = cf_cmp_blank(l->text[i], &sub, r->kind == CF_RULE_BLANK ? "#" : "");
            free(l->text[i]);
            l->text[i] = n;
        }
        regfree(&sub);
        return;
    }
    regex_t re;
    if (r->re && regcomp(&re, r->re, REG_EXTENDED | REG_NOSUB) != 0)
        return;     /* checked by the parser */
    cf_lines_t out = { 0 };
    for (int i = 0; i < l->n; i++) {
        char *t = l->text[i];
        int m = r->re ? regexec(&re, t, 0, NULL, 0) == 0 : 0;
        switch (r->kind) {
        case CF_RULE_DROP:
            if (m) {
                free(t);
                continue;
            }
            break;
        case CF_RULE_KEEP:
            if (!m) {
                free(t);
                continue;
            }
            break;
        case CF_RULE_NOTIME: {
            char *n = cf_cmp_notime(t);
            free(t);
            t = n;
            break;
        }
        case CF_RULE_CUT: {
            /* the first n bytes (an escape \xHH is one byte) */
            if (m) {
                size_t b = 0, i = 0;
                while (t[i] && b < (size_t)r->n) {
                    i += t[i] == '\\' && t[i + 1] == 'x' && t[i + 2] && t[i + 3] ? 4 : 1;
                    b++;
                }
                t[i] = '\0';
            }
            break;
        }
        case CF_RULE_SEENAMES: {
            char *n = cf_cmp_seenames(t);
            free(t);
            t = n;
            break;
        }
        case CF_RULE_SEECANON: {
            char *n = cf_cmp_seecanon(t);
            free(t);
            t = n;
            break;
        }
        case CF_RULE_SHAPE:
            if (m) {
                char *n = cf_cmp_shape(t);
                free(t);
                t = n;
            }
            break;
        case CF_RULE_SQUASH:
            if (out.n && strcmp(out.text[out.n - 1], t) == 0) {
                free(t);
                continue;
            }
            break;
        default:
            break;
        }
        lines_add(&out, t, l->rec[i]);
    }
    free(l->text);
    free(l->rec);
    *l = out;
    if (r->kind == CF_RULE_SORTRUN)
        sort_runs(l, &re);
    if (r->re)
        regfree(&re);
}

void cf_cmp_filter(const cf_scn_t *s, const cf_stream_t *st, cf_lines_t *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < st->n; i++) {
        const cf_rec_t *r = &st->rec[i];
        if (r->sent)
            continue;
        if (r->zlib) {
            char *t = cf_xmalloc(strlen(r->text) + 8);
            sprintf(t, "[zlib] %s", r->text);
            lines_add(out, t, i);
        } else {
            lines_add(out, cf_xstrdup(r->text), i);
        }
    }
    const cf_rule_t *rules[64];
    int nr = cf_scn_rules(s, st->name, rules, 64);
    for (int i = 0; i < nr; i++)
        apply_rule(rules[i], out);
}

/* ---- line differences --------------------------------------------------------------------- */

typedef struct side {
    const cf_run_t    *run;
    const cf_stream_t *st;     /* NULL: the run has no such stream */
    cf_lines_t         l;
} side_t;

static void show_line(FILE *out, const char *label, const side_t *sd, int i, const char *other)
{
    const char *t = sd->l.text[i];
    int rec = sd->l.rec[i];
    char when[32] = "";
    if (rec >= 0 && sd->st->rec[rec].t_us)
        snprintf(when, sizeof when, " +%.3fs", (double)sd->st->rec[rec].t_us / 1e6);
    size_t len = strlen(t);
    if (len <= SHOW_CHARS || cf_cmp_full_lines) {
        fprintf(out, "     %-5s #%d%s  %s\n", label, i + 1, when, t);
        return;
    }
    /* long: the part around the first character that differs from the other side */
    size_t c = 0;
    if (other)
        while (t[c] && t[c] == other[c])
            c++;
    size_t from = c > 80 ? c - 80 : 0;
    fprintf(out, "     %-5s #%d%s  [%zu chars, from char %zu] %s%.*s%s\n", label, i + 1, when,
            len, from, from ? "..." : "", SHOW_CHARS - 80, t + from,
            from + SHOW_CHARS - 80 < len ? "..." : "");
}

/* what the client sent last before record rec (or before the end), "" if nothing */
static const char *sent_before(const side_t *sd, int line)
{
    if (!sd->st)
        return "";
    int rec = line < sd->l.n ? sd->l.rec[line] : sd->st->n;
    for (int i = rec - 1; i >= 0; i--)
        if (sd->st->rec[i].sent)
            return sd->st->rec[i].text;
    return "";
}

static void show_hunk(FILE *out, const cf_hunk_t *h, const side_t *a, const side_t *b)
{
    const char *sent = sent_before(a, h->a0);
    if (*sent)
        fprintf(out, "     (%s's last message before: %.200s)\n", a->run->label, sent);
    int show = 4;
    const char *oa = h->b1 > h->b0 ? b->l.text[h->b0] : NULL;
    const char *ob = h->a1 > h->a0 ? a->l.text[h->a0] : NULL;
    for (int i = h->a0; i < h->a1 && i < h->a0 + show; i++)
        show_line(out, a->run->label, a, i, i == h->a0 ? oa : NULL);
    if (h->a1 - h->a0 > show)
        fprintf(out, "     %-5s ... %d more\n", a->run->label, h->a1 - h->a0 - show);
    if (h->a1 == h->a0)
        fprintf(out, "     %-5s (nothing at #%d)\n", a->run->label, h->a0 + 1);
    for (int i = h->b0; i < h->b1 && i < h->b0 + show; i++)
        show_line(out, b->run->label, b, i, i == h->b0 ? ob : NULL);
    if (h->b1 - h->b0 > show)
        fprintf(out, "     %-5s ... %d more\n", b->run->label, h->b1 - h->b0 - show);
    if (h->b1 == h->b0)
        fprintf(out, "     %-5s (nothing at #%d)\n", b->run->label, h->b0 + 1);
}

static void compare_lines(const cf_scn_t *s, const char *name, side_t *a, side_t *b,
                          cf_devs_t *devs, FILE *out, int max_show, cf_cmp_count_t *count)
{
    if (a->st)
        cf_cmp_filter(s, a->st, &a->l);
    if (b->st)
        cf_cmp_filter(s, b->st, &b->l);
    cf_hunk_t *h;
    int nh = cf_diff((const char *const *)a->l.text, a->l.n, (const char *const *)b->l.text,
                     b->l.n, &h);
    int shown = 0, hidden = 0;
    const char *const *ta = (const char *const *)a->l.text, *const *tb = (const char *const *)b->l.text;
    for (int i = 0; i < nh; i++) {
        int move = cf_diff_is_move(h, nh, i, ta, tb, MOVE_GAP);
        /* a move is one difference: the second hunk's lines are the same */
        int last = move ? i + 1 : i;
        int n = 0;
        for (int j = i; j <= last; j++)
            n += (h[j].a1 - h[j].a0) + (h[j].b1 - h[j].b0);
        const char **lines = cf_xmalloc((size_t)n * sizeof *lines);
        int k = 0;
        for (int j = i; j <= last; j++) {
            for (int x = h[j].a0; x < h[j].a1; x++)
                lines[k++] = ta[x];
            for (int x = h[j].b0; x < h[j].b1; x++)
                lines[k++] = tb[x];
        }
        cf_dev_t *dev = devs ? cf_dev_match(devs, s->name, name, lines, n) : NULL;
        free(lines);
        if (dev) {
            count->devs++;
            int ina = h[i].a1 > h[i].a0;
            fprintf(out, "  deviation (%s): %s #%d of %s: %.100s\n", dev->reason, name,
                    (ina ? h[i].a0 : h[i].b0) + 1, ina ? a->run->label : b->run->label,
                    ina ? ta[h[i].a0] : tb[h[i].b0]);
            i = last;
            continue;
        }
        count->diffs++;
        if (shown >= max_show) {
            hidden++;
        } else if (move) {
            shown++;
            /* where the moved lines are in each run */
            int pa = h[i].a1 > h[i].a0 ? h[i].a0 : h[i + 1].a0;
            int pb = h[i].b1 > h[i].b0 ? h[i].b0 : h[i + 1].b0;
            int nm = (h[i].a1 - h[i].a0) + (h[i].b1 - h[i].b0);
            fprintf(out, "  -- %s: %d message%s in another place: #%d of %s, #%d of %s\n", name,
                    nm, nm == 1 ? "" : "s", pa + 1, a->run->label, pb + 1, b->run->label);
            const char *sent = sent_before(a, pa);
            if (*sent)
                fprintf(out, "     (%s's last message before: %.200s)\n", a->run->label, sent);
            for (int x = 0; x < nm && x < 4; x++)
                show_line(out, a->run->label, a, pa + x, NULL);
            int ctx = pa < pb ? pa + nm : pb + nm;     /* what it moved across, in a */
            int cend = h[i + 1].a0 > ctx ? h[i + 1].a0 : h[i].a1;
            if (pa > pb)
                ctx = h[i].a0, cend = h[i + 1].a0;
            for (int x = ctx; x < cend && x < ctx + 3 && x < a->l.n; x++)
                fprintf(out, "     (across #%d: %.160s)\n", x + 1, ta[x]);
        } else {
            shown++;
            fprintf(out, "  -- %s: messages #%d-%d of %s, #%d-%d of %s\n", name, h[i].a0 + 1,
                    h[i].a1, a->run->label, h[i].b0 + 1, h[i].b1, b->run->label);
            show_hunk(out, &h[i], a, b);
        }
        i = last;
    }
    if (hidden)
        fprintf(out, "  -- %s: %d more differences not shown (%d and %d messages in all)\n",
                name, hidden, a->l.n, b->l.n);
    free(h);
    cf_lines_free(&a->l);
    cf_lines_free(&b->l);
}

/* ---- timing ------------------------------------------------------------------------------- */

#define W_BEFORE 0
#define W_STALLS 1
#define W_AFTER  2
static const char *const window_name[3] = { "steady", "during stalls", "after stalls" };

typedef struct tpoint {
    char   kind[24];
    int    window;
    double off;          /* ms after the preceding sense_body (interval for sense_body) */
} tpoint_t;

static int window_of(const cf_run_t *run, int64_t t)
{
    if (run->nstall < 2 || t < run->stall[0])
        return W_BEFORE;
    for (int i = 0; i + 1 < run->nstall; i += 2)
        if (t >= run->stall[i] && t <= run->stall[i + 1] + STALL_TAIL)
            return W_STALLS;
    return W_AFTER;
}

static void kind_of(const char *text, char *kind, size_t len)
{
    if (text[0] != '(') {
        snprintf(kind, len, "other");
        return;
    }
    size_t n = strcspn(text + 1, " ()");
    snprintf(kind, len, "%.*s", (int)n, text + 1);
}

static int timing_points(const cf_run_t *run, const cf_stream_t *st, tpoint_t **out)
{
    int n = 0;
    *out = NULL;
    int64_t last_sb = -1;
    if (!st)
        return 0;
    *out = cf_xmalloc((size_t)(st->n + 1) * sizeof **out);
    for (int i = 0; i < st->n; i++) {
        const cf_rec_t *r = &st->rec[i];
        if (r->sent || r->note)
            continue;
        tpoint_t p;
        kind_of(r->text, p.kind, sizeof p.kind);
        p.window = window_of(run, r->t_us);
        if (strcmp(p.kind, "sense_body") == 0) {
            int64_t prev = last_sb;
            last_sb = r->t_us;
            if (prev < 0)
                continue;
            snprintf(p.kind, sizeof p.kind, "sense_body period");
            p.off = (double)(r->t_us - prev) / 1000.0;
        } else {
            if (last_sb < 0)
                continue;
            p.off = (double)(r->t_us - last_sb) / 1000.0;
        }
        (*out)[n++] = p;
    }
    return n;
}

static int values(const tpoint_t *p, int n, const char *kind, int window, double *v)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (p[i].window == window && strcmp(p[i].kind, kind) == 0)
            v[k++] = p[i].off;
    return k;
}

static void timing_diff(const cf_scn_t *s, const char *name, const char *what, cf_devs_t *devs,
                        FILE *out, cf_cmp_count_t *count)
{
    const char *l[1] = { what };
    cf_dev_t *dev = devs ? cf_dev_match(devs, s->name, name, l, 1) : NULL;
    if (dev) {
        count->devs++;
        fprintf(out, "  deviation (%s): %s\n", dev->reason, what);
    } else {
        count->diffs++;
        fprintf(out, "  -- %s\n", what);
    }
}

static void compare_timing(const cf_scn_t *s, const char *name, const side_t *a,
                           const side_t *b, cf_devs_t *devs, FILE *out, int verbose,
                           cf_cmp_count_t *count)
{
    tpoint_t *pa, *pb;
    int na = timing_points(a->run, a->st, &pa), nb = timing_points(b->run, b->st, &pb);
    double *va = cf_xmalloc((size_t)(na + 1) * sizeof *va), *vb = cf_xmalloc((size_t)(nb + 1) * sizeof *vb);
    /* the kinds, in order of first appearance in either run */
    char kinds[32][24];
    int nk = 0;
    for (int i = 0; i < na + nb && nk < 32; i++) {
        const char *k = i < na ? pa[i].kind : pb[i - na].kind;
        int seen = 0;
        for (int j = 0; j < nk && !seen; j++)
            seen = strcmp(kinds[j], k) == 0;
        if (!seen)
            snprintf(kinds[nk++], sizeof kinds[0], "%s", k);
    }
    for (int k = 0; k < nk; k++) {
        cf_cluster_t ca0[CF_CLUST_MAX], cb0[CF_CLUST_MAX];
        int nca0 = 0, ncb0 = 0;
        for (int w = W_BEFORE; w <= W_AFTER; w++) {
            int xa = values(pa, na, kinds[k], w, va), xb = values(pb, nb, kinds[k], w, vb);
            char what[2048], fa[300], fb[300], why[200];
            /* too few to compare in both, or in one with one arrival less than the other
             * has (a window's edge falls either side of one arrival: 7 and 8 sees of a
             * player during the stalls in two runs of this server) */
            if ((xa < MIN_POINTS && xb < MIN_POINTS)
                || ((xa < MIN_POINTS || xb < MIN_POINTS) && abs(xa - xb) <= 1))
                continue;
            cf_cluster_t ca[CF_CLUST_MAX], cb[CF_CLUST_MAX];
            int nca = cf_clust(va, xa, CF_CLUST_JOIN_MS, ca, CF_CLUST_MAX);
            int ncb = cf_clust(vb, xb, CF_CLUST_JOIN_MS, cb, CF_CLUST_MAX);
            cf_clust_format(ca, nca, CF_CLUST_MIN_SHARE, fa, sizeof fa);
            cf_clust_format(cb, ncb, CF_CLUST_MIN_SHARE, fb, sizeof fb);
            if (w == W_BEFORE) {
                memcpy(ca0, ca, sizeof ca);
                memcpy(cb0, cb, sizeof cb);
                nca0 = nca;
                ncb0 = ncb;
            }
            int differ;
            if (xa < MIN_POINTS || xb < MIN_POINTS) {
                differ = 1;
                snprintf(why, sizeof why, "%d arrivals in %s, %d in %s", xa, a->run->label,
                         xb, b->run->label);
            } else if (w == W_STALLS && strcmp(kinds[k], "sense_body period") != 0) {
                /* during stalls: how many arrive where they arrived before the stalls */
                double ia = cf_clust_in_place(va, xa, ca0, nca0, CF_CLUST_TOL_MS,
                                              CF_CLUST_MIN_SHARE);
                double ib = cf_clust_in_place(vb, xb, cb0, ncb0, CF_CLUST_TOL_MS,
                                              CF_CLUST_MIN_SHARE);
                differ = ia < 0 || ib < 0 || ia - ib > CF_CLUST_PLACE_TOL
                         || ib - ia > CF_CLUST_PLACE_TOL;
                snprintf(why, sizeof why, "in place (within %.0f ms of a steady phase): %.0f%% "
                         "in %s, %.0f%% in %s", CF_CLUST_TOL_MS, 100 * ia, a->run->label,
                         100 * ib, b->run->label);
            } else {
                differ = cf_clust_differ(va, xa, ca, nca, vb, xb, cb, ncb, CF_CLUST_TOL_MS,
                                         CF_CLUST_MIN_SHARE, CF_CLUST_SHARE_TOL, a->run->label,
                                         b->run->label, why, sizeof why);
                if (!differ)
                    snprintf(why, sizeof why, "same phases");
            }
            snprintf(what, sizeof what, "timing %s %s %s: %s; %s %s; %s %s", name, kinds[k],
                     window_name[w], why, a->run->label, fa, b->run->label, fb);
            if (differ)
                timing_diff(s, name, what, devs, out, count);
            else if (verbose)
                fprintf(out, "     %s\n", what);
        }
    }
    free(va);
    free(vb);
    free(pa);
    free(pb);
}

/* ---- the scenario ------------------------------------------------------------------------- */

static int file_stream(const char *name)
{
    return strncmp(name, "rcg", 3) == 0 || strncmp(name, "rcl", 3) == 0
           || strncmp(name, "kwy", 3) == 0 || strcmp(name, "logfiles") == 0;
}

static int compared(const cf_scn_t *s, const char *name)
{
    if (cf_scn_has_rule(s, name, CF_RULE_IGNORE))
        return 0;
    if (strcmp(name, "stdout") == 0)
        return s->stdout_cmp;
    if (file_stream(name))
        return s->logs;
    return 1;
}

void cf_cmp_scenario(const cf_scn_t *s, const cf_run_t *a, const cf_run_t *b, cf_devs_t *devs,
                     FILE *out, int max_show, int verbose, cf_cmp_count_t *count)
{
    const cf_run_t *runs[2] = { a, b };
    for (int r = 0; r < 2; r++)
        if (runs[r]->problem[0]) {
            count->diffs++;
            fprintf(out, "  -- %s: %s\n", runs[r]->label, runs[r]->problem);
        }
    if (a->problem[0] || b->problem[0])
        return;
    /* every stream of either run, a's order first */
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < runs[r]->nst; i++) {
            const char *name = runs[r]->st[i].name;
            if (r == 1 && cf_run_stream(a, name))
                continue;
            if (!compared(s, name))
                continue;
            side_t sa = { .run = a, .st = cf_run_stream(a, name) };
            side_t sb = { .run = b, .st = cf_run_stream(b, name) };
            if (cf_scn_has_rule(s, name, CF_RULE_TIMING))
                compare_timing(s, name, &sa, &sb, devs, out, verbose, count);
            else
                compare_lines(s, name, &sa, &sb, devs, out, max_show, count);
        }
}
