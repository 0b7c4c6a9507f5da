/* netgw_coachcmd.c -- datagrams of the trainer and of online coaches parsed into
 * coach_cmd_t (netgw_coach.h; docs/protocol/coach.md §2-§4). The reference reads
 * these with scanf patterns, so the small scanner below reproduces what those patterns
 * accept: a command word of [-0-9a-zA-Z.+*\/?<>_], whitespace skipped where the pattern
 * has a blank, numbers as strtod/strtol read them, anything after the last field
 * ignored. Replies that need no world state are decided here; the sessions
 * (netgw_trainer.c, netgw_olcoach.c) add the ones that do. Pure. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "netgw_coach.h"
#include "playmode.h"

#define E_FORM      "(error illegal_command_form)"
#define E_UNKNOWN   "(error unknown_command)"
#define E_OBJECT    "(error illegal_object_form)"
#define E_VERSION   "(error illegal_client_version)"
#define E_COACHNAME "(error illegal_coachname_or_too_long_coachname)"
#define E_PARSE_SAY "(error could_not_parse_say)"

/* ---- scanner ----------------------------------------------------------------------- */
typedef struct scan {
    const char *s;
} scan_t;

static void sc_ws(scan_t *c)
{
    while (*c->s && isspace((unsigned char)*c->s))
        c->s++;
}

/* whitespace, then the literal text */
static int sc_lit(scan_t *c, const char *lit)
{
    sc_ws(c);
    size_t n = strlen(lit);
    if (strncmp(c->s, lit, n) != 0)
        return -1;
    c->s += n;
    return 0;
}

/* 1..max characters for which in() holds (no whitespace skipped, as %[...]) */
static int sc_run(scan_t *c, int (*in)(int), char *out, size_t max)
{
    size_t n = 0;
    while (c->s[n] && n < max && in((unsigned char)c->s[n]))
        n++;
    if (n == 0)
        return -1;
    if (out) {
        memcpy(out, c->s, n);
        out[n] = '\0';
    }
    c->s += n;
    return 0;
}

static int in_word(int ch)    /* [-0-9a-zA-Z.+*\/?<>_] */
{
    return isalnum(ch) || (ch && strchr("-.+*/?<>_", ch));
}

static int in_range(int ch)   /* [+-_a-zA-Z0-9] as scanf reads it: '+'..'_', a-z, digits */
{
    return (ch >= '+' && ch <= '_') || (ch >= 'a' && ch <= 'z');
}

static int in_say(int ch)     /* [-0-9a-zA-Z ().+*\/?<>_] */
{
    return isalnum(ch) || (ch && strchr("- ().+*/?<>_", ch));
}

static int in_mode(int ch)    /* [^ ()] */
{
    return ch && ch != ' ' && ch != '(' && ch != ')';
}

static int in_nonspace(int ch)
{
    return ch && !isspace(ch);
}

static int in_not_paren(int ch)
{
    return ch && ch != ')';
}

/* %lf: whitespace, then what strtod reads */
static int sc_double(scan_t *c, double *v)
{
    sc_ws(c);
    char *end;
    double d = strtod(c->s, &end);
    if (end == c->s)
        return -1;
    *v = d;
    c->s = end;
    return 0;
}

/* %d: whitespace, then what strtol reads */
static int sc_int(scan_t *c, long *v)
{
    sc_ws(c);
    char *end;
    long d = strtol(c->s, &end, 10);
    if (end == c->s)
        return -1;
    *v = d;
    c->s = end;
    return 0;
}

static void reply(coach_cmd_t *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->reply, sizeof out->reply, fmt, ap);
    va_end(ap);
}

/* " ( WORD": the command word, -1 if there is none */
static int sc_command(scan_t *c, char *word, size_t max)
{
    if (sc_lit(c, "(") < 0)
        return -1;
    sc_ws(c);
    return sc_run(c, in_word, word, max - 1);
}

/* ---- first datagrams --------------------------------------------------------------- */
int coach_parse_trainer_init(const char *text, double *version, char *err, size_t errlen)
{
    scan_t c = { text };
    char word[128];
    if (sc_command(&c, word, sizeof word) < 0) {
        snprintf(err, errlen, E_FORM);
        return -1;
    }
    if (strcmp(word, "init") != 0)
        return 0;
    *version = 3.0;
    scan_t v = c; /* (init (version V)): anything else keeps 3.0 */
    double d;
    if (sc_lit(&v, "(") == 0 && sc_lit(&v, "version") == 0 && sc_double(&v, &d) == 0) {
        if (isnan(d) || d < 1.0) {
            snprintf(err, errlen, E_FORM);
            return -1;
        }
        *version = d;
    }
    return 1;
}

int coach_parse_olcoach_init(const char *text, char *team, size_t teamlen, char *coach,
                             size_t coachlen, double *version, char *err, size_t errlen)
{
    scan_t c = { text };
    char buf[COACH_NAME_MAX];
    *version = 5.0;
    coach[0] = '\0';
    if (strncmp(text, "(init", 5) != 0 || sc_lit(&c, "(") < 0 || sc_lit(&c, "init") < 0) {
        snprintf(err, errlen, E_FORM);
        return -1;
    }
    sc_ws(&c);
    size_t tmax = teamlen - 1 < 15 ? teamlen - 1 : 15;
    if (sc_run(&c, in_range, team, tmax) < 0) {
        snprintf(err, errlen, E_FORM);
        return -1;
    }
    sc_ws(&c);
    if (*c.s != '(') { /* a coach name */
        if (sc_run(&c, in_range, buf, sizeof buf - 1) < 0) {
            snprintf(err, errlen, E_FORM);
            return -1;
        }
        snprintf(coach, coachlen, "%s", buf);
        sc_ws(&c);
        if (*c.s != '(' && *c.s != ')' && !isspace((unsigned char)*c.s)) {
            snprintf(err, errlen, E_COACHNAME);
            return -1;
        }
    }
    while (*c.s && *c.s != '(')
        c.s++;
    if (strncmp(c.s, "(version", 8) == 0) {
        double d;
        if (sc_lit(&c, "(") < 0 || sc_lit(&c, "version") < 0 || sc_double(&c, &d) < 0
            || sc_lit(&c, ")") < 0) {
            snprintf(err, errlen, E_FORM);
            return -1;
        }
        sc_ws(&c);
        if ((*c.s != '(' && *c.s != ')' && !isspace((unsigned char)*c.s)) || isnan(d)
            || d < 5.0) {
            snprintf(err, errlen, E_VERSION);
            return -1;
        }
        *version = d;
    }
    return 0;
}

/* ---- shared commands ----------------------------------------------------------------- */
/* (ear on|off) / (eye on|off) */
static void cmd_on_off(scan_t *c, int kind, coach_cmd_t *out)
{
    char mode[16];
    sc_ws(c);
    if (sc_run(c, in_mode, mode, sizeof mode - 1) < 0) {
        reply(out, E_FORM);
        return;
    }
    if (strcmp(mode, "on") == 0 || strcmp(mode, "off") == 0) {
        out->kind = kind;
        out->on = mode[1] == 'n';
        return;
    }
    reply(out, E_FORM);
}

static void cmd_compression(scan_t *c, coach_cmd_t *out)
{
    long level;
    if (sc_int(c, &level) < 0 || level > 9) {
        reply(out, E_FORM);
        return;
    }
    out->kind = COACH_COMPRESSION;
    out->level = level < -1 ? -1 : (int)level;
    reply(out, "(ok compression %ld)", level);
}

/* (say TEXT) as the trainer and v<7 coaches write it: the command word and a blank,
 * then [-0-9a-zA-Z ().+*\/?<>_]+; the closing parenthesis comes off, or the text is cut
 * to say_max. Returns -1 if nothing matches. */
static int say_text(const char *text, int say_max, coach_cmd_t *out)
{
    scan_t c = { text };
    if (sc_lit(&c, "(") < 0)
        return -1;
    sc_ws(&c);
    if (sc_run(&c, in_nonspace, NULL, (size_t)-1) < 0)
        return -1;
    sc_ws(&c);
    char *msg = out->text;
    if (sc_run(&c, in_say, msg, sizeof out->text - 1) < 0)
        return -1;
    size_t l = strlen(msg);
    if (say_max >= 0 && l > (size_t)say_max)
        msg[say_max] = '\0';
    else if (l > 0 && msg[l - 1] == ')')
        msg[l - 1] = '\0';
    out->len = strlen(msg);
    return 0;
}

/* ---- trainer --------------------------------------------------------------------------- */
/* (move (OBJECT) X Y [DIR [VX VY]]) */
static void trainer_move(scan_t *c, coach_cmd_t *out)
{
    char obj[COACH_NAME_MAX];
    int n = 0;
    double d[5] = { 0, 0, 0, 0, 0 };
    if (sc_lit(c, "(") == 0) {
        sc_ws(c);
        if (sc_run(c, in_not_paren, obj, sizeof obj - 1) == 0 && sc_lit(c, ")") == 0) {
            n = 1;
            while (n < 6 && sc_double(c, &d[n - 1]) == 0)
                n++;
        }
    }
    for (int k = 0; k < 5; k++) {
        if (!isfinite(d[k])) /* the reference refuses NaN; infinities too here */
            n = 0;
    }
    if (n < 3) {
        reply(out, E_OBJECT);
        return;
    }
    out->nnum = n - 1;
    memcpy(out->d, d, sizeof d);
    if (strcmp(obj, "ball") == 0) {
        out->ball = 1;
    } else {
        scan_t o = { obj };
        long unum;
        if (sc_lit(&o, "player") < 0 || (sc_ws(&o), sc_run(&o, in_nonspace, out->team,
                                                           sizeof out->team - 1)) < 0
            || sc_int(&o, &unum) < 0 || unum < 1 || unum > SHM_TEAM_SIZE) {
            reply(out, E_OBJECT);
            return;
        }
        out->unum = (int)unum;
    }
    if (out->nnum == 4) {
        reply(out, E_FORM);
        return;
    }
    out->kind = COACH_MOVE;
    reply(out, "(ok move)");
}

static void trainer_change_mode(scan_t *c, coach_cmd_t *out)
{
    char mode[128];
    sc_ws(c);
    if (sc_run(c, in_word, mode, sizeof mode - 1) < 0) {
        reply(out, E_FORM);
        return;
    }
    int pm = playmode_lookup(mode);
    if (pm <= PM_NULL) {
        reply(out, "(error illegal_mode)");
        return;
    }
    out->kind = COACH_CHANGE_MODE;
    out->mode = pm;
    reply(out, "(ok change_mode)");
}

void coach_parse_trainer(const char *text, int say_max, coach_cmd_t *out)
{
    memset(out, 0, offsetof(coach_cmd_t, text));
    out->text[0] = '\0';
    scan_t c = { text };
    char word[128];
    if (sc_command(&c, word, sizeof word) < 0) {
        reply(out, E_FORM);
        return;
    }
    if (strcmp(word, "start") == 0) {
        out->kind = COACH_START;
        reply(out, "(ok start)");
    } else if (strcmp(word, "change_mode") == 0) {
        trainer_change_mode(&c, out);
    } else if (strcmp(word, "move") == 0) {
        trainer_move(&c, out);
    } else if (strcmp(word, "look") == 0) {
        out->kind = COACH_LOOK;
    } else if (strcmp(word, "team_names") == 0) {
        out->kind = COACH_TEAM_NAMES;
    } else if (strcmp(word, "recover") == 0) {
        out->kind = COACH_RECOVER;
        reply(out, "(ok recover)\n"); /* the reference ends this one with a newline */
    } else if (strcmp(word, "reset") == 0) { /* this server's: a new episode */
        out->kind = COACH_RESET;
        reply(out, "(ok reset)");
    } else if (strcmp(word, "check_ball") == 0) {
        out->kind = COACH_CHECK_BALL;
    } else if (strcmp(word, "say") == 0) {
        if (say_text(text, say_max, out) < 0) {
            reply(out, E_FORM);
            return;
        }
        out->kind = COACH_SAY;
        reply(out, "(ok say)");
    } else if (strcmp(word, "ear") == 0) {
        cmd_on_off(&c, COACH_EAR, out);
        if (out->kind == COACH_EAR)
            reply(out, "(ok ear %s)", out->on ? "on" : "off");
    } else if (strcmp(word, "eye") == 0) {
        cmd_on_off(&c, COACH_EYE, out);
        if (out->kind == COACH_EYE)
            reply(out, "(ok eye %s)", out->on ? "on" : "off");
    } else if (strcmp(word, "change_player_type") == 0) {
        long unum, type;
        sc_ws(&c);
        if (sc_run(&c, in_nonspace, out->team, sizeof out->team - 1) < 0
            || sc_int(&c, &unum) < 0 || sc_int(&c, &type) < 0) {
            reply(out, E_FORM);
            return;
        }
        out->kind = COACH_CHANGE_TYPE;
        out->unum = (int)unum;
        out->type = (int)type;
    } else if (strcmp(word, "done") == 0) {
        out->kind = COACH_DONE;
    } else if (strcmp(word, "compression") == 0) {
        cmd_compression(&c, out);
    } else {
        reply(out, E_UNKNOWN);
    }
}

/* ---- online coach ------------------------------------------------------------------- */
/* the XPM of a team_graphic: from the first quote, "W H NCOLORS CPP", NCOLORS colour
 * strings, H pixel strings of W*CPP characters each; kept re-quoted, tabs as spaces */
static void coach_xpm(const char *text, coach_cmd_t *out)
{
    const char *q = strchr(text, '"');
    out->xpm_ok = 0;
    if (!q)
        return;
    scan_t c = { q };
    long w, h, nc, cpp;
    if (sc_lit(&c, "\"") < 0 || sc_int(&c, &w) < 0 || sc_int(&c, &h) < 0
        || sc_int(&c, &nc) < 0 || sc_int(&c, &cpp) < 0 || sc_lit(&c, "\"") < 0)
        return;
    int n = snprintf(out->text, sizeof out->text, "\"%ld %ld %ld %ld\"", w, h, nc, cpp);
    size_t pos = (size_t)n;
    long lines = (nc > 0 ? nc : 0) + (h > 0 ? h : 0);
    for (long i = 0; i < lines; i++) {
        if (sc_lit(&c, "\"") < 0)
            return;
        const char *end = strchr(c.s, '"');
        if (!end || end == c.s)
            return;
        size_t len = (size_t)(end - c.s);
        if (i >= nc && (long)len != w * cpp)
            return;
        if (pos + 2 * len + 4 >= sizeof out->text)
            return;
        out->text[pos++] = ' ';
        out->text[pos++] = '"';
        for (size_t k = 0; k < len; k++) {
            char ch = c.s[k] == '\t' ? ' ' : c.s[k];
            if (ch == '\\')
                out->text[pos++] = '\\';
            out->text[pos++] = ch;
        }
        out->text[pos++] = '"';
        c.s = end + 1;
    }
    out->text[pos] = '\0';
    out->len = pos;
    out->xw = (int)w;
    out->xh = (int)h;
    out->xpm_ok = 1;
}

static void olcoach_team_graphic(scan_t *c, const char *text, coach_cmd_t *out)
{
    out->kind = COACH_TEAM_GRAPHIC;
    long x, y;
    if (sc_lit(c, "(") < 0 || sc_int(c, &x) < 0 || sc_int(c, &y) < 0) {
        out->bad = 1;
        reply(out, E_FORM);
        return;
    }
    out->tx = (unsigned)x; /* as %u: a negative number wraps */
    out->ty = (unsigned)y;
    coach_xpm(text, out);
}

static void olcoach_change_type(scan_t *c, coach_cmd_t *out)
{
    long unum, type;
    char word[16];
    if (sc_int(c, &unum) < 0) {
        reply(out, E_FORM);
        return;
    }
    scan_t t = *c;
    if (sc_int(&t, &type) == 0) {
        out->kind = COACH_CHANGE_TYPE;
        out->unum = (int)unum;
        out->type = (int)type;
        return;
    }
    sc_ws(c);
    if (sc_run(c, in_mode, word, sizeof word - 1) == 0 && strncmp(word, "goalie", 6) == 0) {
        out->kind = COACH_GOALIE;
        out->unum = (int)unum;
        return;
    }
    reply(out, E_FORM);
}

/* (say ...): v7+ a coach-language message, earlier versions raw freeform text */
static void olcoach_say(const char *text, double version, int say_max, coach_cmd_t *out,
                        clang_work_t *w)
{
    out->kind = COACH_SAY;
    if (version < 7.0) {
        if (say_text(text, say_max, out) < 0) {
            out->bad = 1;
            reply(out, E_FORM);
        }
        return;
    }
    char err[CLANG_ERR_LEN];
    if (!w || clang_parse(w, text, strlen(text), say_max, &out->clang, err, sizeof err) < 0) {
        out->kind = COACH_NONE;
        reply(out, E_PARSE_SAY);
        return;
    }
    int n = clang_print(w, &out->clang, out->text, sizeof out->text);
    if (n < 0) {
        out->kind = COACH_NONE;
        reply(out, E_PARSE_SAY);
        return;
    }
    out->len = (size_t)n;
}

void coach_parse_olcoach(const char *text, double version, int say_max, clang_work_t *w,
                         coach_cmd_t *out)
{
    memset(out, 0, offsetof(coach_cmd_t, text));
    out->text[0] = '\0';
    scan_t c = { text };
    char word[128];
    if (sc_command(&c, word, sizeof word) < 0) {
        reply(out, E_FORM);
        return;
    }
    if (strcmp(word, "check_ball") == 0) {
        out->kind = COACH_CHECK_BALL;
    } else if (strcmp(word, "look") == 0) {
        out->kind = COACH_LOOK;
    } else if (strcmp(word, "team_names") == 0) {
        out->kind = COACH_TEAM_NAMES;
    } else if (strcmp(word, "say") == 0) {
        olcoach_say(text, version, say_max, out, w);
    } else if (strcmp(word, "bye") == 0) {
        out->kind = COACH_BYE;
    } else if (strcmp(word, "eye") == 0) {
        cmd_on_off(&c, COACH_EYE, out);
        if (out->kind == COACH_EYE)
            reply(out, "(ok eye %s)", out->on ? "on" : "off");
    } else if (strcmp(word, "change_player_type") == 0) {
        olcoach_change_type(&c, out);
    } else if (strcmp(word, "done") == 0) {
        out->kind = COACH_DONE;
    } else if (strcmp(word, "compression") == 0) {
        cmd_compression(&c, out);
    } else if (strcmp(word, "team_graphic") == 0) {
        olcoach_team_graphic(&c, text, out);
    } else {
        reply(out, E_UNKNOWN);
    }
}
