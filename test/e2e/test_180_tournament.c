/* test_180_tournament.c -- rcss-tournament on this machine (the local backend), as
 * README "Tournaments and sweeps" runs it: conf/tournament/demo.json with halves of 5 s
 * (50 cycles) in synch mode, bound to 127.0.0.1, `run FILE --out DIR --backend local
 * --parallel 2` to the end. Checked (e2e_tourn.h): six matches, each played to its end
 * with its seed and its teams on their sides, the game log and both teams' output in
 * its folder, standings.json equal to a recount of every result.json and in order,
 * index.html linking every match. Then the same command again runs nothing: it says so,
 * jobs.json counts no new attempt and no result.json is written again. The 'k8s'
 * command writes one Job per round of the same file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_tourn.h"

#define HALF_S 5.0

static char out[1 << 16];

static time_t mtime_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mtime : 0;
}

Test(tournament, local_round_robin_then_nothing_to_run, .timeout = 300)
{
    char dir[] = "/tmp/rcss-e2e-tourn-XXXXXX", file[300], res[300], why[512];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/quick.json", dir);
    snprintf(res, sizeof res, "%s/out", dir);
    cr_assert_eq(e2e_tourn_quick_file(file, HALF_S), 0);
    const char *args[] = { "run", file, "--out", res, "--backend", "local", "--parallel", "2", NULL };
    double t0 = e2e_now_ms();
    int st = e2e_tourn_cmd(args, NULL, out, sizeof out, 240);
    cr_log_info("tournament: 6 matches in %.1f s", (e2e_now_ms() - t0) / 1000);
    cr_assert_eq(st, 0, "status %d:\n%s", st, out);
    cr_expect(strstr(out, "6 matches: 6 done, 0 failed, 6 started") != NULL, "%s", out);
    cr_assert_eq(e2e_tourn_check(res, 6, why, sizeof why), 0, "%s", why);
    cr_expect_eq(e2e_tourn_attempts(res), 6);

    char result[400];
    snprintf(result, sizeof result, "%s/matches/r01-m01/result.json", res);
    time_t before = mtime_of(result);
    sleep(1);
    st = e2e_tourn_cmd(args, NULL, out, sizeof out, 60);
    cr_expect_eq(st, 0, "status %d:\n%s", st, out);
    cr_expect(strstr(out, "0 started in this run") != NULL, "%s", out);
    cr_expect(strstr(out, "nothing to run") != NULL, "%s", out);
    cr_expect(strstr(out, "start ") == NULL, "the second run started something:\n%s", out);
    int att = e2e_tourn_attempts(res);
    cr_expect_eq(att, 6, "%d attempts in jobs.json after the second run", att);
    cr_expect_eq(mtime_of(result), before, "a result.json was written again");
    cr_expect_eq(e2e_tourn_check(res, 6, why, sizeof why), 0, "%s", why);

    /* the same file as Kubernetes Jobs: one per round */
    char k8s[300];
    snprintf(k8s, sizeof k8s, "%s/k8s", dir);
    const char *kargs[] = { "k8s", file, "--out", k8s, NULL };
    cr_expect_eq(e2e_tourn_cmd(kargs, NULL, out, sizeof out, 30), 0, "%s", out);
    for (int r = 1; r <= 3; r++) {
        char p[400];
        snprintf(p, sizeof p, "%s/round-%02d.json", k8s, r);
        cr_expect_neq(mtime_of(p), 0, "%s missing", p);
    }
    char rm[400];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    cr_expect_eq(system(rm), 0);
}

Test(tournament, a_bad_file_is_one_line_and_status_2, .timeout = 30)
{
    char dir[] = "/tmp/rcss-e2e-tourn-XXXXXX", file[300], res[300];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/bad.json", dir);
    snprintf(res, sizeof res, "%s/out", dir);
    FILE *f = fopen(file, "w");
    fprintf(f, "{\"teams\": [\"A\", \"B\"], \"format\": \"league\"}\n");
    fclose(f);
    const char *args[] = { "run", file, "--out", res, NULL };
    cr_expect_eq(e2e_tourn_cmd(args, NULL, out, sizeof out, 20), 2);
    cr_expect(strstr(out, "unknown format \"league\"") != NULL, "%s", out);
    cr_expect_eq(strchr(out, '\n'), out + strlen(out) - 1, "one line: %s", out);
    char rm[400];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    cr_expect_eq(system(rm), 0);
}
