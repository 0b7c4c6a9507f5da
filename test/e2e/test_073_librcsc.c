/* test_073_librcsc.c -- librcsc's log tools read our logs (a dev check: skipped unless
 * $RCSS_RCG_TOOLS names the directory holding rcgversion, rcgresultprinter and rcg2txt,
 * e.g. the interop kit's prefix/bin). A match of one half with a goal is recorded in
 * versions 4, 5 (plain) and 6 (gzip); each file must give: rcgversion its version (the
 * tool knows versions up to 5, and answers "json" for a 6 -- it does so for the
 * reference's own v6 logs too), rcgresultprinter the final score of a complete match,
 * rcg2txt one (Info ...) line per frame our reader sees and the result. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_logs.h"
#include "e2e_trainer.h"
#include "rcg.h"

/* run DIR/tool file; its stdout (and stderr) into out; the exit status */
static int tool(const char *dir, const char *name, const char *file, char **out)
{
    char exe[512], tmp[] = "/tmp/rcss-tool-XXXXXX";
    int fd = mkstemp(tmp);
    cr_assert_geq(fd, 0);
    snprintf(exe, sizeof exe, "%s/%s", dir, name);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        execl(exe, exe, file, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    close(fd);
    *out = e2e_read_file(tmp, NULL);
    unlink(tmp);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void record(e2e_logdir_t *d, int version, int gz, char *path, size_t len)
{
    char v[64], z[64];
    cr_assert_eq(e2e_logdir_make(d), 0);
    snprintf(v, sizeof v, "server::game_log_version=%d", version);
    snprintf(z, sizeof z, "server::game_log_compression=%d", gz ? 6 : 0);
    const char *args[] = { "server::game_logging=true", d->game_arg, v, z,
                           "server::synch_mode=true", "server::synch_timeout=20000",
                           "server::coach_w_referee=true", "server::half_time=3",
                           "server::nr_normal_halfs=1", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_players_t p = { 0 };
    cr_assert_eq(e2e_players_join(&p, &s, "TeamA", 0), 0);
    cr_assert_eq(e2e_players_join(&p, &s, "TeamB", 1), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_assert_eq(e2e_trainer_start(&t), 0);
    cr_assert_eq(e2e_players_cycles(&p, 3, 10000), 0);
    cr_assert_eq(e2e_trainer_change_mode(&t, "play_on"), 0);
    cr_assert_eq(e2e_trainer_move_ball(&t, 50.0, 0.0, 2.5, 0.0), 0);
    e2e_world_t w = { 0 };
    while (w.time < 30) { /* one half of 30 cycles, then time_over */
        cr_assert_eq(e2e_players_cycles(&p, 1, 10000), 0);
        cr_assert_eq(e2e_trainer_look(&t, &w), 0);
    }
    cr_assert_eq(e2e_players_cycles(&p, 3, 10000), 0);
    e2e_trainer_close(&t);
    e2e_players_close(&p);
    cr_assert_eq(e2e_server_stop(&s), 0);
    cr_assert_eq(e2e_logdir_find(d, gz ? ".rcg.gz" : ".rcg", path, len), 1);
}

static void check_tools(int version, int gz)
{
    const char *dir = getenv("RCSS_RCG_TOOLS");
    char probe[512];
    snprintf(probe, sizeof probe, "%s/rcg2txt", dir ? dir : "");
    if (!dir || access(probe, X_OK) != 0)
        cr_skip_test("RCSS_RCG_TOOLS does not name librcsc's tools");
    e2e_logdir_t d;
    char path[512], err[256], *out;
    record(&d, version, gz, path, sizeof path);
    rcg_t g;
    cr_assert_eq(rcg_read_file(path, &g, err, sizeof err), 0, "%s", err);

    cr_expect_eq(tool(dir, "rcgversion", path, &out), 0);
    char want[32];
    snprintf(want, sizeof want, "version=%d", version);
    if (version <= 5)
        cr_expect_not_null(strstr(out, want), "%s", out);
    free(out);

    cr_expect_eq(tool(dir, "rcgresultprinter", path, &out), 0);
    cr_expect_not_null(strstr(out, " TeamA TeamB 1 0"), "%s", out);
    cr_expect_null(strstr(out, "incomplete"), "%s", out);
    free(out);

    cr_expect_eq(tool(dir, "rcg2txt", path, &out), 0);
    int infos = 0;
    for (const char *p = out; (p = strstr(p, "(Info (state ")); p++)
        infos++;
    cr_expect_eq(infos, g.n_frames, "rcg2txt saw %d frames, our reader %d", infos, g.n_frames);
    cr_expect_not_null(strstr(out, "(Result \"TeamA\" \"TeamB\" 1 0)"), "%s",
                       out + (strlen(out) > 300 ? strlen(out) - 300 : 0));
    cr_expect_null(strstr(out, "error"), "no parse error");
    free(out);
    rcg_free(&g);
    e2e_logdir_remove(&d);
}

Test(librcsc, reads_version_4, .timeout = 60) { check_tools(4, 0); }
Test(librcsc, reads_version_5, .timeout = 60) { check_tools(5, 0); }
Test(librcsc, reads_version_6_gzip, .timeout = 60) { check_tools(6, 1); }
