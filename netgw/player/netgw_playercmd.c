/* netgw_playercmd.c -- player datagrams parsed the way the reference's command grammar reads
 * them (docs/protocol/player.md §10): a tokenizer with the reference's token rules (numbers,
 * words, quoted strings and the unquoted say that swallows the rest of its run), then
 * one command after another into an ordered list of items: records for the sim's ring,
 * replies, and what the gateway does itself (view mode, ear, compression, sense_body,
 * score, done, bye). The first token that does not fit ends the parse with
 * "(error illegal_command_form)"; the commands before it stay, as in the reference.
 * Pure; called by netgw_client for every datagram. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "netgw_proto.h"

#define ERR_FORM "(error illegal_command_form)"

/* ---- tokens (the reference's lexer rules, longest match, earlier rule on a tie) ---- */
enum {
    TK_END, TK_ERR, TK_LP, TK_RP, TK_INT, TK_REAL, TK_WORD, TK_QUOTED, TK_SAY
};

typedef struct tok {
    int         kind;
    const char *s;                 /* TK_WORD / TK_QUOTED (without quotes) / TK_SAY text */
    size_t      len;
    double      num;               /* TK_INT, TK_REAL */
    long        ival;              /* TK_INT */
} tok_t;

typedef struct lex {
    const char *s;
    size_t      len;               /* up to the first NUL */
    size_t      pos;
} lex_t;

/* characters of a say message and of a quoted string */
static int cmd_say_char(char ch)
{
    if ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))
        return 1;
    return ch != '\0' && strchr("().+-*/?<>_ ", ch) != NULL;
}

static int cmd_word_char(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
        || ch == '-' || ch == '_';
}

static int cmd_digit(char ch) { return ch >= '0' && ch <= '9'; }

static size_t cmd_digits(const lex_t *x, size_t i)
{
    size_t n = 0;
    while (i + n < x->len && cmd_digit(x->s[i + n]))
        n++;
    return n;
}

/* length of the longest number at i: *real set if it is a REAL or EXP form.
 * INT [+-]?[0-9]+, REAL [+-]?[0-9]*\.[0-9]+, EXP (REAL|INT)[eE]INT */
static size_t cmd_number_len(const lex_t *x, size_t i, int *real)
{
    size_t p = i, n;
    *real = 0;
    if (p < x->len && (x->s[p] == '+' || x->s[p] == '-'))
        p++;
    size_t ipart = cmd_digits(x, p);
    size_t best = ipart ? p + ipart - i : 0;
    p += ipart;
    if (p + 1 < x->len && x->s[p] == '.' && (n = cmd_digits(x, p + 1)) > 0) {
        p += 1 + n;
        best = p - i;
        *real = 1;
    }
    if (best == 0)
        return 0;
    /* exponent: [eE][+-]?[0-9]+ */
    size_t e = i + best;
    if (e < x->len && (x->s[e] == 'e' || x->s[e] == 'E')) {
        size_t q = e + 1;
        if (q < x->len && (x->s[q] == '+' || x->s[q] == '-'))
            q++;
        if ((n = cmd_digits(x, q)) > 0) {
            best = q + n - i;
            *real = 1;
        }
    }
    return best;
}

/* "(say " MSG ")" with MSG of say characters; the longest such run wins */
static int cmd_lex_say(lex_t *x, tok_t *t)
{
    size_t i = x->pos;
    if (x->len - i < 7 || memcmp(x->s + i, "(say ", 5) != 0)
        return 0;
    size_t end = 0;
    for (size_t j = i + 5; j < x->len && cmd_say_char(x->s[j]); j++) {
        if (x->s[j] == ')' && j > i + 5)
            end = j;
    }
    if (!end)
        return 0;
    t->kind = TK_SAY;
    t->s = x->s + i + 5;
    t->len = end - (i + 5);
    x->pos = end + 1;
    return 1;
}

static void cmd_lex_number(lex_t *x, tok_t *t, size_t n, int real)
{
    char tmp[512];
    size_t m = n < sizeof tmp - 1 ? n : sizeof tmp - 1;
    memcpy(tmp, x->s + x->pos, m);
    tmp[m] = '\0';
    if (real) {
        t->kind = TK_REAL;
        t->num = strtod(tmp, NULL);
    } else {
        long v = strtol(tmp, NULL, 10);
        t->kind = TK_INT;
        t->ival = v > 2147483647L ? 2147483647L : v < -2147483647L ? -2147483647L : v;
        t->num = (double)t->ival;
    }
    x->pos += n;
}

static void cmd_lex(lex_t *x, tok_t *t)
{
    memset(t, 0, sizeof *t);
    while (x->pos < x->len && (x->s[x->pos] == ' ' || x->s[x->pos] == '\t'
                               || x->s[x->pos] == '\n'))
        x->pos++;
    if (x->pos >= x->len) {
        t->kind = TK_END;
        return;
    }
    char ch = x->s[x->pos];
    if (ch == '(' && cmd_lex_say(x, t))
        return;
    if (ch == '(' || ch == ')') {
        t->kind = ch == '(' ? TK_LP : TK_RP;
        x->pos++;
        return;
    }
    if (ch == '"') {
        size_t j = x->pos + 1;
        while (j < x->len && cmd_say_char(x->s[j]))
            j++;
        if (j > x->pos + 1 && j < x->len && x->s[j] == '"') {
            t->kind = TK_QUOTED;
            t->s = x->s + x->pos + 1;
            t->len = j - x->pos - 1;
            x->pos = j + 1;
            return;
        }
    }
    size_t w = 0;
    while (x->pos + w < x->len && cmd_word_char(x->s[x->pos + w]))
        w++;
    int real;
    size_t n = cmd_number_len(x, x->pos, &real);
    if (n > 0 && n >= w) {
        cmd_lex_number(x, t, n, real);
        return;
    }
    if (w > 0) {
        t->kind = TK_WORD;
        t->s = x->s + x->pos;
        t->len = w;
        x->pos += w;
        return;
    }
    t->kind = TK_ERR;
    x->pos++;
}

static int tok_is(const tok_t *t, const char *word)
{
    return t->kind == TK_WORD && t->len == strlen(word) && memcmp(t->s, word, t->len) == 0;
}

/* keywords of the grammar: a word equal to one is never a team name */
static int tok_keyword(const tok_t *t)
{
    static const char *const kw[] = {
        "dash", "turn", "turn_neck", "change_focus", "kick", "long_kick", "catch", "say",
        "sense_body", "score", "move", "change_view", "compression", "bye", "done",
        "pointto", "attentionto", "tackle", "clang", "ear", "synch_see", "gaussian_see",
        "narrow", "normal", "wide", "low", "high", "on", "off", "our", "opp", "left",
        "right", "l", "r", "partial", "complete", "p", "c", "ver", "true", "false",
    };
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++) {
        if (tok_is(t, kw[i]))
            return 1;
    }
    return 0;
}

/* ---- parser state ---------------------------------------------------------------- */
typedef struct cmd_ctx {
    proto_parsed_t *out;
    lex_t           lx;
    tok_t           t;             /* current token */
    int             side;          /* SHM_SIDE_* of the sender */
    const char     *own_team;
    const char     *opp_team;
} cmd_ctx_t;

static void next(cmd_ctx_t *x) { cmd_lex(&x->lx, &x->t); }

static proto_item_t *item_new(cmd_ctx_t *x, int kind)
{
    proto_parsed_t *o = x->out;
    if (o->n >= PROTO_MAX_ITEMS) {
        o->dropped++;
        return NULL;
    }
    proto_item_t *it = &o->item[o->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    return it;
}

static void item_reply(cmd_ctx_t *x, const char *fmt, ...)
{
    proto_item_t *it = item_new(x, PROTO_IT_REPLY);
    if (!it)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->reply, PROTO_REPLY_LEN, fmt, ap);
    va_end(ap);
}

static shm_cmd_sh_t *item_cmd(cmd_ctx_t *x, int kind)
{
    proto_item_t *it = item_new(x, PROTO_IT_CMD);
    if (!it)
        return NULL;
    it->cmd.kind = (uint16_t)kind;
    return &it->cmd;
}

/* floating_point_number: INT or REAL */
static int take_num(cmd_ctx_t *x, double *d)
{
    if (x->t.kind != TK_INT && x->t.kind != TK_REAL)
        return -1;
    *d = x->t.num;
    next(x);
    return 0;
}

static int take_int(cmd_ctx_t *x, long *v)
{
    if (x->t.kind != TK_INT)
        return -1;
    *v = x->t.ival;
    next(x);
    return 0;
}

static int take(cmd_ctx_t *x, int kind)
{
    if (x->t.kind != kind)
        return -1;
    next(x);
    return 0;
}

static int take_word(cmd_ctx_t *x, const char *w)
{
    if (!tok_is(&x->t, w))
        return -1;
    next(x);
    return 0;
}

/* (NAME N1 .. Nn) after the name: n numbers and the closing parenthesis */
static int cmd_nums(cmd_ctx_t *x, int kind, int n)
{
    double d[2] = { 0.0, 0.0 };
    for (int i = 0; i < n; i++) {
        if (take_num(x, &d[i]) < 0)
            return -1;
    }
    if (take(x, TK_RP) < 0)
        return -1;
    shm_cmd_sh_t *c = item_cmd(x, kind);
    if (c) {
        c->d[0] = d[0];
        c->d[1] = d[1];
    }
    return 0;
}

/* one leg of a bipedal dash after its '(': l|r P DIR ')' */
static int cmd_dash_leg(cmd_ctx_t *x, int *which, double *pd)
{
    if (tok_is(&x->t, "l") || tok_is(&x->t, "left"))
        *which = 0;
    else if (tok_is(&x->t, "r") || tok_is(&x->t, "right"))
        *which = 1;
    else
        return -1;
    next(x);
    if (take_num(x, &pd[0]) < 0 || take_num(x, &pd[1]) < 0)
        return -1;
    return take(x, TK_RP);
}

/* (dash P) (dash P DIR) (dash (l P DIR)) (dash (r P DIR)) and both legs in either order */
static int cmd_dash(cmd_ctx_t *x)
{
    if (x->t.kind != TK_LP) {
        double d[2] = { 0.0, 0.0 };
        if (take_num(x, &d[0]) < 0)
            return -1;
        if (x->t.kind != TK_RP && take_num(x, &d[1]) < 0)
            return -1;
        if (take(x, TK_RP) < 0)
            return -1;
        shm_cmd_sh_t *c = item_cmd(x, SHM_CMD_DASH);
        if (c) {
            c->i = 1;
            c->d[0] = d[0];
            c->d[1] = d[1];
        }
        return 0;
    }
    double d[4] = { 0.0, 0.0, 0.0, 0.0 };
    uint32_t legs = 0;
    while (x->t.kind == TK_LP) {
        int w;
        double pd[2];
        next(x);
        if (cmd_dash_leg(x, &w, pd) < 0 || (legs & (1u << w)))
            return -1;
        legs |= 1u << w;
        d[2 * w] = pd[0];
        d[2 * w + 1] = pd[1];
    }
    if (take(x, TK_RP) < 0)
        return -1;
    shm_cmd_sh_t *c = item_cmd(x, SHM_CMD_DASH);
    if (c) {
        c->i = 2;
        c->flags = legs;
        memcpy(c->d, d, sizeof d);
    }
    return 0;
}

static int cmd_turn(cmd_ctx_t *x) { return cmd_nums(x, SHM_CMD_TURN, 1); }
static int cmd_turn_neck(cmd_ctx_t *x) { return cmd_nums(x, SHM_CMD_TURN_NECK, 1); }
static int cmd_kick(cmd_ctx_t *x) { return cmd_nums(x, SHM_CMD_KICK, 2); }
static int cmd_catch(cmd_ctx_t *x) { return cmd_nums(x, SHM_CMD_CATCH, 1); }
static int cmd_move(cmd_ctx_t *x) { return cmd_nums(x, SHM_CMD_MOVE, 2); }
static int cmd_change_focus(cmd_ctx_t *x) { return cmd_nums(x, SHM_CMD_CHANGE_FOCUS, 2); }

/* (long_kick P DIR): parsed, disabled in the reference */
static int cmd_long_kick(cmd_ctx_t *x)
{
    double d;
    if (take_num(x, &d) < 0 || take_num(x, &d) < 0)
        return -1;
    return take(x, TK_RP);
}

/* (tackle X) or (tackle X on|off|true|false): i = foul flag */
static int cmd_tackle(cmd_ctx_t *x)
{
    double d;
    int foul = 0;
    if (take_num(x, &d) < 0)
        return -1;
    if (tok_is(&x->t, "on") || tok_is(&x->t, "true")) {
        foul = 1;
        next(x);
    } else if (tok_is(&x->t, "off") || tok_is(&x->t, "false")) {
        next(x);
    }
    if (take(x, TK_RP) < 0)
        return -1;
    shm_cmd_sh_t *c = item_cmd(x, SHM_CMD_TACKLE);
    if (c) {
        c->d[0] = d;
        c->i = foul;
    }
    return 0;
}

/* a say text (quoted form or the unquoted token); the sim drops it if longer than
 * say_msg_size, so a long one is carried cut to the record */
static void cmd_say_text(cmd_ctx_t *x, const char *s, size_t len)
{
    shm_cmd_sh_t *c = item_cmd(x, SHM_CMD_SAY);
    if (!c)
        return;
    size_t n = len < SHM_CMD_TEXT_LEN - 1 ? len : SHM_CMD_TEXT_LEN - 1;
    memcpy(c->text, s, n);
    c->text[n] = '\0';
    c->len = (uint16_t)n;
}

/* (say "MSG") */
static int cmd_say(cmd_ctx_t *x)
{
    if (x->t.kind != TK_QUOTED && x->t.kind != TK_WORD)
        return -1;
    tok_t m = x->t;
    next(x);
    if (take(x, TK_RP) < 0)
        return -1;
    cmd_say_text(x, m.s, m.len);
    return 0;
}

/* (pointto DIST DIR) or (pointto off): i = 1 for off */
static int cmd_pointto(cmd_ctx_t *x)
{
    if (tok_is(&x->t, "off")) {
        next(x);
        if (take(x, TK_RP) < 0)
            return -1;
        shm_cmd_sh_t *c = item_cmd(x, SHM_CMD_POINTTO);
        if (c)
            c->i = 1;
        return 0;
    }
    return cmd_nums(x, SHM_CMD_POINTTO, 2);
}

/* our/opp/l/left/r/right -> 1 own team, 0 opponents; a team name -> the same, or -2
 * for no such team; -1 if the token is neither */
static int cmd_team(const cmd_ctx_t *x, const tok_t *t)
{
    if (tok_is(t, "our"))
        return 1;
    if (tok_is(t, "opp"))
        return 0;
    if (tok_is(t, "l") || tok_is(t, "left"))
        return x->side == SHM_SIDE_LEFT;
    if (tok_is(t, "r") || tok_is(t, "right"))
        return x->side == SHM_SIDE_RIGHT;
    if (t->kind != TK_WORD || tok_keyword(t))
        return -1;
    if (x->own_team && x->own_team[0] && t->len == strlen(x->own_team)
        && memcmp(t->s, x->own_team, t->len) == 0)
        return 1;
    if (x->opp_team && x->opp_team[0] && t->len == strlen(x->opp_team)
        && memcmp(t->s, x->opp_team, t->len) == 0)
        return 0;
    return -2;
}

/* (attentionto off) -> i = 0; (attentionto TEAM UNUM) -> i = side, flags = unum.
 * An unknown team or a unum outside 1..11 is ignored silently, as the reference. */
static int cmd_attentionto(cmd_ctx_t *x)
{
    if (tok_is(&x->t, "off")) {
        next(x);
        if (take(x, TK_RP) < 0)
            return -1;
        item_cmd(x, SHM_CMD_ATTENTIONTO);
        return 0;
    }
    int own = cmd_team(x, &x->t);
    long unum;
    if (own == -1)
        return -1;
    next(x);
    if (take_int(x, &unum) < 0 || take(x, TK_RP) < 0)
        return -1;
    if (own < 0 || unum < 1 || unum > SHM_TEAM_SIZE)
        return 0;
    shm_cmd_sh_t *c = item_cmd(x, SHM_CMD_ATTENTIONTO);
    if (c) {
        c->i = own ? x->side : -x->side;
        c->flags = (uint32_t)unum;
    }
    return 0;
}

/* (change_view W [Q]): the gateway decides whether it is accepted (synch-see mode
 * ignores a low-quality request) */
static int cmd_change_view(cmd_ctx_t *x)
{
    int w, q = 1, one = 1;
    if (tok_is(&x->t, "narrow"))
        w = SHM_VIEW_NARROW;
    else if (tok_is(&x->t, "normal"))
        w = SHM_VIEW_NORMAL;
    else if (tok_is(&x->t, "wide"))
        w = SHM_VIEW_WIDE;
    else
        return -1;
    next(x);
    if (tok_is(&x->t, "low") || tok_is(&x->t, "high")) {
        q = tok_is(&x->t, "high");
        one = 0;
        next(x);
    }
    if (take(x, TK_RP) < 0)
        return -1;
    proto_item_t *it = item_new(x, PROTO_IT_CHANGE_VIEW);
    if (it) {
        it->a = w;
        it->b = q;
        it->c = one;
    }
    return 0;
}

/* (compression N): N > 9 ignored; otherwise acknowledged, negative switches it off */
static int cmd_compression(cmd_ctx_t *x)
{
    long n;
    if (take_int(x, &n) < 0 || take(x, TK_RP) < 0)
        return -1;
    if (n > 9)
        return 0;
    proto_item_t *it = item_new(x, PROTO_IT_COMPRESSION);
    if (it)
        it->a = n < 0 ? -1 : (int)n;
    return 0;
}

/* (clang (ver MIN MAX)) */
static int cmd_clang(cmd_ctx_t *x)
{
    long lo, hi;
    if (take(x, TK_LP) < 0 || take_word(x, "ver") < 0 || take_int(x, &lo) < 0
        || take_int(x, &hi) < 0 || take(x, TK_RP) < 0 || take(x, TK_RP) < 0)
        return -1;
    proto_item_t *it = item_new(x, PROTO_IT_CLANG);
    if (it) {
        it->a = (int)lo;
        it->b = (int)hi;
    }
    return 0;
}

/* (ear (on|off [our|opp|l|left|r|right|TEAMNAME] [complete|c|partial|p])) */
static int cmd_ear(cmd_ctx_t *x)
{
    int on, teams = 3, modes = 3; /* teams: bit0 own, bit1 opp; modes: bit0 complete, bit1 partial */
    if (take(x, TK_LP) < 0)
        return -1;
    if (tok_is(&x->t, "on") || tok_is(&x->t, "off"))
        on = tok_is(&x->t, "on");
    else
        return -1;
    next(x);
    tok_t team = x->t;
    int own = -1;
    if (!tok_is(&team, "partial") && !tok_is(&team, "p") && !tok_is(&team, "complete")
        && !tok_is(&team, "c") && (own = cmd_team(x, &team)) != -1)
        next(x);
    if (tok_is(&x->t, "partial") || tok_is(&x->t, "p")) {
        modes = 2;
        next(x);
    } else if (tok_is(&x->t, "complete") || tok_is(&x->t, "c")) {
        modes = 1;
        next(x);
    }
    if (take(x, TK_RP) < 0 || take(x, TK_RP) < 0)
        return -1;
    if (own == -2) {
        item_reply(x, "(error no team with name %.*s)", (int)(team.len < 200 ? team.len : 200),
                   team.s);
        return 0;
    }
    if (own >= 0)
        teams = own ? 1 : 2;
    proto_item_t *it = item_new(x, PROTO_IT_EAR);
    if (it) {
        it->a = on;
        it->b = teams;
        it->c = modes;
    }
    return 0;
}

/* commands without arguments handled by the gateway */
static int cmd_flag(cmd_ctx_t *x, int kind)
{
    if (take(x, TK_RP) < 0)
        return -1;
    item_new(x, kind);
    return 0;
}

static int cmd_sense_body(cmd_ctx_t *x) { return cmd_flag(x, PROTO_IT_SENSE_BODY); }
static int cmd_score(cmd_ctx_t *x) { return cmd_flag(x, PROTO_IT_SCORE); }
static int cmd_done(cmd_ctx_t *x) { return cmd_flag(x, PROTO_IT_DONE); }
static int cmd_bye(cmd_ctx_t *x) { return cmd_flag(x, PROTO_IT_BYE); }
static int cmd_synch_see(cmd_ctx_t *x) { return cmd_flag(x, PROTO_IT_SYNCH_SEE); }
static int cmd_gaussian_see(cmd_ctx_t *x) { return cmd_flag(x, PROTO_IT_GAUSSIAN_SEE); }

typedef int (*cmd_fn)(cmd_ctx_t *x);

static const struct {
    const char *name;
    cmd_fn      fn;
} cmd_table[] = {
    { "dash", cmd_dash },               { "turn", cmd_turn },
    { "turn_neck", cmd_turn_neck },     { "kick", cmd_kick },
    { "catch", cmd_catch },             { "move", cmd_move },
    { "tackle", cmd_tackle },           { "say", cmd_say },
    { "pointto", cmd_pointto },         { "attentionto", cmd_attentionto },
    { "change_focus", cmd_change_focus }, { "change_view", cmd_change_view },
    { "sense_body", cmd_sense_body },   { "score", cmd_score },
    { "done", cmd_done },               { "bye", cmd_bye },
    { "synch_see", cmd_synch_see },     { "gaussian_see", cmd_gaussian_see },
    { "compression", cmd_compression }, { "clang", cmd_clang },
    { "ear", cmd_ear },                 { "long_kick", cmd_long_kick },
};

/* one command starting at the current token; -1 on a token that does not fit */
static int cmd_one(cmd_ctx_t *x)
{
    if (x->t.kind == TK_SAY) {
        cmd_say_text(x, x->t.s, x->t.len);
        next(x);
        return 0;
    }
    if (x->t.kind != TK_LP)
        return -1;
    next(x);
    for (size_t i = 0; i < sizeof cmd_table / sizeof cmd_table[0]; i++) {
        if (tok_is(&x->t, cmd_table[i].name)) {
            next(x);
            return cmd_table[i].fn(x);
        }
    }
    return -1;
}

/* Parse every command of a datagram; see netgw_proto.h. Never fails: problems become
 * replies. An empty datagram is an error, as in the reference (its grammar needs at
 * least one command). */
void proto_parse_player(const char *text, size_t len, double version, int side,
                        const char *own_team, const char *opp_team, proto_parsed_t *out)
{
    (void)version; /* one grammar for every version; tackle semantics are the sim's */
    out->n = 0;
    out->error = 0;
    out->dropped = 0;
    if (!text)
        return;
    cmd_ctx_t x = { out, { text, strnlen(text, len), 0 }, { 0 }, side, own_team, opp_team };
    next(&x);
    do {
        if (cmd_one(&x) < 0) {
            out->error = 1;
            if (out->n >= PROTO_MAX_ITEMS) /* the error reply always finds room */
                out->n = PROTO_MAX_ITEMS - 1;
            item_reply(&x, ERR_FORM);
            return;
        }
    } while (x.t.kind != TK_END);
}
