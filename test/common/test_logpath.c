/* test_logpath.c -- log directory and file names as the reference names them (see
 * docs/protocol/logs.md §4): "[DATE]LEFT-vs-RIGHT.rcg[.gz]" with TEAMINFO =
 * name_[coach_]score[_penscore[w]] ("null" for a team that never connected), e.g. the
 * observed "20261122102050-TeamA_Coachy_0-vs-TeamB_0.rcg"; and hostile names staying
 * inside the directory. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "logpath.h"

static char out[LOGPATH_MAX], err[512];

static logpath_team_t team(const char *name, const char *coach, int score)
{
    logpath_team_t t = { name, coach, score, 0, 0, 0 };
    return t;
}

Test(logpath, teaminfo)
{
    logpath_team_t a = team("TeamA", "Coachy", 0), b = team("TeamB", "", 0);
    cr_assert_gt(logpath_teaminfo(&a, &b, out, sizeof out), 0);
    cr_expect_str_eq(out, "TeamA_Coachy_0-vs-TeamB_0");
    logpath_team_t none = team("", "", 0);
    cr_assert_gt(logpath_teaminfo(&a, &none, out, sizeof out), 0);
    cr_expect_str_eq(out, "TeamA_Coachy_0-vs-null");
    cr_assert_gt(logpath_teaminfo(&none, &none, out, sizeof out), 0);
    cr_expect_str_eq(out, "null-vs-null");
}

/* penalties appear only when the regular score is tied and both sides took some */
Test(logpath, teaminfo_penalties)
{
    logpath_team_t a = team("A", "", 2), b = team("B", "", 2);
    a.pen_score = 4;
    a.pen_taken = 5;
    a.pen_won = 1;
    b.pen_score = 3;
    b.pen_taken = 5;
    cr_assert_gt(logpath_teaminfo(&a, &b, out, sizeof out), 0);
    cr_expect_str_eq(out, "A_2_4w-vs-B_2_3");
    b.score = 1;
    cr_assert_gt(logpath_teaminfo(&a, &b, out, sizeof out), 0);
    cr_expect_str_eq(out, "A_2-vs-B_1");
    b.score = 2;
    b.pen_taken = 0;
    cr_assert_gt(logpath_teaminfo(&a, &b, out, sizeof out), 0);
    cr_expect_str_eq(out, "A_2-vs-B_2");
}

Test(logpath, hostile_names_never_make_a_path)
{
    logpath_team_t a = team("../../x", "/etc/passwd", 1), b = team("a b\n\x01", "..", 0);
    cr_assert_gt(logpath_teaminfo(&a, &b, out, sizeof out), 0);
    cr_expect_null(strchr(out, '/'));
    cr_expect_str_eq(out, ".._.._x__etc_passwd_1-vs-a_b___.._0");
    cr_assert_gt(logpath_final("/logs/", 0, "", 0, out, ".rcg", 0, out + 2048, 2048), 0);
    cr_expect_str_eq(out + 2048, "/logs/.._.._x__etc_passwd_1-vs-a_b___.._0.rcg");
}

Test(logpath, running_and_final_names)
{
    cr_assert_gt(logpath_running("./", 0, "rcssserver", ".rcg", 0, out, sizeof out), 0);
    cr_expect_str_eq(out, "./incomplete.rcg");
    cr_assert_gt(logpath_running("/l/", 1, "match7", ".rcl", 1, out, sizeof out), 0);
    cr_expect_str_eq(out, "/l/match7.rcl.gz");
    /* the date: strftime of the start time in local time, with the default format */
    time_t t = 1700000000;
    struct tm tm;
    char date[64], want[128];
    localtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y%m%d%H%M%S-", &tm);
    snprintf(want, sizeof want, "./%sA_1-vs-B_0.rcg.gz", date);
    cr_assert_gt(logpath_final("./", 1, "%Y%m%d%H%M%S-", t, "A_1-vs-B_0", ".rcg", 1, out,
                               sizeof out), 0);
    cr_expect_str_eq(out, want);
    cr_assert_gt(logpath_final("./", 0, "%Y%m%d%H%M%S-", t, "A_1-vs-B_0", ".rcl", 0, out,
                               sizeof out), 0);
    cr_expect_str_eq(out, "./A_1-vs-B_0.rcl");
    /* a '/' the date format makes is no directory either */
    cr_assert_gt(logpath_final("./", 1, "%Y/%m-", t, "x", ".rcg", 0, out, sizeof out), 0);
    cr_expect_null(strchr(out + 2, '/'), "%s", out);
}

Test(logpath, dir_expansion)
{
    setenv("HOME", "/home/someone", 1);
    cr_assert_eq(logpath_dir("~/logs", out, sizeof out, err, sizeof err), 0);
    cr_expect_str_eq(out, "/home/someone/logs/");
    cr_assert_eq(logpath_dir("~", out, sizeof out, err, sizeof err), 0);
    cr_expect_str_eq(out, "/home/someone/");
    cr_assert_eq(logpath_dir("./", out, sizeof out, err, sizeof err), 0);
    cr_expect_str_eq(out, "./");
    cr_assert_eq(logpath_dir("", out, sizeof out, err, sizeof err), 0);
    cr_expect_str_eq(out, "./");
    cr_assert_eq(logpath_dir("/var/log/rc", out, sizeof out, err, sizeof err), 0);
    cr_expect_str_eq(out, "/var/log/rc/");
    unsetenv("HOME");
    cr_expect_eq(logpath_dir("~/x", out, sizeof out, err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "HOME"));
}

Test(logpath, mkdirs)
{
    char base[] = "/tmp/rcss-logpath-XXXXXX", dir[256];
    cr_assert_not_null(mkdtemp(base));
    snprintf(dir, sizeof dir, "%s/a/b/c/", base);
    cr_assert_eq(logpath_mkdirs(dir, err, sizeof err), 0, "%s", err);
    struct stat st;
    cr_expect_eq(stat(dir, &st), 0);
    cr_expect_eq(logpath_mkdirs(dir, err, sizeof err), 0, "exists already: fine");
    char file[300];
    snprintf(file, sizeof file, "%s/f", base);
    FILE *f = fopen(file, "w");
    fclose(f);
    snprintf(dir, sizeof dir, "%s/f/sub/", base);
    cr_expect_eq(logpath_mkdirs(dir, err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "mkdir("), "%s", err);
    unlink(file);
    snprintf(dir, sizeof dir, "%s/a/b/c", base);
    rmdir(dir);
    snprintf(dir, sizeof dir, "%s/a/b", base);
    rmdir(dir);
    snprintf(dir, sizeof dir, "%s/a", base);
    rmdir(dir);
    rmdir(base);
}
