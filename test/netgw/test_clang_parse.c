/* test_clang_parse.c -- the coach language (netgw/clang/clang_*.c; docs/protocol/clang.md): every
 * production of the grammar parsed and printed back in the canonical form, the version span
 * each construct gives a message, and malformed messages refused with an error that names
 * the offset and what was expected.
 *
 * The canonical form follows the rules of docs/protocol/clang.md §3: single spaces, numbers as %g
 * (0.50 -> 0.5, 1.0 -> 1), unum sets in reverse order ({3 4} -> {4 3}). Further rules of
 * the reference's printer that these tests pin (explained where used): actions of a
 * directive and activations of a rule message follow each other without a space, a
 * quad is printed with its first three corners, a quoted condition name keeps its
 * quotes inside another pair, a player number 12 (the reference's "no player") prints
 * as (null) and a negative one as its unsigned 32-bit value. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clang.h"

static clang_work_t w;
static char out[16384];
static char err[CLANG_ERR_LEN];
static clang_msg_t msg;

static int parse(const char *text)
{
    return clang_parse(&w, text, strlen(text), 128, &msg, err, sizeof err);
}

/* canonical text, or "ERROR" */
static const char *canon(const char *text)
{
    if (parse(text) < 0)
        return "ERROR";
    cr_assert_geq(clang_print(&w, &msg, out, sizeof out), 0);
    return out;
}

static void same(const char *in, const char *expected)
{
    const char *got = canon(in);
    cr_expect_str_eq(got, expected, "%s -> %s (err %s)", in, got, err);
}

static void refused(const char *in, const char *err_expected)
{
    cr_expect_eq(parse(in), -1, "%s was accepted", in);
    if (err_expected)
        cr_expect_str_eq(err, err_expected, "%s", in);
}

/* ---- messages ------------------------------------------------------------------ */
Test(clang_parse, message_types)
{
    same("(say (freeform \"hello coach\"))", "(freeform \"hello coach\")");
    cr_expect_eq(msg.type, CLANG_FREEFORM);
    same("(say (meta (ver 7) (ver 8.50)))", "(meta (ver 7) (ver 8.5))");
    cr_expect_eq(msg.type, CLANG_META);
    same("(say (unsupported_clang))", "(unsupported_clang)");
    cr_expect_eq(msg.type, CLANG_UNSUPP);
    same("(say (info (10 (true) (do our {1} (shoot)))))",
         "(info (10 (true) (do our {1} (shoot))))");
    cr_expect_eq(msg.type, CLANG_INFO);
    same("(say (advice (clear)))", "(advice (clear))");
    cr_expect_eq(msg.type, CLANG_ADVICE);
    same("(say (define (definec \"c1\" (true))))", "(define (definec \"c1\" (true)))");
    cr_expect_eq(msg.type, CLANG_DEFINE);
    same("(say (rule (on r1)))", "(rule (on r1))");
    cr_expect_eq(msg.type, CLANG_RULE);
    same("(say (delete r1))", "(delete r1)");
    cr_expect_eq(msg.type, CLANG_DEL);
}

Test(clang_parse, top_level_forms)
{
    /* a bare message, (say MESSAGE) and the hear form are all accepted */
    same("(freeform \"x\")", "(freeform \"x\")");
    same("  (say   (freeform \"x\")  )\n", "(freeform \"x\")");
    same("(hear 12 online_coach_right 7 (freeform \"x\"))", "(freeform \"x\")");
    refused("(hear 12 coach 7 (freeform \"x\"))", NULL);
    refused("(say (freeform \"x\") (freeform \"y\"))", NULL);
    refused("(say (freeform \"x\")) trailing", "offset 21: unexpected text after the message");
    refused("(say)", "offset 4: expected a message, found ')'");
    refused("freeform", "offset 0: expected '('");
    refused("", NULL);
    refused("(say (freeform \"x\")", NULL); /* unbalanced */
}

Test(clang_parse, meta_and_freeform)
{
    same("(say (meta (ver 7)(ver 8)))", "(meta (ver 7) (ver 8))");
    refused("(say (meta))", "offset 10: expected (ver N), found ')'");
    refused("(say (meta (ver x)))", "offset 16: expected a number, found 'x'");
    /* freeform: at most say_coach_msg_size (128 here) characters of the string set */
    char m[300];
    snprintf(m, sizeof m, "(say (freeform \"%0128d\"))", 0);
    cr_expect_eq(parse(m), 0, "128 characters: %s", err);
    snprintf(m, sizeof m, "(say (freeform \"%0129d\"))", 0);
    refused(m, "offset 15: freeform message longer than 128 characters");
    refused("(say (freeform \"\"))", "offset 15: illegal string '\"\"'");
    refused("(say (freeform \"a,b\"))", "offset 15: illegal string '\"a,b\"'");
    same("(say (freeform \"(a+b)*c/d? <e>_f -g.h\"))", "(freeform \"(a+b)*c/d? <e>_f -g.h\")");
    refused("(say (freeform x))", "offset 15: expected a quoted string, found 'x'");
}

Test(clang_parse, info_and_advice_tokens)
{
    same("(say (advice (20 (true) (do our {1} (shoot)) (dont opp {2} (hold)))))",
         "(advice (20 (true) (do our {1} (shoot)) (dont opp {2} (hold))))");
    same("(say (info (clear) (5 (false) \"dir1\")))", "(info (clear) (5 (false) \"dir1\"))");
    same("(say (advice (-3 (true) \"d\")))", "(advice (-3 (true) \"d\"))");
    refused("(say (advice))", "offset 12: expected a token (TTL CONDITION DIRECTIVE...) or (clear), found ')'");
    refused("(say (advice (10 (true))))", "offset 23: expected a directive, found ')'");
    refused("(say (advice (x (true) \"d\")))", "offset 14: expected a time to live or clear, found 'x'");
}

/* ---- definitions and rules --------------------------------------------------------- */
Test(clang_parse, definitions)
{
    same("(say (define (definec \"c\" (true)) (defined \"d\" (do our {0} (shoot)))"
         " (definer \"r\" (null)) (definea \"a\" (hold))))",
         "(define (definec \"c\" (true)) (defined \"d\" (do our {0} (shoot)))"
         " (definer \"r\" (null)) (definea \"a\" (hold)))");
    same("(say (define (definerule r1 model ((true) (do our {1} (shoot))))))",
         "(define (definerule r1 model ((true) (do our {1} (shoot)))))");
    same("(say (define (definerule r1 direc ((true) r2 (r3 r4) all))))",
         "(define (definerule r1 direc ((true) r2 (r3 r4) all)))");
    same("(say (define (definerule r1 direc ((true) ((false) (do our {1} (hold)))))))",
         "(define (definerule r1 direc ((true) ((false) (do our {1} (hold))))))");
    same("(say (define (definerule r1 model (r2 r3))))", "(define (definerule r1 model (r2 r3)))");
    refused("(say (define (definex \"a\" (true))))", NULL);
    refused("(say (define (definerule r1 both r2)))", "offset 28: expected model or direc, found 'both'");
    refused("(say (define (definerule r1 model ((true) (do our {1} (shoot)) r2))))",
            "offset 63: expected a directive, found 'r2'");
    refused("(say (define (definec c (true))))", "offset 22: expected a quoted name, found 'c'");
}

Test(clang_parse, names_are_at_most_eight_characters)
{
    same("(say (define (definer \"abcdefgh\" (null))))", "(define (definer \"abcdefgh\" (null)))");
    refused("(say (define (definer \"abcdefghi\" (null))))",
            "offset 22: name longer than 8 characters");
    same("(say (rule (on abcdefgh)))", "(rule (on abcdefgh))");
    refused("(say (rule (on abcdefghi)))", "offset 15: name longer than 8 characters");
    /* a quoted condition name counts its two quotes: 6 characters at most */
    same("(say (define (definec \"c\" \"abcdef\")))", "(define (definec \"c\" \"\"abcdef\"\"))");
    refused("(say (define (definec \"c\" \"abcdefg\")))", NULL);
}

Test(clang_parse, rule_and_delete_messages)
{
    /* activations follow each other without a space */
    same("(say (rule (on r1) (off (r2 r3)) (on all)))", "(rule (on r1)(off (r2 r3))(on all))");
    /* a list of one name prints as the name */
    same("(say (delete (r1)))", "(delete r1)");
    same("(say (delete (r1 r2)))", "(delete (r1 r2))");
    same("(say (delete all))", "(delete all)");
    refused("(say (rule))", NULL);
    refused("(say (rule (maybe r1)))", "offset 12: expected on or off, found 'maybe'");
    refused("(say (delete ()))", "offset 14: expected a rule name, found ')'");
    refused("(say (delete 5))", "offset 13: expected a rule name, a list of them or all, found '5'");
}

/* ---- conditions --------------------------------------------------------------------- */
static void cond(const char *c, const char *expected)
{
    char in[512], exp[512];
    snprintf(in, sizeof in, "(say (advice (1 %s (do our {1} (shoot)))))", c);
    snprintf(exp, sizeof exp, "(advice (1 %s (do our {1} (shoot))))", expected);
    same(in, exp);
}

Test(clang_parse, conditions)
{
    cond("(true)", "(true)");
    cond("(false)", "(false)");
    cond("(ppos our {1 2} 1 11 (pt 0 0))", "(ppos our {2 1} 1 11 (pt 0 0))");
    cond("(ppos opp {0} 0 3 (null))", "(ppos opp {0} 0 3 (null))");
    cond("(bpos \"reg\")", "(bpos \"reg\")");
    cond("(bowner our {5})", "(bowner our {5})");
    cond("(and (true) (false) (true))", "(and (true) (false) (true))");
    cond("(or (true))", "(or (true))");
    cond("(not (not (false)))", "(not (not (false)))");
    cond("\"abc\"", "\"\"abc\"\"");
    cond("(unum x {1 2})", "(unum x {2 1})");
    cond("(unum \"ab\" {1})", "(unum \"ab\" {1})");
    refused("(say (advice (1 (and) \"d\")))", "offset 20: expected a condition, found ')'");
    refused("(say (advice (1 (maybe) \"d\")))", "offset 17: expected a condition keyword, found 'maybe'");
    refused("(say (advice (1 (ppos both {1} 1 2 (null)) \"d\")))",
            "offset 22: expected our or opp, found 'both'");
}

Test(clang_parse, every_play_mode)
{
    for (int m = 1; m <= CLANG_MODE_COUNT; m++) {
        char c[64];
        snprintf(c, sizeof c, "(playm %s)", clang_mode_names[m]);
        cond(c, c);
    }
    /* the keyword is our_goals (own_goals does not exist), and there is no ki_out */
    refused("(say (advice (1 (playm ki_out) \"d\")))", NULL);
    refused("(say (advice (1 (own_goals > 1) \"d\")))", NULL);
}

Test(clang_parse, comparisons_both_ways)
{
    static const char *ops[6] = { "<", "<=", "==", "!=", ">=", ">" };
    static const char *mirror[6] = { ">", ">=", "==", "!=", "<=", "<" };
    static const char *what[4] = { "time", "opp_goals", "our_goals", "goal_diff" };
    for (int o = 0; o < 6; o++) {
        for (int k = 0; k < 4; k++) {
            char c[64], e[64];
            snprintf(c, sizeof c, "(%s %s 5)", what[k], ops[o]);
            cond(c, c);
            /* the number first: printed with the quantity first and the operator mirrored */
            snprintf(c, sizeof c, "(5 %s %s)", ops[o], what[k]);
            snprintf(e, sizeof e, "(%s %s 5)", what[k], mirror[o]);
            cond(c, e);
        }
    }
    cond("(time<100)", "(time < 100)"); /* tokens need no blanks between them */
    refused("(say (advice (1 (time = 5) \"d\")))", "offset 22: illegal character '='");
    refused("(say (advice (1 (time < x) \"d\")))", "offset 24: expected an integer, found 'x'");
    refused("(say (advice (1 (5 < 6) \"d\")))",
            "offset 21: expected time, opp_goals, our_goals or goal_diff, found '6'");
}

/* ---- directives and actions --------------------------------------------------------- */
static void act(const char *a, const char *expected)
{
    char in[512], exp[512];
    snprintf(in, sizeof in, "(say (advice (1 (true) (do our {1} %s))))", a);
    snprintf(exp, sizeof exp, "(advice (1 (true) (do our {1} %s)))", expected);
    same(in, exp);
}

Test(clang_parse, actions)
{
    act("(pos (pt 1 2))", "(pos (pt 1 2))");
    act("(home (null))", "(home (null))");
    act("(bto (pt 1 2) {s p d c})", "(bto (pt 1 2) {pdcs})"); /* pass dribble clear score */
    act("(bto (pt 1 2) {sp})", "(bto (pt 1 2) {ps})");
    act("(bto {2 3})", "(bto {3 2})");
    act("(mark {4})", "(mark {4})");
    act("(markl {4})", "(markl {4})");
    act("(markl (pt ball))", "(markl (pt ball))");
    act("(oline (pt 0 0))", "(oline (pt 0 0))");
    act("(htype -1)", "(htype -1)");
    act("\"act1\"", "\"act1\"");
    act("(pass (pt 1 1))", "(pass (pt 1 1))");
    act("(pass {7})", "(pass {7})");
    act("(dribble (null))", "(dribble (null))");
    act("(clear (null))", "(clear (null))");
    act("(shoot)", "(shoot)");
    act("(hold)", "(hold)");
    act("(intercept)", "(intercept)");
    act("(tackle {9})", "(tackle {9})");
    /* several actions are printed one after the other without a space */
    act("(pos (pt 1 2)) (shoot) (hold)", "(pos (pt 1 2))(shoot)(hold)");
    refused("(say (advice (1 (true) (do our {1}))))", "offset 34: expected an action, found ')'");
    refused("(say (advice (1 (true) (do our {1} (fly)))))",
            "offset 36: expected an action keyword, found 'fly'");
    refused("(say (advice (1 (true) (do our {1} (bto (pt 1 2) {x})))))",
            "offset 50: expected p, d, c or s, found 'x'");
    refused("(say (advice (1 (true) (do our {1} (bto (pt 1 2) {})))))",
            "offset 50: expected p, d, c or s, found '}'");
    refused("(say (advice (1 (true) (go our {1} (shoot)))))",
            "offset 24: expected do or dont, found 'go'");
}

Test(clang_parse, directives)
{
    same("(say (advice (1 (true) (dont opp {0} (mark {1})) \"d2\")))",
         "(advice (1 (true) (dont opp {0} (mark {1})) \"d2\"))");
    /* do and our run together still read as two tokens */
    same("(say (advice (1 (true) (doour{1}(shoot)))))", "(advice (1 (true) (do our {1} (shoot))))");
}

/* ---- regions, points, numbers, unum sets ----------------------------------------------- */
static void reg(const char *r, const char *expected)
{
    char in[512], exp[512];
    snprintf(in, sizeof in, "(say (advice (1 (true) (do our {1} (pos %s)))))", r);
    snprintf(exp, sizeof exp, "(advice (1 (true) (do our {1} (pos %s))))", expected);
    same(in, exp);
}

Test(clang_parse, regions)
{
    reg("(null)", "(null)");
    /* the printer writes a quad's first three corners */
    reg("(quad (pt 1 1) (pt 2 2) (pt 3 3) (pt 4 4))", "(quad (pt 1 1) (pt 2 2) (pt 3 3))");
    reg("(arc (pt 0 0) 1 10.5 -90 180)", "(arc (pt 0 0) 1 10.5 -90 180)");
    reg("(reg (null) \"r1\" (pt ball))", "(reg (null) \"r1\" (pt ball))");
    reg("\"r2\"", "\"r2\"");
    reg("(tri (pt 1 1) (pt 2 2) (pt 3 3))", "(tri (pt 1 1) (pt 2 2) (pt 3 3))");
    reg("(rec (pt 1 1) (pt 2 2))", "(rec (pt 1 1) (pt 2 2))");
    /* the reference's builder closes a union by taking every region on top of its one
     * stack, so an inner (reg ...) also takes the regions written before it in the
     * enclosing lists: (reg A (reg B) C) becomes (reg (reg A B) C) */
    reg("(reg (null) (reg (pt 1 1)) \"r\")", "(reg (reg (null) (pt 1 1)) \"r\")");
    reg("(reg (reg \"a\") \"b\" (reg \"c\" (reg \"d\")) \"e\")",
        "(reg (reg (reg (reg \"a\") \"b\" \"c\" \"d\")) \"e\")");
    reg("(reg (reg (null)))", "(reg (reg (null)))");
    refused("(say (advice (1 (true) (do our {1} (pos (quad (pt 1 1) (pt 2 2) (pt 3 3)))))))",
            "offset 72: expected a point, found ')'");
    refused("(say (advice (1 (true) (do our {1} (pos (circle 3))))))",
            "offset 41: expected a region keyword, found 'circle'");
    refused("(say (advice (1 (true) (do our {1} (pos (reg))))))", NULL);
}

Test(clang_parse, points)
{
    reg("(pt 1 2)", "(pt 1 2)");
    reg("(pt 1 2 (pt ball))", "(pt 1 2 (pt ball))");
    reg("(pt our 5)", "(pt our 5)");
    reg("(pt opp x)", "(pt opp x)");
    reg("(pt opp \"ab\")", "(pt opp \"ab\")"); /* printed with its quotes */
    reg("(pt our 12)", "(pt our (null))");
    reg("((pt 1 2))", "(pt 1 2)");              /* the extra parentheses go */
    /* arithmetic: * and / bind closer than + and -, all left-associative */
    reg("((pt 1 2) + (pt 3 4) * (pt 5 6))", "((pt 1 2) + ((pt 3 4) * (pt 5 6)))");
    reg("((pt 1 2) - (pt 3 4) - (pt 5 6))", "(((pt 1 2) - (pt 3 4)) - (pt 5 6))");
    reg("((pt 1 2)/(pt 3 4)+(pt 1 1))", "(((pt 1 2) / (pt 3 4)) + (pt 1 1))");
    refused("(say (advice (1 (true) (do our {1} (pos ((pt 1 2) % (pt 3 4)))))))",
            "offset 50: illegal character '%'");
    refused("(say (advice (1 (true) (do our {1} (pos ((pt 1 2) (pt 3 4)))))))",
            "offset 50: expected + - * / or ')', found a list");
    refused("(say (advice (1 (true) (do our {1} (pos (pt 1))))))",
            "offset 45: expected a number, found ')'");
}

Test(clang_parse, numbers_as_streams_print_them)
{
    reg("(pt 0.50 1.0)", "(pt 0.5 1)");
    reg("(pt 1e3 .5)", "(pt 1000 0.5)");
    reg("(pt 1234567 -0.0)", "(pt 1.23457e+06 -0)"); /* 6 significant digits, -0 stays */
    reg("(pt +2 -3)", "(pt 2 -3)");
    refused("(say (advice (1 (true) (do our {1} (pos (pt 1. 2))))))", NULL);
}

Test(clang_parse, unum_sets)
{
    act("(mark {1 2 3})", "(mark {3 2 1})"); /* reversed, as the reference keeps them */
    act("(mark {x \"ab\" 3})", "(mark {3 ab x})"); /* a quoted number name loses its quotes */
    act("(mark {12})", "(mark {(null)})");
    act("(mark {-1})", "(mark {4294967295})");
    act("(mark {0})", "(mark {0})");
    refused("(say (advice (1 (true) (do our {} (shoot)))))",
            "offset 32: expected a player number, found '}'");
    refused("(say (advice (1 (true) (do our {1 (x)} (shoot)))))",
            "offset 34: expected a player number or '}', found a list");
}

/* ---- version spans -------------------------------------------------------------------- */
static void span(const char *in, unsigned min, unsigned max)
{
    cr_assert_eq(parse(in), 0, "%s: %s", in, err);
    cr_expect(msg.min_ver == min && msg.max_ver == max, "%s: span %u %u, expected %u %u", in,
              msg.min_ver, msg.max_ver, min, max);
}

Test(clang_parse, version_spans)
{
    /* docs/protocol/clang.md §1: info/advice/meta are 7-only, rule/delete 8-only, define,
     * freeform and unsupported_clang "7 or 8" (min 8, max 7: either end is enough) */
    span("(say (info (1 (true) \"d\")))", 7, 7);
    span("(say (advice (1 (true) \"d\")))", 7, 7);
    span("(say (meta (ver 8)))", 7, 7);
    span("(say (rule (on a)))", 8, 8);
    span("(say (delete a))", 8, 8);
    span("(say (freeform \"x\"))", 8, 7);
    span("(say (unsupported_clang))", 8, 7);
    span("(say (define (definec \"c\" (true))))", 8, 7);
    /* an 8-only construct in a define makes it 8-only; a quad (7-only) makes it 7 */
    span("(say (define (definer \"r\" (rec (pt 1 1) (pt 2 2)))))", 8, 8);
    span("(say (define (definer \"r\" (quad (pt 1 1) (pt 2 2) (pt 3 3) (pt 4 4)))))", 7, 7);
    span("(say (define (definerule r model a)))", 8, 8);
    /* an 8-only construct in a 7-only message asks for both: 7 to 8 */
    span("(say (advice (1 (true) (do our {1} (shoot)))))", 7, 8);
    span("(say (advice (1 (time < 3) \"d\")))", 7, 8);
    span("(say (advice (1 (true) (do our {x} (pos (pt 0 0))))))", 7, 8);
}

Test(clang_parse, who_hears_what)
{
    /* "7 or 8" reaches a player of [7,7], [8,8] and [7,16]; 0 0 (never announced) none */
    cr_expect(clang_supported(8, 7, 7, 7));
    cr_expect(clang_supported(8, 7, 8, 16));
    cr_expect(!clang_supported(8, 7, 0, 0));
    cr_expect(!clang_supported(8, 7, 9, 16));
    /* 7-only */
    cr_expect(clang_supported(7, 7, 7, 8));
    cr_expect(!clang_supported(7, 7, 8, 8));
    /* 8-only */
    cr_expect(clang_supported(8, 8, 1, 16));
    cr_expect(!clang_supported(8, 8, 7, 7));
    /* 7 to 8: the player's range must cover both */
    cr_expect(clang_supported(7, 8, 7, 8));
    cr_expect(!clang_supported(7, 8, 8, 16));
    cr_expect(!clang_supported(7, 8, 7, 7));
}

Test(clang_parse, tree_shape)
{
    cr_assert_eq(parse("(say (advice (4 (true) (do our {3 4} (pos (pt 1 2))))))"), 0);
    const clang_node_t *m = &w.node[msg.root];
    cr_expect_eq(m->kind, CN_ADVICE);
    const clang_node_t *tok = &w.node[m->first];
    cr_expect_eq(tok->kind, CN_TOKRULE);
    cr_expect_eq(tok->i[0], 4);
    const clang_node_t *c = &w.node[tok->first];
    cr_expect_eq(c->kind, CN_TRUE);
    const clang_node_t *d = &w.node[c->next];
    cr_expect_eq(d->kind, CN_DO);
    cr_expect_eq(d->flag, 3); /* do, our */
    const clang_node_t *set = &w.node[d->first];
    cr_expect_eq(set->kind, CN_UNUMSET);
    cr_expect_eq(w.node[set->first].i[0], 4);
    const clang_node_t *a = &w.node[set->next];
    cr_expect_eq(a->kind, CN_POS);
    const clang_node_t *p = &w.node[a->first];
    cr_expect(p->kind == CN_PT && p->d[0] == 1.0 && p->d[1] == 2.0);
}
