/* test_126_reset.c -- the trainer's (reset) (issue 13): the match back to its start
 * without restarting any process. In synch mode with the noise on (player_rand,
 * ball_rand, kick_rand), a first episode makes a mess (a goal, a yellow card, noisy
 * dashes and kicks); then 100 resets in a row, each followed by the same scripted
 * episode (the players move, play_on, noisy dashes, turns and a kick). Every start
 * must be the start (time 0, score 0-0, before_kick_off, ball on the centre spot, the
 * players where joining players stand: x = -3 * unum * side, y = -37, full stamina)
 * and identical to the others, and every episode must end in the identical world (the
 * seed is back too, so the same commands give the same noise). With the logs on, each
 * episode gets its own pair of files (named apart: "rN-"), and result.json names the
 * last episode's. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_logs.h"
#include "e2e_ref.h"
#include "playmode.h"
#include "shm.h"

#define RESETS 100
#define EPISODE_CYCLES 6

static const char *const noisy[] = { "server::player_rand=0.1", "server::ball_rand=0.05",
                                     "server::kick_rand=0.1", NULL };

/* the newest snapshot of the server's region */
static void snapshot(const e2e_ref_t *m, shm_snapshot_sh_t *s)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    cr_assert_eq(shm_region_attach(&h, m->s.shm_name, err, sizeof err), 0, "%s", err);
    cr_assert_gt(shm_snap_read_latest(h.r, s), 0);
    shm_region_detach(&h);
}

/* (reset), then the start as the trainer and the players see it */
static void reset(e2e_ref_t *m, int a, int b, char *see, char *body, size_t len)
{
    e2e_ref_trainer(m, "(reset)");
    cr_assert_eq(e2e_ref_cycle(m), 0);
    cr_assert_eq(m->errors, 0);
    cr_expect_eq(m->time, 0);
    cr_expect_eq(m->pm, PM_BEFORE_KICK_OFF, "the referee says before_kick_off again");
    cr_expect(m->w.ball.x == 0.0 && m->w.ball.y == 0.0 && m->w.ball.vx == 0.0);
    e2e_obj_t *pa = e2e_ref_obj(m, a), *pb = e2e_ref_obj(m, b);
    cr_assert(pa && pb);
    /* joining players' spot: left 1 at (-3, -37), right 1 at (3, -37) in the left
     * team's coordinates of see_global */
    cr_expect(pa->x == -3.0 && pa->y == -37.0 && pb->x == 3.0 && pb->y == -37.0,
              "%g %g / %g %g", pa->x, pa->y, pb->x, pb->y);
    cr_expect(strstr(m->pl[a].body, "(stamina 8000 1 130600)"), "%s", m->pl[a].body);
    snprintf(see, len, "%s", m->see);
    snprintf(body, len, "%s|%s", m->pl[a].body, m->pl[b].body);
}

/* the scripted episode: lined up, play_on, noisy actions */
static void episode(e2e_ref_t *m, int a, int b, char *see, char *body, size_t len)
{
    e2e_ref_say(m, a, "(move -0.5 0.3)");
    e2e_ref_say(m, b, "(move -6 4)");
    cr_assert_eq(e2e_ref_cycle(m), 0);
    e2e_ref_trainer(m, "(change_mode play_on)");
    cr_assert_eq(e2e_ref_cycle(m), 0);
    static const char *const ca[EPISODE_CYCLES] = { "(kick 60 10)", "(dash 100)", "(turn 40)",
                                                    "(dash 80 30)", "(dash 100)", "(turn -20)" };
    static const char *const cb[EPISODE_CYCLES] = { "(dash 100)", "(turn 90)", "(dash 60)",
                                                    "(dash 100 -45)", "(turn_neck 30)", "(dash 100)" };
    for (int k = 0; k < EPISODE_CYCLES; k++) {
        e2e_ref_say(m, a, ca[k]);
        e2e_ref_say(m, b, cb[k]);
        cr_assert_eq(e2e_ref_cycle(m), 0);
    }
    cr_expect_eq(m->pm, PM_PLAY_ON);
    snprintf(see, len, "%s", m->see);
    snprintf(body, len, "%s|%s", m->pl[a].body, m->pl[b].body);
}

/* the first episode: a goal for A and a card, so the reset has something to undo */
static void mess(e2e_ref_t *m, int a, int b)
{
    e2e_ref_trainer(m, "(change_mode play_on)");
    e2e_ref_place(m, a, 45.0, 10.0, 0.0);
    e2e_ref_place(m, b, -10.0, 3.0, 180.0);
    e2e_ref_ball(m, 51.0, -3.0, 2.0, 0.0);
    cr_assert_gt(e2e_ref_until(m, PM_GOAL_L, 5), 0, "%s", m->log);
    e2e_ref_say(m, b, "(dash 100)");
    cr_assert_eq(e2e_ref_cycles(m, 3), 0);
    shm_snapshot_sh_t s;
    snapshot(m, &s);
    cr_expect_eq(s.score[0], 1);
    cr_expect_gt(s.time, 0);
}

static char see0[16384], body0[16384], end0[16384], endb0[16384];
static char see[16384], body[16384], endv[16384], endb[16384];

Test(runner_reset, hundred_resets_identical_starts, .timeout = 600)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, noisy), 0);
    int a = e2e_ref_connect(&m, "A", 0), b = e2e_ref_connect(&m, "B", 0);
    cr_assert(a >= 0 && b >= 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    mess(&m, a, b);
    for (int r = 1; r <= RESETS; r++) {
        int first = r == 1;
        reset(&m, a, b, first ? see0 : see, first ? body0 : body, sizeof see);
        shm_snapshot_sh_t s;
        snapshot(&m, &s);
        cr_assert_eq(s.episode, (uint32_t)r);
        cr_assert(s.score[0] == 0 && s.score[1] == 0 && s.time == 0
                  && s.play_mode == PM_BEFORE_KICK_OFF, "reset %d: %d-%d at %d", r,
                  s.score[0], s.score[1], s.time);
        episode(&m, a, b, first ? end0 : endv, first ? endb0 : endb, sizeof see);
        if (!first) {
            cr_assert_str_eq(see, see0, "start of episode %d", r);
            cr_assert_str_eq(body, body0, "start of episode %d (players)", r);
            cr_assert_str_eq(endv, end0, "end of episode %d", r);
            cr_assert_str_eq(endb, endb0, "end of episode %d (players)", r);
        }
    }
    /* the noise was on: the episode moved things by noisy amounts (not the noise-free
     * numbers); the first player kicked the ball away from the centre */
    cr_expect(strcmp(see0, end0) != 0);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

/* final names in dir ending with suffix, into names (newline-separated); the count */
static int list(const char *dir, const char *suffix, char *names, size_t len)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    names[0] = '\0';
    size_t sl = strlen(suffix);
    while (d && (e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l > sl && strcmp(e->d_name + l - sl, suffix) == 0) {
            n++;
            strncat(names, e->d_name, len - strlen(names) - 2);
            strcat(names, "\n");
        }
    }
    if (d)
        closedir(d);
    return n;
}

Test(runner_reset, each_episode_its_own_logs, .timeout = 120)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    const char *args[] = { "server::game_logging=true", "server::text_logging=true",
                           d.game_arg, d.text_arg, "server::result_file=result.json", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int a = e2e_ref_connect(&m, "A", 0), b = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    mess(&m, a, b);
    for (int r = 1; r <= 3; r++) {
        reset(&m, a, b, see, body, sizeof see);
        episode(&m, a, b, endv, endb, sizeof see);
    }
    cr_assert_eq(e2e_ref_stop(&m), 0);
    char names[4096], path[1024];
    cr_expect_eq(list(d.dir, ".rcg", names, sizeof names), 4, "%s", names);
    cr_expect_eq(list(d.dir, ".rcl", names + 2048, sizeof names - 2048), 4, "%s", names + 2048);
    /* episode 0 has the goal; each later one is named apart ("rN-") and 0-0 */
    cr_expect(strstr(names, "-A_1-vs-B_0.rcg\n"), "%s", names);
    for (int r = 1; r <= 3; r++) {
        char want[64];
        snprintf(want, sizeof want, "-r%d-A_0-vs-B_0.rcg\n", r);
        cr_expect(strstr(names, want), "%s in %s", want, names);
    }
    cr_expect_null(strstr(names, "incomplete"), "%s", names);
    /* every file a finished game log of its own episode, with no message of this server's */
    for (char *save = NULL, *n = strtok_r(names, "\n", &save); n; n = strtok_r(NULL, "\n", &save)) {
        if (!strstr(n, ".rcg"))
            continue;
        snprintf(path, sizeof path, "%s/%s", d.dir, n);
        size_t len;
        char *t = e2e_read_file(path, &len);
        cr_assert_not_null(t);
        cr_expect(strncmp(t, "ULG6", 4) == 0, "%s", n);
        cr_expect_null(strstr(t, "(rcssserver-shm "), "%s", n);
        cr_expect(strstr(t, "(result "), "%s finished", n);
        free(t);
    }
    snprintf(path, sizeof path, "%s/result.json", d.dir);
    json_error_t err;
    json_t *r = json_load_file(path, 0, &err);
    cr_assert_not_null(r, "%s", err.text);
    const char *game = json_string_value(json_object_get(json_object_get(r, "logs"), "game"));
    cr_expect(game && strstr(game, "-r3-A_0-vs-B_0.rcg"), "%s", game ? game : "null");
    cr_expect_eq(json_integer_value(json_object_get(r, "episode")), 3);
    json_decref(r);
    e2e_logdir_remove(&d);
}

/* an operator monitor's (dispreset) does what the trainer's (reset) does */
Test(runner_reset, operator_monitor_reset, .timeout = 60)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, NULL), 0);
    int a = e2e_ref_connect(&m, "A", 0), b = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    mess(&m, a, b);
    int mon = e2e_udp_open(), mport = 0;
    char buf[8192];
    e2e_send(mon, m.s.port, "(dispinit version 3)");
    cr_assert_gt(e2e_recv(mon, buf, sizeof buf, 2000, &mport), 0);
    e2e_send(mon, mport, "(dispreset)");
    shm_snapshot_sh_t s;
    int k = 0;
    do { /* monitorgw hands it over when it reads it: a few cycles later */
        usleep(2000);
        cr_assert_eq(e2e_ref_cycle(&m), 0);
        snapshot(&m, &s);
    } while (s.episode == 0 && ++k < 1000);
    cr_expect_eq(s.episode, 1u);
    cr_expect(s.time == 0 && s.score[0] == 0 && s.play_mode == PM_BEFORE_KICK_OFF);
    close(mon);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}
