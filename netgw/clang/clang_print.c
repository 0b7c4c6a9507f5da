/* clang_print.c -- the canonical text of a parsed coach message (clang.h), byte for byte
 * what the reference sends players: single spaces, reals as C++ streams print doubles
 * (%g: 0.50 -> 0.5, 1.0 -> 1, -0.0 -> -0), player numbers as unsigned (12 is "(null)"),
 * unum sets in the (reversed) order the parser kept, actions of a directive and
 * activations of a rule message without separators, (quad ...) with three points,
 * quoted condition names inside another pair of quotes. Pure. */
#include <stdio.h>
#include <string.h>
#include "clang.h"
#include "strbuf.h"

typedef struct printer {
    const clang_work_t *w;
    strbuf_t            o;
} printer_t;

static const char *const comp_str[6] = { "<", "<=", "==", "!=", ">=", ">" };
static const char *const arith_str[4] = { "+", "-", "*", "/" };

static const clang_node_t *nd(const printer_t *pr, int i)
{
    return i >= 0 ? &pr->w->node[i] : NULL;
}

static void out(printer_t *pr, const char *s)
{
    strbuf_printf(&pr->o, "%s", s);
}

static void num(printer_t *pr, double v)
{
    strbuf_printf(&pr->o, "%g", v);
}

static void name(printer_t *pr, const clang_node_t *n)
{
    strbuf_printf(&pr->o, "%.*s", (int)n->slen, n->s);
}

static void node_print(printer_t *pr, int i);

/* " " before each child from index i on */
static void children(printer_t *pr, int i, const char *sep)
{
    for (; i >= 0; i = nd(pr, i)->next) {
        out(pr, sep);
        node_print(pr, i);
    }
}

static void unum(printer_t *pr, const clang_node_t *u)
{
    if (u->flag)
        name(pr, u);
    else if (u->i[0] == 12) /* the reference's "no player" value */
        out(pr, "(null)");
    else
        strbuf_printf(&pr->o, "%u", (unsigned)u->i[0]);
}

static void unumset(printer_t *pr, const clang_node_t *set)
{
    out(pr, "{");
    for (int i = set->first; i >= 0; i = nd(pr, i)->next) {
        if (i != set->first)
            out(pr, " ");
        unum(pr, nd(pr, i));
    }
    out(pr, "}");
}

static void idlist(printer_t *pr, const clang_node_t *l)
{
    if (l->first < 0) {
        out(pr, "all");
        return;
    }
    if (nd(pr, l->first)->next < 0) {
        name(pr, nd(pr, l->first));
        return;
    }
    for (int i = l->first; i >= 0; i = nd(pr, i)->next) {
        out(pr, i == l->first ? "(" : " ");
        name(pr, nd(pr, i));
    }
    out(pr, ")");
}

/* (KEYWORD child) */
static void wrap1(printer_t *pr, const char *kw, const clang_node_t *n)
{
    strbuf_printf(&pr->o, "(%s ", kw);
    node_print(pr, n->first);
    out(pr, ")");
}

/* (KEYWORD child child ...) with a space before each child */
static void wrapn(printer_t *pr, const char *kw, const clang_node_t *n)
{
    strbuf_printf(&pr->o, "(%s", kw);
    children(pr, n->first, " ");
    out(pr, ")");
}

static void print_point(printer_t *pr, const clang_node_t *n)
{
    switch (n->kind) {
    case CN_PT:
        out(pr, "(pt ");
        num(pr, n->d[0]);
        out(pr, " ");
        num(pr, n->d[1]);
        out(pr, ")");
        break;
    case CN_PTREL:
        out(pr, "(pt ");
        num(pr, n->d[0]);
        out(pr, " ");
        num(pr, n->d[1]);
        out(pr, " ");
        node_print(pr, n->first);
        out(pr, ")");
        break;
    case CN_PTBALL:
        out(pr, "(pt ball)");
        break;
    case CN_PTPLAYER:
        strbuf_printf(&pr->o, "(pt %s ", n->flag ? "our" : "opp");
        if (n->s)
            name(pr, n);
        else if (n->i[0] == 12)
            out(pr, "(null)");
        else
            strbuf_printf(&pr->o, "%u", (unsigned)n->i[0]);
        out(pr, ")");
        break;
    default: /* CN_PTARITH */
        out(pr, "(");
        node_print(pr, n->first);
        strbuf_printf(&pr->o, " %s ", arith_str[n->flag & 3]);
        node_print(pr, nd(pr, n->first)->next);
        out(pr, ")");
        break;
    }
}

static void print_region(printer_t *pr, const clang_node_t *n)
{
    switch (n->kind) {
    case CN_RNULL:
        out(pr, "(null)");
        break;
    case CN_QUAD: { /* the reference prints the first three corners only */
        out(pr, "(quad");
        int i = n->first;
        for (int k = 0; k < 3 && i >= 0; k++, i = nd(pr, i)->next) {
            out(pr, " ");
            node_print(pr, i);
        }
        out(pr, ")");
        break;
    }
    case CN_ARC:
        out(pr, "(arc ");
        node_print(pr, n->first);
        for (int k = 0; k < 4; k++) {
            out(pr, " ");
            num(pr, n->d[k]);
        }
        out(pr, ")");
        break;
    case CN_RUNION: wrapn(pr, "reg", n); break;
    case CN_TRI:    wrapn(pr, "tri", n); break;
    case CN_REC:    wrapn(pr, "rec", n); break;
    default: /* CN_RNAMED */
        out(pr, "\"");
        name(pr, n);
        out(pr, "\"");
        break;
    }
}

static void print_cond(printer_t *pr, const clang_node_t *n)
{
    switch (n->kind) {
    case CN_TRUE:  out(pr, "(true)"); break;
    case CN_FALSE: out(pr, "(false)"); break;
    case CN_PPOS: {
        const clang_node_t *set = nd(pr, n->first);
        strbuf_printf(&pr->o, "(ppos %s ", n->flag ? "our" : "opp");
        unumset(pr, set);
        strbuf_printf(&pr->o, " %d %d ", n->i[0], n->i[1]);
        node_print(pr, set->next);
        out(pr, ")");
        break;
    }
    case CN_BPOS: wrap1(pr, "bpos", n); break;
    case CN_BOWNER:
        strbuf_printf(&pr->o, "(bowner %s ", n->flag ? "our" : "opp");
        unumset(pr, nd(pr, n->first));
        out(pr, ")");
        break;
    case CN_PLAYM:
        strbuf_printf(&pr->o, "(playm %s)",
                      clang_mode_names[n->flag >= 0 && n->flag <= CLANG_MODE_COUNT ? n->flag : 0]);
        break;
    case CN_AND: wrapn(pr, "and", n); break;
    case CN_OR:  wrapn(pr, "or", n); break;
    case CN_NOT: wrap1(pr, "not", n); break;
    case CN_CONDNAMED: /* the name keeps its quotes, and gets another pair */
        out(pr, "\"");
        name(pr, n);
        out(pr, "\"");
        break;
    case CN_TIME:
    case CN_OPPGOALS:
    case CN_OURGOALS:
    case CN_GOALDIFF: {
        const char *what = n->kind == CN_TIME ? "time" : n->kind == CN_OPPGOALS ? "opp_goals"
                         : n->kind == CN_OURGOALS ? "our_goals" : "goal_diff";
        strbuf_printf(&pr->o, "(%s %s %d)", what, comp_str[n->flag % 6], n->i[0]);
        break;
    }
    default: /* CN_CONDUNUM */
        out(pr, "(unum ");
        name(pr, n);
        out(pr, " ");
        unumset(pr, nd(pr, n->first));
        out(pr, ")");
        break;
    }
}

static void print_action(printer_t *pr, const clang_node_t *n)
{
    switch (n->kind) {
    case CN_POS:      wrap1(pr, "pos", n); break;
    case CN_HOME:     wrap1(pr, "home", n); break;
    case CN_MARKL_R:  wrap1(pr, "markl", n); break;
    case CN_OLINE:    wrap1(pr, "oline", n); break;
    case CN_PASS_R:   wrap1(pr, "pass", n); break;
    case CN_DRIBBLE:  wrap1(pr, "dribble", n); break;
    case CN_CLEARACT: wrap1(pr, "clear", n); break;
    case CN_SHOOT:    out(pr, "(shoot)"); break;
    case CN_HOLD:     out(pr, "(hold)"); break;
    case CN_INTERCEPT: out(pr, "(intercept)"); break;
    case CN_HTYPE:    strbuf_printf(&pr->o, "(htype %d)", n->i[0]); break;
    case CN_BTOREG: {
        static const char bm[4] = { 'p', 'd', 'c', 's' };
        out(pr, "(bto ");
        node_print(pr, n->first);
        out(pr, " {");
        for (int k = 0; k < 4; k++) {
            if (n->i[0] & (1 << k))
                strbuf_printf(&pr->o, "%c", bm[k]);
        }
        out(pr, "})");
        break;
    }
    case CN_BTOPLAYER:
    case CN_MARK:
    case CN_MARKL_P:
    case CN_PASS_U:
    case CN_TACKLE: {
        const char *kw = n->kind == CN_BTOPLAYER ? "bto" : n->kind == CN_MARK ? "mark"
                       : n->kind == CN_MARKL_P ? "markl" : n->kind == CN_PASS_U ? "pass"
                       : "tackle";
        strbuf_printf(&pr->o, "(%s ", kw);
        unumset(pr, nd(pr, n->first));
        out(pr, ")");
        break;
    }
    default: /* CN_ACTNAMED */
        out(pr, "\"");
        name(pr, n);
        out(pr, "\"");
        break;
    }
}

/* (do|dont our|opp {SET} ACTIONS) with the actions run together */
static void print_dir(printer_t *pr, const clang_node_t *n)
{
    if (n->kind == CN_DIRNAMED) {
        out(pr, "\"");
        name(pr, n);
        out(pr, "\"");
        return;
    }
    const clang_node_t *set = nd(pr, n->first);
    strbuf_printf(&pr->o, "(%s %s ", (n->flag & 1) ? "do" : "dont", (n->flag & 2) ? "our" : "opp");
    unumset(pr, set);
    out(pr, " ");
    children(pr, set->next, "");
    out(pr, ")");
}

static void print_def(printer_t *pr, const clang_node_t *n)
{
    if (n->kind == CN_DEFRULE) {
        out(pr, "(definerule ");
        name(pr, n);
        out(pr, n->flag ? " model " : " direc ");
        node_print(pr, n->first);
        out(pr, ")");
        return;
    }
    const char *kw = n->kind == CN_DEFC ? "definec" : n->kind == CN_DEFD ? "defined"
                   : n->kind == CN_DEFR ? "definer" : "definea";
    strbuf_printf(&pr->o, "(%s \"", kw);
    name(pr, n);
    out(pr, "\" ");
    node_print(pr, n->first);
    out(pr, ")");
}

static void print_rule(printer_t *pr, const clang_node_t *n)
{
    if (n->kind == CN_IDRULE) {
        idlist(pr, nd(pr, n->first));
        return;
    }
    out(pr, "(");
    node_print(pr, n->first);
    children(pr, nd(pr, n->first)->next, " ");
    out(pr, ")");
}

static void node_print(printer_t *pr, int i)
{
    const clang_node_t *n = nd(pr, i);
    if (!n) {
        out(pr, "(null)");
        return;
    }
    switch (n->kind) {
    case CN_META:     wrapn(pr, "meta", n); break;
    case CN_VER:      out(pr, "(ver "); num(pr, n->d[0]); out(pr, ")"); break;
    case CN_FREEFORM: out(pr, "(freeform \""); name(pr, n); out(pr, "\")"); break;
    case CN_UNSUPP:   out(pr, "(unsupported_clang)"); break;
    case CN_INFO:     wrapn(pr, "info", n); break;
    case CN_ADVICE:   wrapn(pr, "advice", n); break;
    case CN_DEFINE:   wrapn(pr, "define", n); break;
    case CN_TOKCLEAR: out(pr, "(clear)"); break;
    case CN_TOKRULE:
        strbuf_printf(&pr->o, "(%d ", n->i[0]);
        node_print(pr, n->first);
        children(pr, nd(pr, n->first)->next, " ");
        out(pr, ")");
        break;
    case CN_RULEMSG:  out(pr, "(rule "); children(pr, n->first, ""); out(pr, ")"); break;
    case CN_ACTIVATE:
        strbuf_printf(&pr->o, "(%s ", n->flag ? "on" : "off");
        idlist(pr, nd(pr, n->first));
        out(pr, ")");
        break;
    case CN_DEL:      out(pr, "(delete "); idlist(pr, nd(pr, n->first)); out(pr, ")"); break;
    case CN_IDLIST:   idlist(pr, n); break;
    case CN_UNUMSET:  unumset(pr, n); break;
    case CN_UNUM:     unum(pr, n); break;
    case CN_DEFC: case CN_DEFD: case CN_DEFR: case CN_DEFA: case CN_DEFRULE:
        print_def(pr, n);
        break;
    case CN_SIMPLERULE: case CN_NESTEDRULE: case CN_IDRULE:
        print_rule(pr, n);
        break;
    case CN_DO: case CN_DIRNAMED:
        print_dir(pr, n);
        break;
    default:
        if (n->kind >= CN_TRUE && n->kind <= CN_CONDUNUM)
            print_cond(pr, n);
        else if (n->kind >= CN_POS && n->kind <= CN_TACKLE)
            print_action(pr, n);
        else if (n->kind >= CN_RNULL && n->kind <= CN_REC)
            print_region(pr, n);
        else
            print_point(pr, n);
        break;
    }
}

int clang_print(const clang_work_t *w, const clang_msg_t *msg, char *buf, size_t len)
{
    printer_t pr = { w, { buf, len, 0, 0 } };
    if (len == 0)
        return -1;
    buf[0] = '\0';
    node_print(&pr, msg->root);
    return pr.o.overflow ? -1 : (int)pr.o.pos;
}
