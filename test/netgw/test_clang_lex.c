/* test_clang_lex.c -- the coach language's tokens (netgw/clang/clang_lex.c;
 * docs/protocol/clang.md §2 "Lexer"): the longest match wins, a keyword beats a variable
 * of the same length, variables cannot start with c, d, p or s (ball-move tokens), signed
 * integers and reals with exponents, comparison and arithmetic operators, errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "clang.h"

/* the kinds of the tokens of s, separated by spaces in names: "KW:do VAR:x INT" */
static void tokens(const char *s, const char *expected)
{
    char got[512] = "";
    size_t n = strlen(s), off = 0;
    while (off < n) {
        clang_tok_t t;
        clang_lex(s + off, n - off, &t);
        char one[64];
        switch (t.kind) {
        case CT_INT:   snprintf(one, sizeof one, "INT:%d", t.ival); break;
        case CT_REAL:  snprintf(one, sizeof one, "REAL:%g", t.dval); break;
        case CT_VAR:   snprintf(one, sizeof one, "VAR:%.*s", (int)t.n, t.s); break;
        case CT_KW:    snprintf(one, sizeof one, "KW:%s", clang_keywords[t.ival]); break;
        case CT_MODE:  snprintf(one, sizeof one, "MODE:%s", clang_mode_names[t.ival]); break;
        case CT_BMOVE: snprintf(one, sizeof one, "BM:%c", "?pdcs"[t.ival]); break;
        case CT_LB:    snprintf(one, sizeof one, "{"); break;
        case CT_RB:    snprintf(one, sizeof one, "}"); break;
        case CT_ERROR: snprintf(one, sizeof one, "ERR:%c", s[off]); break;
        default:       snprintf(one, sizeof one, "OP%d", t.kind - CT_OP_L); break;
        }
        if (got[0])
            strcat(got, " ");
        strcat(got, one);
        off += t.n;
    }
    cr_expect_str_eq(got, expected, "%s", s);
}

Test(clang_lex, keywords_before_variables)
{
    tokens("do", "KW:do");
    tokens("dont", "KW:dont");
    tokens("done", "KW:do VAR:ne");       /* a variable cannot start with d */
    tokens("our", "KW:our");
    tokens("ours", "VAR:ours");           /* longer as a variable */
    tokens("doour", "KW:do KW:our");      /* no blank needed between tokens */
    tokens("definerule", "KW:definerule");
    tokens("definec", "KW:definec");
    tokens("play_on", "MODE:play_on");
    tokens("playm", "KW:playm");
    tokens("ki_our", "MODE:ki_our");
    tokens("x_1", "VAR:x_1");
}

Test(clang_lex, ball_move_letters)
{
    tokens("pdcs", "BM:p BM:d BM:c BM:s");
    tokens("pass", "KW:pass");
    tokens("pt", "KW:pt");
    tokens("score", "BM:s BM:c VAR:ore");
    tokens("{pd}", "{ BM:p BM:d }");
}

Test(clang_lex, numbers)
{
    tokens("42", "INT:42");
    tokens("-7", "INT:-7");
    tokens("+3", "INT:3");
    tokens("1.5", "REAL:1.5");
    tokens(".5", "REAL:0.5");
    tokens("-.25", "REAL:-0.25");
    tokens("1e3", "REAL:1000");
    tokens("2.5E-1", "REAL:0.25");
    tokens("1e", "INT:1 VAR:e");          /* an exponent needs digits */
    tokens("1.", "INT:1 ERR:.");
    tokens("1-2", "INT:1 INT:-2");
    tokens("{1}", "{ INT:1 }");
}

Test(clang_lex, operators)
{
    tokens("<", "OP0");
    tokens("<=", "OP1");
    tokens("==", "OP2");
    tokens("!=", "OP3");
    tokens(">=", "OP4");
    tokens(">", "OP5");
    tokens("=", "ERR:=");
    tokens("!", "ERR:!");
    tokens("-", "OP7");                   /* CT_MINUS */
    tokens("time<=5", "KW:time OP1 INT:5");
}

Test(clang_lex, strings)
{
    cr_expect(clang_str_ok("hello (x) 1+2*3/4? <a>_b -c.d", 30));
    cr_expect(!clang_str_ok("", 0));
    cr_expect(!clang_str_ok("a,b", 3));
    cr_expect(!clang_str_ok("tab\there", 8));
}
