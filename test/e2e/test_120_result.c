/* test_120_result.c -- result.json after a scripted match (issue 13): an auto-mode match
 * in synch mode between two one-player teams, a goal for the left team set up by the
 * trainer, two halves of 30 cycles, game over. The server exits with 0 and leaves
 * result.json next to the logs, complete (written through a temporary file): teams,
 * score, winner, cycles, seed, the logs' final names (the files the recorder renamed),
 * every client's connections and misses, and why it stopped. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

#include "e2e_logs.h"
#include "e2e_ref.h"
#include "playmode.h"

static char out[65536];

static const char *jstr(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static json_int_t jint(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* a file in dir whose name contains part and nothing named *.tmp.* */
static int dir_has(const char *dir, const char *part, int *tmp_files)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    *tmp_files = 0;
    while (d && (e = readdir(d)) != NULL) {
        n += strstr(e->d_name, part) != NULL;
        *tmp_files += strstr(e->d_name, ".tmp.") != NULL;
    }
    if (d)
        closedir(d);
    return n;
}

Test(runner_result, scripted_match, .timeout = 120)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    const char *args[] = { "server::auto_mode=true", "server::half_time=3",
                           "server::kick_off_wait=2", "server::connect_wait=5",
                           "server::game_over_wait=3", "server::nr_extra_halfs=0",
                           "server::penalty_shoot_outs=false", "server::game_logging=true",
                           "server::text_logging=true", d.game_arg, d.text_arg,
                           "server::result_file=result.json", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int a1 = e2e_ref_connect(&m, "A", 0);
    int b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert(a1 >= 0 && b1 >= 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    /* connect_wait runs out (2 of 22 players): the referee kicks off */
    cr_assert_gt(e2e_ref_until(&m, PM_KICK_OFF_L, 20), 0, "%s", m.log);
    /* the trainer sets up a goal: the ball 2 m/cycle towards the right goal from 50 m
     * (ball_rand 0), in after two steps (test_031) */
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, 45.0, 10.0, 0.0);
    e2e_ref_place(&m, b1, -10.0, 3.0, 180.0);
    e2e_ref_ball(&m, 50.0, -3.0, 2.0, 0.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    cr_assert_gt(e2e_ref_until(&m, PM_GOAL_L, 5), 0, "%s", m.log);
    /* two halves of 3 s = 30 cycles each: time_over at 60 */
    cr_assert_gt(e2e_ref_until(&m, PM_TIME_OVER, 400), 0, "%s", m.log);
    int st = e2e_ref_finish(&m, 20000, out, sizeof out);
    cr_expect_eq(st, 0, "exit status: %s", out);
    const char *seed_line = strstr(out, "Simulator Random Seed: ");
    cr_assert(seed_line);
    long long seed = atoll(seed_line + 23);

    char path[512];
    snprintf(path, sizeof path, "%s/result.json", d.dir);
    json_error_t err;
    json_t *r = json_load_file(path, 0, &err);
    cr_assert_not_null(r, "%s: %s", path, err.text);
    cr_expect_str_eq(jstr(r, "exit_reason"), "game_over");
    cr_expect_eq(jint(r, "exit_code"), 0);
    json_t *teams = json_object_get(r, "teams");
    cr_assert_eq(json_array_size(teams), 2);
    cr_expect_str_eq(jstr(json_array_get(teams, 0), "name"), "A");
    cr_expect_str_eq(jstr(json_array_get(teams, 1), "name"), "B");
    cr_expect_str_eq(jstr(json_array_get(teams, 0), "side"), "l");
    cr_expect_eq(jint(json_array_get(teams, 0), "score"), 1);
    cr_expect_eq(jint(json_array_get(teams, 1), "score"), 0);
    json_t *score = json_object_get(r, "score");
    cr_expect(json_integer_value(json_array_get(score, 0)) == 1
              && json_integer_value(json_array_get(score, 1)) == 0);
    cr_expect_str_eq(jstr(r, "winner"), "l");
    cr_expect(json_is_null(json_object_get(r, "coin_toss")));
    cr_expect(json_is_null(json_object_get(r, "forfeit")));
    cr_expect_str_eq(jstr(r, "play_mode"), "time_over");
    cr_expect_eq(jint(r, "time"), 60, "two halves of 30 cycles");
    /* the goal wait (50 steps, clock frozen) and game_over_wait are steps, not time */
    cr_expect_gt(jint(r, "steps"), 60 + 50);
    cr_expect_eq(jint(r, "seed"), seed, "the seed the server printed");
    cr_expect_eq(jint(r, "episode"), 0);

    /* the logs under their final names, as the recorder renamed them */
    json_t *logs = json_object_get(r, "logs");
    const char *game = jstr(logs, "game"), *text = jstr(logs, "text");
    cr_assert(game && text, "log names in result.json");
    cr_expect(strstr(game, "-A_1-vs-B_0.rcg") && strncmp(game, d.dir, strlen(d.dir)) == 0,
              "%s", game);
    cr_expect(strstr(text, "-A_1-vs-B_0.rcl"), "%s", text);
    size_t len;
    char *rcg = e2e_read_file(game, &len);
    cr_assert_not_null(rcg, "%s exists", game);
    cr_expect(strstr(rcg, "(result "), "the game log is finished");
    free(rcg);
    char found[512];
    cr_expect_eq(e2e_logdir_find(&d, ".rcg", found, sizeof found), 1);
    cr_expect_str_eq(found, game);
    int tmp;
    cr_expect_eq(dir_has(d.dir, "incomplete", &tmp), 0, "no running names left");
    cr_expect_eq(tmp, 0, "no temporary file left");

    /* the clients: two players and the trainer, each connected once, never late */
    json_t *cl = json_object_get(r, "clients");
    cr_assert_eq(json_array_size(cl), 3, "%s", json_dumps(cl, 0));
    int players = 0, trainers = 0;
    for (size_t i = 0; i < json_array_size(cl); i++) {
        json_t *c = json_array_get(cl, i);
        cr_expect_eq(jint(c, "connections"), 1);
        cr_expect_eq(jint(c, "misses"), 0);
        if (strcmp(jstr(c, "client"), "player") == 0) {
            players++;
            cr_expect_eq(jint(c, "unum"), 1);
            cr_expect_str_eq(jstr(c, "team"), strcmp(jstr(c, "side"), "l") == 0 ? "A" : "B");
        } else {
            trainers += strcmp(jstr(c, "client"), "trainer") == 0;
        }
    }
    cr_expect_eq(players, 2);
    cr_expect_eq(trainers, 1);
    json_decref(r);
    e2e_ref_stop(&m);
    e2e_logdir_remove(&d);
}
