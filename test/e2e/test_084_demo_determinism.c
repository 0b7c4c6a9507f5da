/* test_084_demo_determinism.c -- the same demo match twice: two rcss-demoteam processes
 * play each other in synch mode (auto_mode, two halves of HALF_S s, no extra time, no
 * shoot-out) on two servers with the same server::random_seed, the game logs on. The
 * two matches differ only in what the wall clock decides: in the second the left team
 * starts LEFT_LATE_MS after the server and the right team RIGHT_LATE_MS after the left
 * team is ready, so the players join in other steps of the real-time steps before the
 * kick-off (synch mode steps every 50 ms while the game time is 0: docs/protocol/player.md
 * §11.3), wait there a different number of cycles, and the two teams' datagrams reach the
 * gateway in whatever order the machine gives them within each cycle. Checked: both
 * matches reach time_over with both teams reporting the score, no error or warning, and
 * the game logs are the same bytes from the first show on (the start minute of the
 * (result ...) note blanked: e2e_rcg_play), so every show line of the one is the show
 * line of the other (README "Tournaments and sweeps", "Same seeds, same matches?"). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_logs.h"
#include "e2e_proc.h"

#define HALF_S        10   /* 100 cycles a half */
#define SEED          "84"
#define LEFT_LATE_MS  130
#define RIGHT_LATE_MS 370

static e2e_proc_t team[2];
static char line[4096], out[1 << 16];

static void start_team(e2e_proc_t *p, const e2e_server_t *s, const char *name)
{
    char port[16], cport[16];
    snprintf(port, sizeof port, "%d", s->port);
    snprintf(cport, sizeof cport, "%d", s->olcoach_port);
    const char *argv[] = { "rcss-demoteam", "--port", port, "--coach-port", cport,
                           "--team", name, NULL };
    cr_assert_eq(e2e_proc_start(p, argv), 0);
}

/* the team's last line: "rcss-demoteam NAME: time_over, score A-B, errors E, warnings W" */
static void team_result(e2e_proc_t *p, const char *name, int score[2])
{
    char want[64];
    int e = -1, w = -1;
    snprintf(want, sizeof want, "rcss-demoteam %s: ", name);
    cr_assert(e2e_proc_expect(p, want, line, sizeof line, 60000), "%s said nothing", name);
    cr_expect_eq(sscanf(strstr(line, ": ") + 2, "time_over, score %d-%d, errors %d, warnings %d",
                        &score[0], &score[1], &e, &w), 4, "%s", line);
    cr_expect(e == 0 && w == 0, "%s", line);
    cr_expect_eq(e2e_proc_wait(p, 20000), 0, "%s exit status", name);
}

/* one match; its game log into path, the left team's score (ours, theirs) into score */
static void play(e2e_logdir_t *d, int left_late_ms, int right_late_ms, char *path, size_t len,
                 int score[2])
{
    char half[64];
    snprintf(half, sizeof half, "server::half_time=%d", HALF_S);
    cr_assert_eq(e2e_logdir_make(d), 0);
    const char *args[] = { "server::synch_mode=true", "server::synch_timeout=20000",
                           "server::auto_mode=true", "server::random_seed=" SEED,
                           "server::reproducible=true", half,
                           "server::nr_extra_halfs=0", "server::penalty_shoot_outs=false",
                           "server::kick_off_wait=10", "server::game_over_wait=10",
                           "server::game_logging=true", d->game_arg, NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    usleep((useconds_t)left_late_ms * 1000);
    start_team(&team[0], &s, "DetLeft");
    cr_assert(e2e_proc_expect(&team[0], ": ready, side l", line, sizeof line, 30000), "%s", line);
    usleep((useconds_t)right_late_ms * 1000);
    start_team(&team[1], &s, "DetRight");
    cr_assert(e2e_proc_expect(&team[1], ": ready, side r", line, sizeof line, 30000), "%s", line);
    int right[2];
    team_result(&team[0], "DetLeft", score);
    team_result(&team[1], "DetRight", right);
    cr_expect(right[0] == score[1] && right[1] == score[0], "left saw %d-%d, right %d-%d",
              score[0], score[1], right[0], right[1]);
    cr_expect_eq(e2e_server_wait(&s, 30000, out, sizeof out), 0, "the server:\n%s", out);
    cr_assert_eq(e2e_logdir_find(d, ".rcg", path, len), 1, "one game log in %s", d->dir);
}

Test(demoteam, same_seed_same_match_whatever_the_join_timing, .timeout = 180)
{
    static e2e_logdir_t d[2];
    char path[2][512], why[1024];
    int score[2][2];
    play(&d[0], 0, 0, path[0], sizeof path[0], score[0]);
    play(&d[1], LEFT_LATE_MS, RIGHT_LATE_MS, path[1], sizeof path[1], score[1]);
    size_t len[2];
    char *g[2];
    for (int i = 0; i < 2; i++) {
        g[i] = e2e_rcg_play(path[i], &len[i]);
        cr_assert_not_null(g[i], "no show in %s", path[i]);
        int shows = 1; /* the text begins with one */
        for (const char *p = g[i]; (p = strstr(p, "\n(show ")); p++)
            shows++;
        cr_expect_geq(shows, 2 * HALF_S * 10 - 2, "%s: %d shows", path[i], shows);
    }
    cr_log_info("demo match twice: %d-%d and %d-%d", score[0][0], score[0][1], score[1][0],
                score[1][1]);
    cr_expect(score[0][0] == score[1][0] && score[0][1] == score[1][1],
              "the scores differ: %d-%d and %d-%d", score[0][0], score[0][1], score[1][0],
              score[1][1]);
    int same = e2e_text_same(g[0], len[0], g[1], len[1], why, sizeof why);
    cr_expect(same, "the game logs %s and %s part: %s", path[0], path[1], why);
    free(g[0]);
    free(g[1]);
    if (same) {
        e2e_logdir_remove(&d[0]);
        e2e_logdir_remove(&d[1]);
    } else {
        cr_log_info("kept %s and %s", d[0].dir, d[1].dir);
    }
}
