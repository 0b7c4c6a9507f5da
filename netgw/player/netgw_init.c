/* netgw_init.c -- the first datagram of a player on the init port (docs/protocol/player.md
 * §2), read the way the reference scans it: "(init " TEAM, then everything up to the
 * first '(' skipped, then (version V) and (goalie) options until a ')'; "(reconnect "
 * TEAM UNUM, with this server's optional (token HEX). Refusals carry the reference's reply. Whether the version exists is
 * decided by the caller after the team was chosen (the reference names a team even for
 * a client whose version it then refuses). Pure; called by the gateway's init port. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "netgw_proto.h"

#define INIT_TEAM_MAX     (SHM_TEAM_NAME_LEN - 1)   /* 15 characters */
#define INIT_TEXT_MAX     2048                      /* what is looked at of a datagram */
#define INIT_RECONNECT_NAME_MAX 127                 /* the reference's %127s */

#define ERR_FORM     "(error illegal_command_form)"
#define ERR_TEAM     "(error illegal_teamname)"
#define ERR_TEAMLEN  "(error illegal_teamname_or_too_long_teamname)"
#define ERR_UNKNOWN  "(error unknown_command)"

static int init_fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
    return -1;
}

/* Team name characters. The reference reads the name with the scanf set
 * "[+-_a-zA-Z0-9]", which glibc takes as the range '+'..'_' and so also lets
 * ",./:;<=>?@[\]^" through; we deliberately do not reproduce that quirk (such names
 * would break the (p "TEAM") forms and log files): a name with them is refused. */
static int init_team_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
        || ch == '-' || ch == '+' || ch == '_';
}

static const char *init_skip_ws(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

/* " ( version %lf ) %n": 0 and *p past it, or -1 */
static int init_version(const char **pp, double *v)
{
    const char *p = init_skip_ws(*pp);
    if (*p != '(')
        return -1;
    p = init_skip_ws(p + 1);
    if (strncmp(p, "version", 7) != 0)
        return -1;
    p += 7;
    char *end;
    double d = strtod(p, &end);
    if (end == p)
        return -1;
    p = init_skip_ws(end);
    if (*p != ')')
        return -1;
    *v = d;
    *pp = init_skip_ws(p + 1);
    return 0;
}

/* after the team name: skip to the first '(' and read the options up to a ')' */
static const char *init_options(const char *p, proto_init_t *out)
{
    while (*p && *p != '(')
        p++;
    while (*p && *p != ')') {
        if (strncmp(p, "(version ", 9) == 0) {
            if (init_version(&p, &out->version) < 0)
                return ERR_FORM;
        } else if (strncmp(p, "(goalie)", 8) == 0) {
            out->goalie = 1;
            p += 8;
        } else {
            return ERR_FORM;
        }
        if (*p != '(' && *p != ')' && !isspace((unsigned char)*p))
            return ERR_FORM;
        p = init_skip_ws(p);
    }
    return NULL;
}

/* "(init " TEAM ...: the leading run of name characters (at most 15) must be followed,
 * after blanks, by '(' or ')' */
static const char *init_init(const char *p, proto_init_t *out)
{
    p = init_skip_ws(p + 5);
    size_t run = 0;
    while (run < INIT_TEAM_MAX && init_team_char(p[run]))
        run++;
    if (run == 0)
        return ERR_TEAM;
    memcpy(out->team, p, run);
    out->team[run] = '\0';
    p = init_skip_ws(p + run);
    if (*p != '(' && *p != ')')
        return ERR_TEAMLEN;
    out->version = 3.0;
    return init_options(p, out);
}

static int init_hex(char ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
         : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* an optional "(token HEX)" after the number (server::reconnect_token): exactly
 * 2 * PROTO_TOKEN_LEN hex digits; anything else is no token (the reference ignores what
 * follows the number) */
static void init_token(const char *p, proto_init_t *out)
{
    if (strncmp(p, "(token ", 7) != 0)
        return;
    p = init_skip_ws(p + 7);
    for (int i = 0; i < PROTO_TOKEN_LEN; i++) {
        int hi = init_hex(p[2 * i]), lo = hi < 0 ? -1 : init_hex(p[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return;
        out->token[i] = (uint8_t)(hi << 4 | lo);
    }
    p = init_skip_ws(p + 2 * PROTO_TOKEN_LEN);
    if (*p == ')')
        out->has_token = 1;
}

void proto_token_format(const uint8_t token[PROTO_TOKEN_LEN], char *buf, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    char hex[2 * PROTO_TOKEN_LEN + 1];
    for (int i = 0; i < PROTO_TOKEN_LEN; i++) {
        hex[2 * i] = digits[token[i] >> 4];
        hex[2 * i + 1] = digits[token[i] & 15];
    }
    hex[2 * PROTO_TOKEN_LEN] = '\0';
    snprintf(buf, len, " (token %s)", hex);
}

/* "(reconnect " TEAM UNUM, as " ( reconnect %127s %d ": a missing number still goes on
 * to the team lookup (form_error set), as in the reference, which answers twice */
static void init_reconnect(const char *p, proto_init_t *out)
{
    out->reconnect = 1;
    p = init_skip_ws(p + 10);
    size_t run = 0;
    while (run < INIT_RECONNECT_NAME_MAX && p[run] && !isspace((unsigned char)p[run]))
        run++;
    if (run == 0) {
        out->form_error = 1;
        return;
    }
    if (run <= INIT_TEAM_MAX) {
        memcpy(out->team, p, run);
        out->team[run] = '\0';
    } else {
        out->team_too_long = 1;  /* no team can have this name */
    }
    p = init_skip_ws(p + run);
    char *end;
    long unum = strtol(p, &end, 10);
    if (end == p) {
        out->form_error = 1;
        return;
    }
    out->unum = unum < -1000 ? -1000 : unum > 1000 ? 1000 : (int)unum;
    init_token(init_skip_ws(end), out);
}

/* Parse an init-port datagram; see netgw_proto.h. Returns 0, or -1 with err set to the
 * reply for the client ("(error unknown_command)" if it is neither init nor reconnect). */
int proto_parse_init(const char *text, size_t len, proto_init_t *out, char *err, size_t errlen)
{
    static char buf[INIT_TEXT_MAX + 1];
    if (!out)
        return init_fail(err, errlen, ERR_FORM);
    memset(out, 0, sizeof *out);
    if (err && errlen)
        err[0] = '\0';
    if (!text)
        return init_fail(err, errlen, ERR_UNKNOWN);
    size_t n = strnlen(text, len < INIT_TEXT_MAX ? len : INIT_TEXT_MAX);
    memcpy(buf, text, n);
    buf[n] = '\0';
    if (strncmp(buf, "(init ", 6) == 0) {
        const char *e = init_init(buf, out);
        if (e) {
            memset(out, 0, sizeof *out);
            return init_fail(err, errlen, e);
        }
        return 0;
    }
    if (strncmp(buf, "(reconnect ", 11) == 0) {
        init_reconnect(buf, out);
        return 0;
    }
    return init_fail(err, errlen, ERR_UNKNOWN);
}

int proto_version_ok(double version)
{
    /* the integer part selects the protocol; 1..19 exist */
    return version >= 1.0 && version < 20.0;
}
