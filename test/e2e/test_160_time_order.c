/* test_160_time_order.c -- when things happen (docs/protocol/player.md §11,
 * docs/protocol/coach.md): a trainer's command takes effect when it arrives, before its
 * reply, so a (look) right after it shows it, and a player's kick sent right after a set-up
 * meets the ball where the trainer put it, in synch mode and in real time; a player's sees
 * keep their place relative to sense_body on the reference's timer grid (two offsets 50 ms
 * apart out of 0/50, 20/70, 30/80, 40/90 ms for a normal view), also when the whole server
 * is stopped for 60 ms five times: a late cycle is late as a whole. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "e2e.h"
#include "e2e_players.h"
#include "e2e_trainer.h"

static char buf[16384];

/* ---- a trainer's commands at once ---------------------------------------------------- */
/* n moves of the ball to new places, each followed at once by a (look) */
static void moves_then_looks(e2e_server_t *s, int n)
{
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, s, 19), 0);
    int stale = 0;
    for (int i = 0; i < n; i++) {
        double x = -40.0 + (double)((i * 37) % 80), y = -25.0 + (double)((i * 13) % 50);
        char cmd[96];
        snprintf(cmd, sizeof cmd, "(move (ball) %g %g)", x, y);
        e2e_send(t.fd, t.port, cmd);
        e2e_send(t.fd, t.port, "(look)");
        cr_assert_gt(e2e_recv_prefix(t.fd, "(ok look ", buf, sizeof buf, 2000, NULL), 0);
        e2e_world_t w;
        cr_assert_eq(e2e_parse_visual(buf, &w), 0, "%s", buf);
        stale += fabs(w.ball.x - x) > 1e-6 || fabs(w.ball.y - y) > 1e-6;
    }
    cr_expect_eq(stale, 0, "%d of %d looks showed the ball where it was", stale, n);
    e2e_trainer_close(&t);
}

Test(time_order, a_look_after_a_move_shows_it_real_time, .timeout = 60)
{
    const char *args[] = { "server::coach=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    moves_then_looks(&s, 200);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(time_order, a_look_after_a_move_shows_it_synch_mode, .timeout = 60)
{
    const char *args[] = { "server::coach=true", "server::synch_mode=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_pl_t p; /* a player the sim waits for: it stands between two steps meanwhile */
    cr_assert_eq(e2e_pl_connect(&p, &s, "(init TA (version 19))"), 0);
    cr_assert_gt(e2e_pl_wait(&p, "(think)", buf, sizeof buf, 3000), 0);
    moves_then_looks(&s, 200);
    e2e_pl_close(&p);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* The set-up, then the kick in the same cycle: the kick acts on the ball where the
 * trainer put it. Ball straight ahead 0.7 m from the kicker's centre (edge distance
 * 0.7 - 0.3 - 0.085 = 0.315 of the 0.7 kickable margin): the kick's acceleration is
 * 100 * 0.027 * (1 - 0.25 * 0.315 / 0.7) = 2.39625 m/s along x (docs/protocol/physics.md
 * §4, no noise), so one step later the ball is at x = 2.39625 moving at 2.39625 * 0.94. */
static void kick_after_setup(e2e_server_t *s, int synch)
{
    e2e_pl_t p;
    cr_assert_eq(e2e_pl_connect(&p, s, "(init TA (version 19))"), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, s, 19), 0);
    if (synch)
        cr_assert_gt(e2e_pl_wait(&p, "(think)", buf, sizeof buf, 3000), 0);
    else
        cr_assert_gt(e2e_pl_wait(&p, "(sense_body ", buf, sizeof buf, 3000), 0);
    cr_assert_eq(e2e_trainer_change_mode(&t, "play_on"), 0);
    cr_assert_eq(e2e_trainer_cmd(&t, "(move (player TA 1) -0.7 0 0 0 0)"), 0, "%s", t.last);
    cr_assert_eq(e2e_trainer_cmd(&t, "(move (ball) 0 0 0 0 0)"), 0, "%s", t.last);
    e2e_pl_send(&p, "(kick 100 0)");
    if (synch)
        e2e_pl_send(&p, "(done)");
    /* the sense_body of the step that took the kick (older ones may still be queued) */
    int kicks = 0;
    for (int n = 0; n < 4 && kicks == 0; n++) {
        cr_assert_gt(e2e_pl_wait(&p, "(sense_body ", buf, sizeof buf, 3000), 0);
        const char *k = strstr(buf, "(kick ");
        cr_assert(k && sscanf(k, "(kick %d)", &kicks) == 1, "%s", buf);
    }
    cr_expect_eq(kicks, 1, "the kick was taken: %s", buf);
    e2e_world_t w;
    cr_assert_eq(e2e_trainer_look(&t, &w), 0);
    cr_expect(fabs(w.ball.x - 2.39625) < 1e-4, "ball x %.6f", w.ball.x);
    cr_expect(fabs(w.ball.y) < 1e-4, "ball y %.6f", w.ball.y);
    cr_expect(fabs(w.ball.vx - 2.39625 * 0.94) < 1e-4, "ball vx %.6f", w.ball.vx);
    e2e_trainer_close(&t);
    e2e_pl_close(&p);
}

static const char *const kick_args[] = { "server::coach=true", "server::player_rand=0",
                                         "server::ball_rand=0", "server::kick_rand=0", NULL };

Test(time_order, a_kick_right_after_a_setup_meets_the_ball_real_time, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, kick_args), 0);
    kick_after_setup(&s, 0);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(time_order, a_kick_right_after_a_setup_meets_the_ball_synch_mode, .timeout = 60)
{
    const char *args[8];
    int n = 0;
    for (; kick_args[n]; n++)
        args[n] = kick_args[n];
    args[n++] = "server::synch_mode=true";
    args[n] = NULL;
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    kick_after_setup(&s, 1);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* ---- the sensors' grid ------------------------------------------------------------------ */
/* every process of the server: the sim and its children */
/* the children of pid (from /proc) appended to out[*n..max) */
static void children_of(pid_t pid, pid_t *out, int *n, int max)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    int c;
    while (*n < max && fscanf(f, "%d", &c) == 1)
        out[(*n)++] = (pid_t)c;
    fclose(f);
}

/* the whole server: the process started (the supervisor), the sim, its gateways */
static int server_pids(const e2e_server_t *s, pid_t *out, int max)
{
    int n = 0;
    out[n++] = s->pid;
    children_of(s->pid, out, &n, max);
    for (int i = 1, top = n; i < top; i++)
        children_of(out[i], out, &n, max);
    return n;
}

static void stop_all(const pid_t *pids, int n, int sig)
{
    for (int i = 0; i < n; i++)
        kill(pids[i], sig);
}

typedef struct phase {
    double sb_ms;                  /* arrival of the last sense_body */
    int    nsee;
    double off[400];               /* each see's offset from the sense_body before it */
    double at[400];                /* and its arrival */
    int    stalled[400];           /* within 300 ms of a stall */
    double stall_ms[8];
    int    nstall;
} phase_t;

static void phase_read(e2e_pl_t *p, phase_t *ph, double until_ms)
{
    while (e2e_now_ms() < until_ms) {
        int n = e2e_pl_recv(p, buf, sizeof buf, 5);
        if (n <= 0)
            continue;
        double now = e2e_now_ms();
        if (strncmp(buf, "(sense_body ", 12) == 0) {
            ph->sb_ms = now;
        } else if (strncmp(buf, "(see ", 5) == 0 && ph->sb_ms > 0 && ph->nsee < 400) {
            int near = 0;
            for (int k = 0; k < ph->nstall; k++)
                near |= fabs(now - ph->stall_ms[k]) < 300.0;
            ph->stalled[ph->nsee] = near;
            ph->at[ph->nsee] = now;
            ph->off[ph->nsee++] = now - ph->sb_ms;
        }
        e2e_pl_clear(p);
    }
}

/* The share of sees within 7 ms of the grid's offsets for this player: the pair of the
 * four that most of its sees are near. */
static double phase_in_place(const phase_t *ph, int only_stalled, int *pair_out)
{
    static const double pairs[4][2] = { { 0, 50 }, { 20, 70 }, { 30, 80 }, { 40, 90 } };
    int best = 0, best_n = -1;
    for (int k = 0; k < 4; k++) {
        int n = 0;
        for (int i = 0; i < ph->nsee; i++)
            n += fabs(ph->off[i] - pairs[k][0]) < 7.0 || fabs(ph->off[i] - pairs[k][1]) < 7.0;
        if (n > best_n) {
            best_n = n;
            best = k;
        }
    }
    int in = 0, all = 0;
    for (int i = 0; i < ph->nsee; i++) {
        if (only_stalled && !ph->stalled[i])
            continue;
        all++;
        in += fabs(ph->off[i] - pairs[best][0]) < 7.0 || fabs(ph->off[i] - pairs[best][1]) < 7.0;
    }
    *pair_out = best;
    return all ? (double)in / all : 1.0;
}

Test(time_order, sees_keep_their_place_when_the_server_stalls, .timeout = 60)
{
    const char *args[] = { NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_pl_t p;
    cr_assert_eq(e2e_pl_connect(&p, &s, "(init TA (version 12))"), 0);
    static phase_t ph;
    memset(&ph, 0, sizeof ph);
    double t0 = e2e_now_ms();
    phase_read(&p, &ph, t0 + 2000);
    pid_t pids[32];
    int npids = server_pids(&s, pids, 32);
    cr_assert_geq(npids, 3, "the sim and its gateways");
    /* five 60 ms stalls, 1.3 s apart, by a child, so that the sees keep being read (and
     * timed) meanwhile; the child tells when each began */
    double *when = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(when, MAP_FAILED);
    pid_t child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) {
        for (int k = 0; k < 5; k++) {
            struct timespec gap = { 1, 300000000L }, stall = { 0, 60000000L };
            nanosleep(&gap, NULL);
            when[k] = e2e_now_ms();
            stop_all(pids, npids, SIGSTOP);
            nanosleep(&stall, NULL);
            stop_all(pids, npids, SIGCONT);
        }
        _exit(0);
    }
    phase_read(&p, &ph, e2e_now_ms() + 5 * 1360 + 2000);
    int st = 0;
    cr_assert_eq(waitpid(child, &st, 0), child);
    /* which sees came near a stall, now that the times are known */
    ph.nstall = 5;
    for (int k = 0; k < 5; k++)
        ph.stall_ms[k] = when[k];
    for (int i = 0; i < ph.nsee; i++) {
        ph.stalled[i] = 0;
        /* the 300 ms after a stall; a see whose tick fell while the server stood still
         * goes out when it runs again, late (the reference's too): those, in the first
         * 10 ms after the stall, are counted with the whole run */
        for (int k = 0; k < 5; k++)
            ph.stalled[i] |= ph.at[i] >= when[k] + 70.0 && ph.at[i] < when[k] + 370.0;
    }
    munmap(when, 4096);
    cr_assert_gt(ph.nsee, 55, "sees: %d (one per 150 ms)", ph.nsee);
    int pair = 0, pair2 = 0;
    double all = phase_in_place(&ph, 0, &pair), stalled = phase_in_place(&ph, 1, &pair2);
    cr_expect_geq(all, 0.95, "%.0f %% of the sees on the grid (pair %d)", all * 100, pair);
    char offs[2048] = "";
    for (int i = 0, n = 0; i < ph.nsee && n < (int)sizeof offs - 16; i++) {
        if (ph.stalled[i])
            n += snprintf(offs + n, sizeof offs - (size_t)n, " %.0f(%.0f)", ph.off[i],
                          ph.at[i] - ph.stall_ms[0]);
    }
    cr_expect_geq(stalled, 0.9, "%.0f %% of the sees right after the stalls on the grid:%s",
                  stalled * 100, offs);
    /* the offsets after the last stall are those before the first */
    int before = 0, after = 0;
    for (int i = 0; i < 10; i++)
        before += ph.off[i] > 25.0;
    for (int i = ph.nsee - 10; i < ph.nsee; i++)
        after += ph.off[i] > 25.0;
    cr_expect(abs(before - after) <= 2, "late sees before %d, after %d", before, after);
    e2e_pl_close(&p);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* A narrow view sees every other tick, a wide one every eighth, a narrow low one (v12)
 * every tick: their offsets from sense_body come from the same grid (ticks at 0 40 80 |
 * 20 50 90 | 30 70 ms after the three steps of 300 ms). */
Test(time_order, every_view_width_sees_on_the_grid, .timeout = 60)
{
    const char *args[] = { NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    static const char *const views[] = { "(change_view narrow high)", "(change_view wide high)",
                                         "(change_view narrow low)" };
    static const double grid[] = { 0, 20, 30, 40, 50, 70, 80, 90 };
    for (int v = 0; v < 3; v++) {
        e2e_pl_t p;
        char init[64];
        snprintf(init, sizeof init, "(init TA (version %d))", v == 2 ? 12 : 19);
        cr_assert_eq(e2e_pl_connect(&p, &s, init), 0);
        e2e_pl_send(&p, views[v]);
        static phase_t ph;
        memset(&ph, 0, sizeof ph);
        phase_read(&p, &ph, e2e_now_ms() + 2500);
        int off_grid = 0;
        for (int i = 2; i < ph.nsee; i++) { /* the first after the change may be old */
            int near = 0;
            for (int k = 0; k < 8; k++)
                near |= fabs(ph.off[i] - grid[k]) < 7.0;
            off_grid += !near;
        }
        cr_expect_leq(off_grid, 1, "%s: %d of %d sees off the grid", views[v], off_grid,
                      ph.nsee);
        cr_expect_gt(ph.nsee, v == 1 ? 5 : 20, "%s: %d sees", views[v], ph.nsee);
        e2e_pl_close(&p);
    }
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* server::sense_body_step = 200: sense_body on every other step's poll (the timer's
 * sense_body counter), the sees still every 150 ms */
Test(time_order, sense_body_step_sets_the_sense_body_interval, .timeout = 60)
{
    const char *args[] = { "server::sense_body_step=200", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_pl_t p;
    cr_assert_eq(e2e_pl_connect(&p, &s, "(init TA (version 12))"), 0);
    double last = 0, gap_min = 1e9, gap_max = 0;
    int nsb = 0, nsee = 0;
    double end = e2e_now_ms() + 2200;
    while (e2e_now_ms() < end) {
        if (e2e_pl_recv(&p, buf, sizeof buf, 5) <= 0)
            continue;
        double now = e2e_now_ms();
        if (strncmp(buf, "(sense_body ", 12) == 0) {
            if (last > 0) {
                gap_min = fmin(gap_min, now - last);
                gap_max = fmax(gap_max, now - last);
            }
            last = now;
            nsb++;
        }
        nsee += strncmp(buf, "(see ", 5) == 0;
        e2e_pl_clear(&p);
    }
    cr_expect(nsb >= 9 && nsb <= 12, "%d sense_bodies in 2.2 s", nsb);
    cr_expect(gap_min > 180 && gap_max < 220, "gaps %.1f .. %.1f ms", gap_min, gap_max);
    cr_expect_geq(nsee, 12, "%d sees", nsee);
    e2e_pl_close(&p);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
