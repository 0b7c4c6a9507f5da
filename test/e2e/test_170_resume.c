/* test_170_resume.c -- a killed sim is replaced and the match goes on as if nothing had
 * happened. Whole matches (server::auto_mode, two halves of HALF_TIME s, no extra time,
 * no shoot-out) in synch mode with the same server::random_seed, game and text logs on,
 * noise on (the defaults), each played by 22 v19 players and a trainer in lock step
 * (e2e_lockstep.h): at every think each player sends at most one command computed only
 * from its side, its number, its own generator and the trainer's see_global of that cycle
 * (move to a formation at a kick-off, chase the ball in pairs, kick it at the other goal,
 * otherwise keep a place that follows the ball), then (done). Same seed and same command
 * stream: the same match; server::reproducible, so that how many steps the joins take
 * before the kick-off (more on a loaded machine) and the order in which the players'
 * datagrams reach the gateway within a cycle leave no trace.
 *
 *  - resume/two_runs_same_rcg: two uninterrupted matches write the same game log (the
 *    ground the next test stands on, on its own to tell a match that is not
 *    reproducible from a bad resume).
 *  - resume/ten_kills_same_rcg: match A uninterrupted; match B the same, but the sim
 *    (hdr.sim_pid of the region; never the server process the harness started, which
 *    supervises it) is killed ten times at spread-out cycles, by SIGKILL, SIGSEGV and
 *    one SIGABRT, while it waits for the (done)s or just after they went out. After each
 *    kill a new sim (another hdr.sim_pid) takes the match on from the last published
 *    cycle: for the WATCH thinks after the kill every player gets its sense_body within
 *    RECOVER_MS of the kill or of its (done)s; the clients keep their sockets and just
 *    go on answering (think) with (done), and get as many thinks as in A.
 *
 * For every match: it reaches time_over at END_TIME and the server leaves by itself
 * (status 0, "Game Over"); the game log's time never goes back nor skips a cycle (each
 * play_on cycle has one frame; the second half's before_kick_off is not logged, as in the
 * reference) and the text log's steps (T,S) follow one another, none twice, none left
 * out. Between the two matches of a test: the game logs are the same bytes but for the
 * minute of the start in the (result ...) note, which the wall clock decides (checked
 * against the log's name instead); the text logs have the same steps with the same lines
 * from the kick-off on (in any order within a step, the order the gateways took the
 * datagrams in; before the kick-off a (done) of the connecting players may be taken a
 * step earlier or later). Both servers of a test get the same ports and log directory:
 * the game log's server_param holds port, coach_port, olcoach_port and game_log_dir.
 * Failed checks keep the logs (their directories are printed).
 *
 * Without a supervisor (hdr.sim_pid is the server process itself) there is nothing to
 * kill: ten_kills_same_rcg says so and plays B without kills. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_lockstep.h"
#include "e2e_logs.h"
#include "playmode.h"
#include "rcg.h"
#include "shm.h"

#define SEED        "170"
#define HALF_TIME   40                    /* s: 400 cycles a half */
#define END_TIME    (2 * HALF_TIME * 10)  /* the cycle of time_over */
#define NKILLS      10
#define RECOVER_MS  300.0                 /* three cycles of 100 ms */
#define WATCH       5                     /* thinks watched after a kill */

enum { BEFORE_DONE, AFTER_DONE, AFTER_DONE_1MS };

typedef struct kill_plan {
    int time;  /* the first think at or after this cycle */
    int sig;
    int when;  /* BEFORE_DONE: the sim waits for the (done)s; else it is stepping */
} kill_plan_t;

static const kill_plan_t plan[NKILLS] = {
    { 37, SIGKILL, BEFORE_DONE },  { 113, SIGSEGV, AFTER_DONE },
    { 190, SIGKILL, AFTER_DONE_1MS }, { 268, SIGSEGV, BEFORE_DONE },
    { 345, SIGABRT, AFTER_DONE },  { 400, SIGKILL, AFTER_DONE_1MS }, /* half time */
    { 471, SIGSEGV, BEFORE_DONE }, { 548, SIGKILL, AFTER_DONE },
    { 626, SIGKILL, AFTER_DONE_1MS }, { 790, SIGKILL, BEFORE_DONE },
};

static const char *const teams[22] = { "TA", "TA", "TA", "TA", "TA", "TA", "TA", "TA",
                                       "TA", "TA", "TA", "TB", "TB", "TB", "TB", "TB",
                                       "TB", "TB", "TB", "TB", "TB", "TB" };

typedef struct run {
    e2e_logdir_t keep;       /* the run's logs, moved here after the match */
    char   rcg[512], rcl[512];
    int    last_time;        /* world time of the last think */
    int    thinks;
    double match_ms;         /* first think to the server's exit */
    int    kills;
    double recover_ms[NKILLS]; /* worst sense_body delay in the WATCH thinks after kill k */
    pid_t  sim_before[NKILLS], sim_after[NKILLS];
} run_t;

static char out[1 << 16];
static int problems; /* failed expectations: the logs are kept for a look if any */

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        int ok_ = (cond);                                                                  \
        problems += !ok_;                                                                  \
        cr_expect(ok_, __VA_ARGS__);                                                       \
    } while (0)

/* ---- the players ----------------------------------------------------------------------- */
static uint32_t lcg(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 8;
}

static double norm_deg(double a)
{
    while (a > 180.0)
        a -= 360.0;
    while (a < -180.0)
        a += 360.0;
    return a;
}

/* own coordinates: every team attacks towards +x */
static const double home[11][2] = { { -50, 0 },  { -36, -20 }, { -36, -7 }, { -36, 7 },
                                    { -36, 20 }, { -22, -15 }, { -22, 0 },  { -22, 15 },
                                    { -10, -20 }, { -10, 0 },  { -10, 20 } };

typedef struct own {
    double x, y, body;
} own_t;

static own_t to_own(const e2e_obj_t *o, int right)
{
    own_t p = { o->x, o->y, o->body };
    if (right) {
        p.x = -p.x;
        p.y = -p.y;
        p.body = norm_deg(p.body + 180.0);
    }
    return p;
}

/* turn towards (x, y) or, facing it, dash */
static void go_to(own_t me, double x, double y, int power, char *cmd, size_t len)
{
    double rel = norm_deg(atan2(y - me.y, x - me.x) * 180.0 / M_PI - me.body);
    if (fabs(rel) > 15.0)
        snprintf(cmd, len, "(turn %.1f)", rel);
    else
        snprintf(cmd, len, "(dash %d)", power);
}

/* player `unum` of side `right` at this think: a function of the world, itself and its
 * own generator only; "" sends nothing */
static void command(const e2e_world_t *w, int right, int unum, uint32_t *rng, char *cmd,
                    size_t len)
{
    cmd[0] = '\0';
    const e2e_obj_t *me_o = &w->player[right][unum - 1];
    if (!me_o->present || !w->ball.present)
        return;
    own_t me = to_own(me_o, right), ball = to_own(&w->ball, right);
    uint32_t r = lcg(rng);
    /* before a half's kick-off (the ball at rest on the centre spot): now and then a move
     * to the formation */
    if (w->time % (HALF_TIME * 10) == 0 && w->ball.x == 0 && w->ball.y == 0 &&
        w->ball.vx == 0 && w->ball.vy == 0 && r % 4 == 0) {
        snprintf(cmd, len, "(move %.1f %.1f)", home[unum - 1][0], home[unum - 1][1]);
        return;
    }
    double d = hypot(ball.x - me.x, ball.y - me.y);
    if (d < 1.0) { /* at the other goal, give or take 20 degrees */
        double dir = atan2(((int)(r % 15) - 7) - ball.y, 52.5 - ball.x) * 180.0 / M_PI
                     + (int)(lcg(rng) % 41) - 20;
        snprintf(cmd, len, "(kick %d %.1f)", 50 + (int)(lcg(rng) % 51),
                 norm_deg(dir - me.body));
        return;
    }
    /* the two of the team nearest the ball chase it */
    int nearer = 0;
    for (int u = 1; u <= 11; u++) {
        const e2e_obj_t *o = &w->player[right][u - 1];
        if (u == unum || !o->present)
            continue;
        own_t p = to_own(o, right);
        double du = hypot(ball.x - p.x, ball.y - p.y);
        nearer += du < d || (du == d && u < unum);
    }
    if (nearer < 2) {
        go_to(me, ball.x, ball.y, 100, cmd, len);
        return;
    }
    /* the others keep their place, moved up and down the pitch with the ball */
    double hx = home[unum - 1][0] + (unum == 1 ? 0.0 : 0.5 * ball.x);
    double hy = home[unum - 1][1] + 0.2 * ball.y;
    hx = hx < -50 ? -50 : hx > 45 ? 45 : hx;
    if (hypot(hx - me.x, hy - me.y) > 2.0)
        go_to(me, hx, hy, 40 + (int)(r % 61), cmd, len);
    else if (r % 3 == 0)
        snprintf(cmd, len, "(turn %.1f)",
                 norm_deg(atan2(ball.y - me.y, ball.x - me.x) * 180.0 / M_PI - me.body));
}

/* ---- the region and the logs ----------------------------------------------------------- */
/* hdr.sim_pid of the region (attached afresh), 0 if there is none */
static pid_t sim_pid(const e2e_server_t *s)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, s->shm_name, err, sizeof err) < 0)
        return 0;
    pid_t p = h.r->hdr.sim_pid;
    shm_region_detach(&h);
    return p;
}

/* three distinct free UDP ports on 127.0.0.1, held together while chosen */
static void free_ports(int port[3])
{
    int fd[3];
    for (int i = 0; i < 3; i++) {
        fd[i] = e2e_udp_open();
        cr_assert_geq(fd[i], 0);
        struct sockaddr_in a;
        socklen_t l = sizeof a;
        cr_assert_eq(getsockname(fd[i], (struct sockaddr *)&a, &l), 0);
        port[i] = ntohs(a.sin_port);
    }
    for (int i = 0; i < 3; i++)
        close(fd[i]);
}

/* move the only file of d ending in suffix into keep; its new path into path */
static void take_log(const e2e_logdir_t *d, const e2e_logdir_t *keep, const char *suffix,
                     char *path, size_t len)
{
    char from[512];
    cr_assert_eq(e2e_logdir_find(d, suffix, from, sizeof from), 1, "one %s file in %s",
                 suffix, d->dir);
    const char *base = strrchr(from, '/') + 1;
    snprintf(path, len, "%s/%s", keep->dir, base);
    cr_assert_eq(rename(from, path), 0, "%s -> %s", from, path);
}

static char *read_all(const char *path, size_t *len)
{
    char *t = e2e_read_file(path, len);
    cr_assert_not_null(t, "cannot read %s", path);
    return t;
}

/* "(result YYYYMMDDHHMM ...": the minute the match started, the one thing of the game log
 * the wall clock decides; checked against the file name's date, then blanked */
static void blank_result_stamp(char *t, const char *path)
{
    char *p = strstr(t, "(result ");
    cr_assert_not_null(p, "no (result ...) in %s", path);
    p += 8;
    const char *base = strrchr(path, '/') + 1;
    CHECK(strncmp(p, base, 12) == 0, "the result's start %.12s, the name's %.12s", p, base);
    for (int i = 0; i < 12 && p[i] >= '0' && p[i] <= '9'; i++)
        p[i] = 'X';
}

/* where a and b first differ (line, column, the text around it) into why; 1 if they are
 * the same */
static int same_text(const char *a, size_t la, const char *b, size_t lb, char *why,
                     size_t len)
{
    if (la == lb && memcmp(a, b, la) == 0)
        return 1;
    size_t i = 0, line = 1, start = 0;
    while (i < la && i < lb && a[i] == b[i]) {
        if (a[i] == '\n') {
            line++;
            start = i + 1;
        }
        i++;
    }
    size_t from = i - start > 80 ? i - 80 : start; /* some of the line before */
    const char *ea = memchr(a + from, '\n', la - from);
    const char *eb = memchr(b + from, '\n', lb - from);
    int na = (int)((ea ? (size_t)(ea - a) : la) - from);
    int nb = (int)((eb ? (size_t)(eb - b) : lb) - from);
    snprintf(why, len, "sizes %zu and %zu; line %zu differs from column %zu:\n  A: %s%.*s\n"
             "  B: %s%.*s", la, lb, line, i - start + 1, from > start ? "..." : "",
             na > 300 ? 300 : na, a + from, from > start ? "..." : "", nb > 300 ? 300 : nb,
             b + from);
    return 0;
}

/* ---- one match ------------------------------------------------------------------------- */
static e2e_ls_t ls;

/* plan[k]'s signal to the sim of s (hdr.sim_pid); 0, or -1 (with a failed expectation)
 * when the sim is the server process the harness started itself: nothing would restart
 * it, the kill would only end the match */
static int kill_sim(const e2e_server_t *s, run_t *r, int k, double *t_kill)
{
    pid_t pid = sim_pid(s);
    /* a plain failure: the logs of these matches say nothing, they are not kept */
    cr_expect(pid > 0 && pid != s->pid,
              "kill %d: hdr.sim_pid %d, the server process %d: no supervised sim to kill "
              "(sim restarts are not there); the match goes on without kills", k, (int)pid,
              (int)s->pid);
    if (pid <= 0 || pid == s->pid)
        return -1;
    r->sim_before[k] = pid;
    CHECK(kill(pid, plan[k].sig) == 0, "kill %d: kill(%d, %d)", k, (int)pid, plan[k].sig);
    *t_kill = e2e_now_ms();
    return 0;
}

/* One match to its end; with kills, the plan above. The logs end up in r->keep. */
static void play(run_t *r, const e2e_logdir_t *d, const int port[3], int kills)
{
    char a_port[64], a_cport[64], a_oport[64], a_half[64];
    snprintf(a_port, sizeof a_port, "server::port=%d", port[0]);
    snprintf(a_cport, sizeof a_cport, "server::coach_port=%d", port[1]);
    snprintf(a_oport, sizeof a_oport, "server::olcoach_port=%d", port[2]);
    snprintf(a_half, sizeof a_half, "server::half_time=%d", HALF_TIME);
    /* these ports replace the harness's (later arguments win) */
    const char *args[] = { "server::synch_mode=true", "server::synch_timeout=20000",
                           "server::coach_w_referee=true", "server::auto_mode=true",
                           "server::random_seed=" SEED, "server::reproducible=true", a_half,
                           "server::nr_extra_halfs=0",
                           "server::penalty_shoot_outs=false", "server::kick_off_wait=10",
                           "server::game_over_wait=10", "server::game_logging=true",
                           "server::text_logging=true", d->game_arg, d->text_arg, a_port,
                           a_cport, a_oport, NULL };
    memset(r, 0, sizeof *r);
    cr_assert_eq(e2e_logdir_make(&r->keep), 0);
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    s.port = port[0];
    s.coach_port = port[1];
    s.olcoach_port = port[2];
    cr_assert_eq(e2e_ls_open(&ls, &s, teams, 22), 0, "22 players and a trainer in lock step");

    uint32_t rng[22];
    for (int i = 0; i < 22; i++)
        rng[i] = 1000u * (uint32_t)(i / 11) + (uint32_t)(i % 11) + 1u;
    int next = 0, watch = 0, k_last = -1, with_kills = kills;
    double t_kill = 0, t0 = e2e_now_ms();
    for (;;) {
        if (e2e_ls_think(&ls) < 0)
            break; /* the server has left (or a failure: see below) */
        r->thinks++;
        r->last_time = ls.world.time;
        if (watch > 0) { /* the thinks after a kill: every sense_body in time */
            double ref = ls.done_ms > t_kill ? ls.done_ms : t_kill;
            for (int i = 0; i < ls.n; i++) {
                double late = ls.sense_ms[i] - ref;
                if (late > r->recover_ms[k_last])
                    r->recover_ms[k_last] = late;
                CHECK(late <= RECOVER_MS,
                      "kill %d (signal %d at cycle %d): player %d's sense_body of cycle %d "
                      "came %.0f ms late", k_last, plan[k_last].sig, plan[k_last].time, i,
                      ls.world.time, late);
            }
            if (--watch == 0) {
                r->sim_after[k_last] = sim_pid(&s);
                pid_t now = r->sim_after[k_last];
                CHECK(now > 0 && now != r->sim_before[k_last],
                      "kill %d: hdr.sim_pid %d, the killed sim's %d: no new sim", k_last,
                      (int)now, (int)r->sim_before[k_last]);
            }
        }
        for (int i = 0; i < ls.n; i++) {
            char cmd[96];
            command(&ls.world, i / 11, i % 11 + 1, &rng[i], cmd, sizeof cmd);
            if (cmd[0])
                e2e_ls_send(&ls, i, cmd);
        }
        int kill_now = with_kills && next < NKILLS && watch == 0 &&
                       ls.world.time >= plan[next].time;
        if (kill_now && plan[next].when == BEFORE_DONE && kill_sim(&s, r, next, &t_kill) < 0)
            kill_now = with_kills = 0;
        e2e_ls_done(&ls);
        if (kill_now && plan[next].when != BEFORE_DONE) {
            if (plan[next].when == AFTER_DONE_1MS)
                usleep(1000);
            if (kill_sim(&s, r, next, &t_kill) < 0)
                kill_now = with_kills = 0;
        }
        if (kill_now) {
            k_last = next++;
            r->kills++;
            watch = WATCH;
        }
        if (ls.world.time >= END_TIME)
            ls.wait_ms = 500; /* time_over: the server leaves after game_over_wait steps */
    }
    CHECK(r->last_time == END_TIME,
          "the match stopped at cycle %d (%d thinks, %d kills, the last at cycle %d)",
          r->last_time, r->thinks, r->kills, k_last >= 0 ? plan[k_last].time : -1);
    CHECK(watch == 0, "kill %d: the match did not go on", k_last);
    if (r->last_time < END_TIME) { /* it will not end by itself */
        e2e_ls_close(&ls);
        cr_assert_fail("the match did not end (server stopped: %d); its log: %s",
                       e2e_server_stop(&s), s.log);
    }
    int st = e2e_server_wait(&s, 20000, out, sizeof out);
    r->match_ms = e2e_now_ms() - t0;
    size_t ol = strlen(out);
    const char *tail = out + (ol > 3000 ? ol - 3000 : 0);
    cr_assert_eq(st, 0, "the server's exit status %d: ...%s", st, tail);
    CHECK(strstr(out, "Game Over. Exiting...") != NULL, "...%s", tail);
    e2e_ls_close(&ls);
    take_log(d, &r->keep, ".rcg", r->rcg, sizeof r->rcg);
    take_log(d, &r->keep, ".rcl", r->rcl, sizeof r->rcl);
    CHECK(e2e_logdir_count(d) == 0, "no other file in %s", d->dir);
    fprintf(stderr, "resume: %s match: %d thinks, %.1f s, %d kills, logs in %s\n",
            kills ? "killed" : "plain", r->thinks, r->match_ms / 1e3, r->kills,
            r->keep.dir);
}

/* ---- what is checked in the logs ------------------------------------------------------- */
/* The game log's frames: time never goes back nor jumps a cycle, and in play_on (where the
 * clock runs) every cycle has exactly one frame; the match ends in time_over at END_TIME. */
static void check_frames(const char *path, const char *what)
{
    rcg_t g;
    char err[256];
    cr_assert_eq(rcg_read_file(path, &g, err, sizeof err), 0, "%s: %s", path, err);
    CHECK(g.bad_items == 0, "%s game log: %d malformed items", what, g.bad_items);
    CHECK(!g.truncated, "%s game log is cut", what);
    /* 1 to END_TIME but the second half's first cycle, and any cycles stopped */
    cr_assert_geq(g.n_frames, END_TIME - 1, "%s game log: %d frames", what, g.n_frames);
    int bad = 0;
    for (int i = 1; i < g.n_frames && bad < 5; i++) {
        const disp_show_t *p = &g.frame[i - 1].show, *f = &g.frame[i].show;
        int step = f->time - p->time;
        /* the second half's before_kick_off (at the half's first cycle) is not logged,
         * as in the reference */
        int half_break = step == 2 && (p->time + 1) % (HALF_TIME * 10) == 0 &&
                         (f->pmode == PM_KICK_OFF_L || f->pmode == PM_KICK_OFF_R);
        int ok = step == 1 || (step == 0 && f->pmode != PM_PLAY_ON) || half_break;
        if (!ok)
            bad++;
        CHECK(ok, "%s game log, frame %d: cycle %d (mode %d) after cycle %d (mode %d)", what,
              i, f->time, f->pmode, p->time, p->pmode);
    }
    const disp_show_t *last = &g.frame[g.n_frames - 1].show;
    CHECK(last->time == END_TIME, "%s game log ends at cycle %d", what, last->time);
    CHECK(last->pmode == PM_TIME_OVER, "%s game log ends in mode %d", what, last->pmode);
    rcg_free(&g);
}

/* The text log's steps ("T,S\t" before every line): each step's lines together, the steps
 * one after the other (T,S+1 or T+1,0), none twice, none left out: every step has lines,
 * as every client sends (done) in every one. */
static void check_steps(const char *path, const char *what)
{
    size_t len;
    char *t = read_all(path, &len);
    int pt = -1, ps = -1, bad = 0, steps = 0;
    for (char *l = t; *l && bad < 5;) {
        char *e = strchr(l, '\n');
        int tt, ss;
        if (sscanf(l, "%d,%d\t", &tt, &ss) == 2 && (tt != pt || ss != ps)) {
            int ok = pt < 0 || (tt == pt && ss == ps + 1) || (tt == pt + 1 && ss == 0);
            if (!ok)
                bad++;
            CHECK(ok, "%s text log: step %d,%d after %d,%d", what, tt, ss, pt, ps);
            pt = tt;
            ps = ss;
            steps++;
        }
        l = e ? e + 1 : l + strlen(l);
    }
    CHECK(pt == END_TIME, "%s text log ends at cycle %d", what, pt);
    CHECK(steps > END_TIME, "%s text log: %d steps", what, steps);
    free(t);
}

/* the text log's lines from the first (referee kick_off_l) on, into line[] (t is cut into
 * lines); their number */
static int kickoff_lines(char *t, char ***line)
{
    char *p = strstr(t, "\t(referee kick_off_l)\n");
    cr_assert_not_null(p, "no kick-off in the text log");
    while (p > t && p[-1] != '\n')
        p--;
    int n = 0, cap = 1024;
    *line = malloc(sizeof **line * (size_t)cap);
    cr_assert_not_null(*line);
    for (char *e; p && *p; p = e ? e + 1 : NULL) {
        e = strchr(p, '\n');
        if (e)
            *e = '\0';
        if (n == cap) {
            *line = realloc(*line, sizeof **line * (size_t)(cap *= 2));
            cr_assert_not_null(*line);
        }
        (*line)[n++] = p;
    }
    return n;
}

static int cmp_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the length of the run of lines from i on with the step stamp ("T,S\t") of line[i] */
static int step_run(char **line, int n, int i)
{
    size_t sl = strcspn(line[i], "\t");
    int j = i;
    while (j < n && strncmp(line[j], line[i], sl) == 0 && line[j][sl] == '\t')
        j++;
    return j - i;
}

/* The text logs say the same from the kick-off on, step by step: the same steps, each with
 * the same lines (in any order: within a step the text log has them in the order the
 * gateways took the datagrams in). What came before the kick-off is left out: while the
 * players connect, a (done) may be taken a step earlier or later. 1 same, else why. */
static int same_steps(char *a, char *b, char *why, size_t len)
{
    char **la, **lb;
    int na = kickoff_lines(a, &la), nb = kickoff_lines(b, &lb), same = 1;
    for (int i = 0, j = 0; same && (i < na || j < nb);) {
        if (i >= na || j >= nb) {
            snprintf(why, len, "one ends first: A at line %d of %d, B at %d of %d", i, na, j,
                     nb);
            same = 0;
            break;
        }
        int ra = step_run(la, na, i), rb = step_run(lb, nb, j);
        qsort(la + i, (size_t)ra, sizeof *la, cmp_line);
        qsort(lb + j, (size_t)rb, sizeof *lb, cmp_line);
        for (int k = 0; k < (ra > rb ? ra : rb); k++) {
            const char *x = k < ra ? la[i + k] : "(none)", *y = k < rb ? lb[j + k] : "(none)";
            if (strcmp(x, y) != 0) {
                snprintf(why, len,
                         "a step of %d lines in A, %d in B; they differ:\n  A: %.300s\n"
                         "  B: %.300s", ra, rb, x, y);
                same = 0;
                break;
            }
        }
        i += ra;
        j += rb;
    }
    free(la);
    free(lb);
    return same;
}

/* The game logs of a and b are the same bytes (the result's start minute aside); the text
 * logs the same steps with the same lines from the kick-off on. */
static void check_same_logs(const run_t *a, const run_t *b)
{
    char why[1200];
    size_t la, lb;
    char *ta = read_all(a->rcg, &la), *tb = read_all(b->rcg, &lb);
    blank_result_stamp(ta, a->rcg);
    blank_result_stamp(tb, b->rcg);
    CHECK(same_text(ta, la, tb, lb, why, sizeof why), "game logs %s and %s: %s", a->rcg,
          b->rcg, why);
    free(ta);
    free(tb);
    ta = read_all(a->rcl, &la);
    tb = read_all(b->rcl, &lb);
    CHECK(same_steps(ta, tb, why, sizeof why), "text logs %s and %s: %s", a->rcl, b->rcl,
          why);
    free(ta);
    free(tb);
}

/* no core files from the sims killed by SIGSEGV and SIGABRT (the server inherits it) */
static void no_cores(void)
{
    struct rlimit rl = { 0, 0 };
    setrlimit(RLIMIT_CORE, &rl);
}

/* the logs removed when every check passed, else kept and named */
static void finish(run_t *runs, int n, e2e_logdir_t *d)
{
    for (int i = 0; i < n; i++) {
        if (problems == 0)
            e2e_logdir_remove(&runs[i].keep);
        else
            fprintf(stderr, "resume: logs of match %c kept in %s\n", 'A' + i,
                    runs[i].keep.dir);
    }
    e2e_logdir_remove(d);
}

Test(resume, two_runs_same_rcg, .timeout = 300)
{
    static run_t r[2];
    e2e_logdir_t d;
    int port[3];
    problems = 0;
    free_ports(port);
    cr_assert_eq(e2e_logdir_make(&d), 0);
    play(&r[0], &d, port, 0);
    play(&r[1], &d, port, 0);
    CHECK(r[1].thinks == r[0].thinks, "%d thinks in B, %d in A", r[1].thinks, r[0].thinks);
    for (int i = 0; i < 2; i++) {
        check_frames(r[i].rcg, i ? "B" : "A");
        check_steps(r[i].rcl, i ? "B" : "A");
    }
    check_same_logs(&r[0], &r[1]);
    finish(r, 2, &d);
}

Test(resume, ten_kills_same_rcg, .timeout = 300)
{
    e2e_segv_kills();
    static run_t r[2];
    e2e_logdir_t d;
    int port[3];
    problems = 0;
    no_cores();
    free_ports(port);
    cr_assert_eq(e2e_logdir_make(&d), 0);
    play(&r[0], &d, port, 0);
    play(&r[1], &d, port, 1);
    cr_expect_eq(r[1].kills, NKILLS, "%d kills of %d", r[1].kills, NKILLS);
    CHECK(r[1].thinks == r[0].thinks, "%d thinks in B, %d in A: %s", r[1].thinks, r[0].thinks,
          r[1].thinks > r[0].thinks ? "a cycle came twice to the clients"
                                    : "cycles left out");
    for (int k = 0; k < r[1].kills; k++)
        fprintf(stderr, "resume: kill %d (signal %d, cycle %d): sim %d -> %d, worst "
                "sense_body %.1f ms\n", k, plan[k].sig, plan[k].time, (int)r[1].sim_before[k],
                (int)r[1].sim_after[k], r[1].recover_ms[k]);
    for (int i = 0; i < 2; i++) {
        check_frames(r[i].rcg, i ? "B" : "A");
        check_steps(r[i].rcl, i ? "B" : "A");
    }
    check_same_logs(&r[0], &r[1]);
    finish(r, 2, &d);
}
