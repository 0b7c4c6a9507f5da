/* test_140_interop.c -- what real clients (helios-base/librcsc) rely on, found when
 * running them against the merged server: commands a synch-mode player sends after its
 * (done) in the same datagram belong to the cycle of that (done). librcsc writes
 * "(turn ..)(turn_neck ..)(done)(say ..)" in one datagram; the reference reads a whole
 * datagram before it steps, so the say is counted in the next sense_body. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "e2e_players.h"
#include "e2e_trainer.h"

static char buf[E2E_PL_MSG];

/* the number after "(NAME " in a sense_body, -1 if absent */
static long sense_count(const char *sb, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "(%s ", name);
    const char *p = strstr(sb, key);
    return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

#define VIEWS_PER_CYCLE 30
#define SENSE_PER_CYCLE 80
#define CYCLES          40

/* One player sends, every cycle, one datagram: a turn, (done), 30 change_views, 80
 * (sense_body) requests and a say. Each change_view and each say is counted (see
 * docs/protocol/player.md §10: the sense_body counters), so the sense_body after k such
 * cycles shows change_view 30k and say k: no command after a (done) may slip into the step
 * after. The 80 requests (each answered at once with a sense_body) keep the gateway busy
 * after the (done) long enough for a sim that steps on the (done) alone to step before the
 * say. A second player answers its (think)s at once. The trainer puts the game in play_on
 * (while the time is 0 each synch-mode cycle lasts 50 ms, which would hide the race). */
Test(interop, commands_after_done_count_in_its_cycle, .timeout = 120)
{
    e2e_server_t s;
    const char *args[] = { "server::synch_mode=true", "server::coach_w_referee=true",
                           "server::synch_timeout=20000", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_pl_t p[2];
    e2e_trainer_t t;
    cr_assert_eq(e2e_pl_connect(&p[0], &s, "(init Burst (version 19))"), 0);
    cr_assert_eq(e2e_pl_connect(&p[1], &s, "(init Quick (version 19))"), 0);
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_assert_eq(e2e_trainer_change_mode(&t, "play_on"), 0);
    e2e_pl_run(p, 2, 3, 5000, NULL, NULL);
    char dgram[4096];
    int len = snprintf(dgram, sizeof dgram, "(turn 1)(done)");
    for (int i = 0; i < VIEWS_PER_CYCLE; i++)
        len += snprintf(dgram + len, sizeof dgram - (size_t)len, "(change_view normal)");
    for (int i = 0; i < SENSE_PER_CYCLE; i++)
        len += snprintf(dgram + len, sizeof dgram - (size_t)len, "(sense_body)");
    snprintf(dgram + len, sizeof dgram - (size_t)len, "(say \"k\")");

    cr_assert_gt(e2e_pl_wait(&p[0], "(think)", buf, sizeof buf, 5000), 0);
    long views0 = -1, says0 = -1;
    for (int k = 0; k <= CYCLES; k++) {
        cr_assert_gt(e2e_pl_wait(&p[1], "(think)", buf, sizeof buf, 5000), 0);
        e2e_pl_send(&p[1], "(done)");
        if (k > 0) {
            /* the sense_body of this cycle came before the (think) just read */
            int at = p[0].n - 1;
            while (at >= 0 && strncmp(p[0].msg[at], "(sense_body ", 12) != 0)
                at--;
            cr_assert_geq(at, 0, "no sense_body at cycle %d", k);
            long views = sense_count(p[0].msg[at], "change_view");
            long says = sense_count(p[0].msg[at], "say");
            if (views0 < 0) {
                views0 = views - VIEWS_PER_CYCLE;
                says0 = says - 1;
            }
            cr_assert_eq(views, views0 + (long)VIEWS_PER_CYCLE * k, "cycle %d: %s", k,
                         p[0].msg[at]);
            cr_assert_eq(says, says0 + k, "cycle %d: %s", k, p[0].msg[at]);
        }
        if (k == CYCLES)
            break;
        e2e_pl_clear(&p[0]);
        e2e_pl_send(&p[0], dgram);
        cr_assert_gt(e2e_pl_wait(&p[0], "(think)", buf, sizeof buf, 5000), 0, "cycle %d", k);
    }
    cr_assert_eq(views0, 0);
    cr_assert_eq(says0, 0);
    e2e_trainer_close(&t);
    e2e_pl_close(&p[0]);
    e2e_pl_close(&p[1]);
    cr_assert_eq(e2e_server_stop(&s), 0);
}

/* A busy cycle loses no referee message: a trainer changes the play mode 24 times while
 * the (synch-mode) server waits for the one player's (done); the referee announces every
 * mode (docs/protocol/referee.md: every change but goal_l/goal_r is said) when the command
 * arrives, so the player hears 24 referee messages, in the order of the commands,
 * before its next (think), and so does the trainer with its ear on, each before the
 * reply to its command. */
Test(interop, busy_cycle_keeps_every_referee_message, .timeout = 120)
{
    static const char *const modes[] = { "kick_in_l", "kick_in_r", "corner_kick_l",
                                         "corner_kick_r", "free_kick_l", "free_kick_r",
                                         "goal_kick_l", "goal_kick_r" };
    enum { N = 24 };
    e2e_server_t s;
    const char *args[] = { "server::synch_mode=true", "server::coach=true",
                           "server::synch_timeout=20000", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_pl_t p;
    e2e_trainer_t t;
    cr_assert_eq(e2e_pl_connect(&p, &s, "(init Busy (version 19))"), 0);
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_assert_eq(e2e_trainer_cmd(&t, "(ear on)"), 0);
    cr_assert_gt(e2e_pl_wait(&p, "(think)", buf, sizeof buf, 5000), 0);
    /* each change is made (and said) when it arrives, then answered: the trainer hears
     * the referee before its (ok change_mode) */
    for (int i = 0; i < N; i++) {
        char cmd[64], want[64];
        snprintf(cmd, sizeof cmd, "(change_mode %s)", modes[i % 8]);
        e2e_send(t.fd, t.port, cmd);
        snprintf(want, sizeof want, "(hear referee 0 %s)", modes[i % 8]);
        cr_assert_gt(e2e_recv_prefix(t.fd, "(", buf, sizeof buf, 2000, NULL), 0);
        cr_expect_str_eq(buf, want, "trainer: message %d", i);
        cr_assert_gt(e2e_recv_prefix(t.fd, "(", buf, sizeof buf, 2000, NULL), 0);
        cr_expect_str_eq(buf, "(ok change_mode)");
    }
    e2e_pl_send(&p, "(done)");
    cr_assert_gt(e2e_pl_wait(&p, "(think)", buf, sizeof buf, 5000), 0);
    int k = 0;
    for (int i = 0; i < p.n; i++) {
        char want[64];
        if (strncmp(p.msg[i], "(hear 0 referee ", 16) != 0)
            continue;
        cr_assert_lt(k, N, "more referee messages than changes: %s", p.msg[i]);
        snprintf(want, sizeof want, "(hear 0 referee %s)", modes[k % 8]);
        cr_expect_str_eq(p.msg[i], want, "message %d", k);
        k++;
    }
    cr_expect_eq(k, N, "the player heard %d of %d", k, N);
    e2e_trainer_close(&t);
    e2e_pl_close(&p);
    cr_assert_eq(e2e_server_stop(&s), 0);
}

/* player::random_seed -1 (the default): the types come from the simulator's seed, and
 * player_param shows that seed as random_seed, as the reference does (checked against
 * rcssserver 19: "(random_seed N)" with N its "Simulator Random Seed"); a given
 * player::random_seed is shown as given */
Test(interop, player_param_shows_the_seed_used, .timeout = 60)
{
    static const char *const runs[][3] = {
        { "server::random_seed=4242", "player::random_seed=-1", "(random_seed 4242)" },
        { "server::random_seed=4242", "player::random_seed=17", "(random_seed 17)" },
    };
    for (int r = 0; r < 2; r++) {
        e2e_server_t s;
        const char *args[] = { runs[r][0], runs[r][1], NULL };
        cr_assert_eq(e2e_server_start(&s, args), 0);
        e2e_pl_t p;
        cr_assert_eq(e2e_pl_connect(&p, &s, "(init Seed (version 19))"), 0);
        cr_assert_gt(e2e_pl_wait(&p, "(player_param ", buf, sizeof buf, 2000), 0);
        cr_expect(strstr(buf, runs[r][2]) != NULL, "%s: %.200s", runs[r][1], buf);
        e2e_pl_close(&p);
        cr_assert_eq(e2e_server_stop(&s), 0);
    }
}
