/* test_cf_cmp.c -- the comparer's rules, normalisation and deviations. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cf_cmp.h"
#include "cf_dev.h"
#include "cf_norm.h"

static void expect_str(char *got, const char *want)
{
    cr_assert_str_eq(got, want);
    free(got);
}

Test(cf_cmp, notime)
{
    expect_str(cf_cmp_notime("(see 12 ((b) 1 2))"), "(see T ((b) 1 2))");
    expect_str(cf_cmp_notime("(hear 0 referee play_on)"), "(hear T referee play_on)");
    expect_str(cf_cmp_notime("(hear referee 12 goal_l_1)"), "(hear referee T goal_l_1)");
    expect_str(cf_cmp_notime("(think)"), "(think)");
    expect_str(cf_cmp_notime("(init l 1 before_kick_off)"), "(init l 1 before_kick_off)");
    expect_str(cf_cmp_notime("(ok look 44 ((g r) 52.5 0))"), "(ok look 44 ((g r) 52.5 0))");
    expect_str(cf_cmp_notime("[zlib] (sense_body 7 (view_mode high normal))"),
               "[zlib] (sense_body T (view_mode high normal))");
    expect_str(cf_cmp_notime("(see_global 3)"), "(see_global T)");
    expect_str(cf_cmp_notime("(see 1.5 x)"), "(see 1.5 x)");
}

Test(cf_cmp, shape)
{
    expect_str(cf_cmp_shape("(see 12 ((f c) 10.5 -3) ((p \"A1\" 2) 1e-05 0))"),
               "(see # ((f c) # #) ((p \"A1\" #) # #))");
    expect_str(cf_cmp_shape("(player_type (id 3) v19 l_1)"), "(player_type (id #) v19 l_1)");
    expect_str(cf_cmp_shape("x -.5 -7 .25"), "x -# # #");
}

Test(cf_cmp, seecanon)
{
    /* 20-40 m: flag and ball changes go; a player from 20 m keeps its distance and
     * direction only; closer: everything */
    expect_str(cf_cmp_seecanon("(see 3 ((f c) 10.5 -3 0 0) ((f t r 20) 23.1 -5 0 0) ((b) 30 2 0.1 0)"
                               " ((p \"B\" 4) 24.5 0 0 0 0 0) ((p \"A\" 2 goalie) 12 1 0 0 10 0)"
                               " ((f r b) 92.8 55) ((l r) 40 -80))"),
               "(see 3 ((f c) 10.5 -3 0 0) ((f t r 20) 23.1 -5) ((b) 30 2)"
               " ((p) 24.5 0) ((p \"A\" 2 goalie) 12 1 0 0 10 0)"
               " ((f r b) 92.8 55) ((l r) 40 -80))");
    /* low quality: players keep only the direction */
    expect_str(cf_cmp_seecanon("(see 0 ((player B 4) 12) ((flag c) -3))"),
               "(see 0 ((player) 12) ((flag c) -3))");
    expect_str(cf_cmp_seecanon("(see 0 ((player B) 54.6 42) ((p) 60.3 40))"),
               "(see 0 ((player) 54.6 42) ((p) 60.3 40))");
    expect_str(cf_cmp_seecanon("(sense_body 3 (stamina 8000 1))"), "(sense_body 3 (stamina 8000 1))");
    /* a close player's arm direction (noisy) goes, its tackle flag stays */
    expect_str(cf_cmp_seecanon("(see 2 ((p \"A\" 5) 12.2 0 0 0 90 0 18 t))"),
               "(see 2 ((p \"A\" 5) 12.2 0 0 0 90 0 t))");
    expect_str(cf_cmp_seecanon("[zlib] (see 1 ((P) 0.5 120))"), "[zlib] (see 1 ((P) 0.5 120))");
}

static void add(cf_stream_t *st, const char *text, int sent)
{
    cf_stream_add(st, 1000, sent, 0, 0, text);
}

Test(cf_cmp, filter_applies_rules_in_order)
{
    cf_scn_t s;
    char err[CF_ERR_LEN];
    cr_assert_eq(cf_scn_parse(&s, "t",
                              "client P player\n"
                              "drop P ^\\(sense_body\n"
                              "notime P\n"
                              "squash P\n"
                              "shape P ^\\(see\n",
                              err, sizeof err), 0, "%s", err);
    cf_stream_t st = { .name = "P" };
    add(&st, "(init l 1 before_kick_off)", 0);
    add(&st, "(dash 100)", 1);                          /* sent: not compared */
    add(&st, "(sense_body 1 (stamina 8000 1))", 0);
    add(&st, "(see 1 ((b) 2.5 3))", 0);
    add(&st, "(hear 1 referee play_on)", 0);
    add(&st, "(hear 2 referee play_on)", 0);            /* same once the time is gone */
    cf_lines_t l;
    cf_cmp_filter(&s, &st, &l);
    cr_assert_eq(l.n, 3);
    cr_assert_str_eq(l.text[0], "(init l 1 before_kick_off)");
    cr_assert_str_eq(l.text[1], "(see T ((b) # #))");
    cr_assert_str_eq(l.text[2], "(hear T referee play_on)");
    cr_assert_eq(l.rec[1], 3);
    cf_lines_free(&l);
    for (int i = 0; i < st.n; i++)
        free(st.rec[i].text);
    free(st.rec);
    cf_scn_free(&s);
}

Test(cf_cmp, keep_and_zlib_mark)
{
    cf_scn_t s;
    char err[CF_ERR_LEN];
    cr_assert_eq(cf_scn_parse(&s, "t", "client P player\nkeep P ok\n", err, sizeof err), 0);
    cf_stream_t st = { .name = "P" };
    cf_stream_add(&st, 1, 0, 1, 0, "(ok compression 1)");
    add(&st, "(see 1)", 0);
    cf_lines_t l;
    cf_cmp_filter(&s, &st, &l);
    cr_assert_eq(l.n, 1);
    cr_assert_str_eq(l.text[0], "[zlib] (ok compression 1)");
    cf_lines_free(&l);
    for (int i = 0; i < st.n; i++)
        free(st.rec[i].text);
    free(st.rec);
    cf_scn_free(&s);
}

Test(cf_cmp, seenames)
{
    expect_str(cf_cmp_seenames("(see 12 ((f c) 10.5 -3 0 0) ((b) 3.1 2) ((p \"A\" 2 goalie) 12 1 0 0 10 0)"
                               " ((P) 0.5 120) ((l r) 40 -80))"),
               "(see 12 (f c) (b) (p) (P) (l r))");
    expect_str(cf_cmp_seenames("(hear 3 referee play_on)"), "(hear 3 referee play_on)");
}

Test(cf_cmp, sortrun_and_cut)
{
    cf_scn_t s;
    char err[CF_ERR_LEN];
    cr_assert_eq(cf_scn_parse(&s, "t",
                              "client M monitor\n"
                              "sortrun M ^\\(clang\n"
                              "cut M 3 ^\\\\x00\n",
                              err, sizeof err), 0, "%s", err);
    cf_stream_t st = { .name = "M" };
    add(&st, "(clang b)", 0);
    add(&st, "(clang a)", 0);
    add(&st, "(x)", 0);
    add(&st, "(clang d)", 0);
    add(&st, "(clang c)", 0);
    add(&st, "\\x00\\x07ab\\x99", 0);
    cf_lines_t l;
    cf_cmp_filter(&s, &st, &l);
    cr_assert_eq(l.n, 6);
    cr_assert_str_eq(l.text[0], "(clang a)");
    cr_assert_str_eq(l.text[1], "(clang b)");
    cr_assert_str_eq(l.text[2], "(x)");
    cr_assert_str_eq(l.text[3], "(clang c)");
    cr_assert_str_eq(l.text[4], "(clang d)");
    cr_assert_str_eq(l.text[5], "\\x00\\x07a");
    cf_lines_free(&l);
    for (int i = 0; i < st.n; i++)
        free(st.rec[i].text);
    free(st.rec);
    cf_scn_free(&s);
}

Test(cf_norm, run_specifics)
{
    cf_norm_ctx_t c = { .port = 31000, .dir = "/tmp/rcss-conform-ours-abc" };
    expect_str(cf_norm_line(&c, "(server_param (port 31000)(coach_port 31001)(olcoach_port 31002)"
                                "(game_log_dir \"/tmp/rcss-conform-ours-abc/logs\"))"),
               "(server_param (port <port>)(coach_port <port+1>)(olcoach_port <port+2>)"
               "(game_log_dir \"<dir>/logs\"))");
    expect_str(cf_norm_line(&c, "20261129005106-A_1-vs-B_0.rcg"), "<date>-A_1-vs-B_0.rcg");
    expect_str(cf_norm_line(&c, "\t2026-11-29 00:51:06"), "\t<date>");
    expect_str(cf_norm_line(&c, "Simulator Random Seed: 1795913466"),
               "Simulator Random Seed: <seed>");
    expect_str(cf_norm_line(&c, "READY port=31000 pid=4242"), "READY port=<port> pid=<pid>");
    expect_str(cf_norm_line(&c, "(msg 0 2 \"(x (random_seed 1) (start_time 1795915248))\")"),
               "(msg 0 2 \"(x (random_seed 1) (start_time <time>))\")");
    /* not ports: part of a longer number or a decimal */
    expect_str(cf_norm_line(&c, "310001 31000.5 1.31000 x31000"), "310001 31000.5 1.31000 x<port>");
}

Test(cf_dev, match_all_lines_of_a_difference)
{
    cf_devs_t d;
    char err[256];
    cr_assert_eq(cf_dev_parse(&d,
                              "# comment\n"
                              "*      stdout  ^READY  -- this server's ready line\n"
                              "log*   rcg     ^\\(msg 0 2 \"\\(rcssserver-shm -- seed message\n",
                              err, sizeof err), 0, "%s", err);
    cr_assert_eq(d.n, 2);
    const char *one[] = { "READY port=<port> shm=/x" };
    cf_dev_t *e = cf_dev_match(&d, "trainer", "stdout", one, 1);
    cr_assert_not_null(e);
    cr_assert_str_eq(e->reason, "this server's ready line");
    cr_assert_eq(e->used, 1);
    cr_assert_null(cf_dev_match(&d, "trainer", "rcl", one, 1));
    const char *two[] = { "READY port=1", "Hit CTRL-C to exit" };
    cr_assert_null(cf_dev_match(&d, "trainer", "stdout", two, 2));
    const char *seed[] = { "(msg 0 2 \"(rcssserver-shm (random_seed 4))\")" };
    cr_assert_not_null(cf_dev_match(&d, "logs_match", "rcg", seed, 1));
    cr_assert_null(cf_dev_match(&d, "keepaway", "rcg", seed, 1));
    cf_dev_free(&d);
}

Test(cf_dev, errors)
{
    cf_devs_t d;
    char err[256];
    cr_assert_eq(cf_dev_parse(&d, "* stdout ^x\n", err, sizeof err), -1);
    cr_assert(strstr(err, "line 1"), "%s", err);
    cr_assert_eq(cf_dev_parse(&d, "\n* stdout ( -- why\n", err, sizeof err), -1);
    cr_assert(strstr(err, "line 2: bad pattern"), "%s", err);
}

Test(cf_cmp, blank_replaces_every_match)
{
    regex_t re;
    cr_assert_eq(regcomp(&re, "\"stime\":[0-9]+", REG_EXTENDED), 0);
    char *t = cf_cmp_blank("{\"show\":{\"time\":0,\"stime\":14,\"x\":{\"stime\":2}}}", &re, "#");
    cr_expect_str_eq(t, "{\"show\":{\"time\":0,#,\"x\":{#}}}");
    free(t);
    t = cf_cmp_blank("(see 0)", &re, "#");
    cr_expect_str_eq(t, "(see 0)");
    free(t);
    t = cf_cmp_blank("a\"stime\":3b\"stime\":4", &re, "");
    cr_expect_str_eq(t, "ab", "strip");
    free(t);
    regfree(&re);
}
