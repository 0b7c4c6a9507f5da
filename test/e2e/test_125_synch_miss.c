/* test_125_synch_miss.c -- a slow client in synch mode under each
 * server::synch_miss_policy (issue 13). Two players: A answers every (think) with
 * (done) at once, B is the slow one. Misses are counted per client in the region and
 * shown by /status (and result.json):
 *   skip     after server::synch_timeout the cycle goes on without B; B's misses and its
 *            run grow past 20, where the reference exits ("Waiting too long for
 *            clients!"): this server goes on, and B's run ends when it answers again
 *   wait     the cycle waits for B however long it takes (one miss counted per timeout);
 *            A gets no (think) meanwhile; B's (done) lets exactly one cycle go
 *   forfeit  B's run reaching server::synch_miss_limit ends the match: B's team
 *            forfeits, exit status 3, result.json says so
 * What is checked is what happened (cycles, counters), never how long it took. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_logs.h"
#include "e2e_runner.h"
#include "shm.h"

static char buf[65536];

typedef struct pl {
    int fd, port;
} pl_t;

static void join(pl_t *p, const e2e_server_t *s, const char *team)
{
    char line[64];
    p->fd = e2e_udp_open();
    snprintf(line, sizeof line, "(init %s (version 19))", team);
    e2e_send(p->fd, s->port, line);
    cr_assert_gt(e2e_recv_prefix(p->fd, "(init ", buf, sizeof buf, 3000, &p->port), 0);
}

/* the next (think) of p within ms; 1 if it came */
static int think(pl_t *p, int ms)
{
    return e2e_recv_prefix(p->fd, "(think)", buf, sizeof buf, ms, NULL) > 0;
}

static void done(pl_t *p)
{
    e2e_send(p->fd, p->port, "(done)");
}

/* client idx of the /status at port: its field */
static long long client_field(int http, int idx, const char *field)
{
    static char st[262144];
    if (e2e_http_get(http, "/status", st, sizeof st) != 200)
        return -1;
    json_t *o = json_loads(st, 0, NULL);
    json_t *cl = json_object_get(o, "clients");
    long long v = -1;
    for (size_t i = 0; i < json_array_size(cl); i++) {
        json_t *c = json_array_get(cl, i);
        if (json_integer_value(json_object_get(c, "index")) == idx)
            v = json_integer_value(json_object_get(c, field));
    }
    json_decref(o);
    return v;
}

/* snapshots the sim published (the truth; /status shows monitorgw's newest, which may
 * lag behind by a cycle) */
static long long published(const e2e_server_t *s)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, s->shm_name, err, sizeof err) < 0)
        return -1;
    long long n = (long long)atomic_load(&h.r->hdr.published);
    shm_region_detach(&h);
    return n;
}

#define A_IDX 0     /* first team: left, number 1 */
#define B_IDX 11    /* second team: right, number 1 */

Test(runner_synch_miss, skip_goes_on_past_20_misses, .timeout = 120)
{
    const char *args[] = { "server::synch_mode=true", "server::synch_timeout=150",
                           "server::http_port=-1", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int http = e2e_runner_http_port(s.shm_name);
    pl_t a, b;
    join(&a, &s, "A");
    join(&b, &s, "B");
    /* 25 cycles: A answers, B never does; each goes on after the timeout */
    for (int k = 0; k < 25; k++) {
        cr_assert(think(&a, 5000), "cycle %d came without B's (done)", k);
        done(&a);
    }
    cr_expect_eq(kill(s.pid, 0), 0, "still running after more than 20 misses");
    long long bm = client_field(http, B_IDX, "misses");
    long long brun = client_field(http, B_IDX, "consecutive_misses");
    cr_expect_geq(bm, 21, "B missed %lld", bm);
    cr_expect_geq(brun, 21, "in a row: %lld", brun);
    cr_expect_lt(client_field(http, A_IDX, "misses"), bm);
    /* B answers again: its run ends (at the end of the next wait), the count stays */
    long long run = -1;
    for (int k = 0; k < 100 && run != 0; k++) {
        if (think(&b, 20))
            done(&b);
        if (think(&a, 20))
            done(&a);
        run = client_field(http, B_IDX, "consecutive_misses");
    }
    cr_expect_eq(run, 0);
    cr_expect_geq(client_field(http, B_IDX, "max_consecutive_misses"), 21);
    cr_expect_geq(client_field(http, B_IDX, "misses"), bm);
    close(a.fd);
    close(b.fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(runner_synch_miss, wait_never_steps_without_the_slow_client, .timeout = 120)
{
    const char *args[] = { "server::synch_mode=true", "server::synch_timeout=50",
                           "server::synch_miss_policy=wait", "server::http_port=-1", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int http = e2e_runner_http_port(s.shm_name);
    pl_t a, b;
    join(&a, &s, "A");
    /* the sim steps as soon as A joins and then waits for A's (done): B joins in that
     * cycle, and from the next one on both are waited for */
    cr_assert(think(&a, 5000));
    join(&b, &s, "B");
    done(&a);
    for (int k = 0; k < 3; k++) { /* in step */
        cr_assert(think(&a, 5000));
        cr_assert(think(&b, 5000));
        done(&a);
        done(&b);
    }
    cr_assert(think(&a, 5000));
    cr_assert(think(&b, 5000));
    long long step = published(&s);
    done(&a);
    /* B holds: wait until three timeouts were counted for it; no cycle meanwhile */
    int thinks = 0;
    for (int i = 0; i < 500 && client_field(http, B_IDX, "misses") < 3; i++)
        thinks += think(&a, 20);
    cr_expect_geq(client_field(http, B_IDX, "misses"), 3);
    thinks += think(&a, 50);
    cr_expect_eq(thinks, 0, "no (think) for A while B has not answered");
    cr_expect_eq(published(&s), step, "the world stood still");
    /* B's (done): exactly one cycle */
    done(&b);
    cr_expect(think(&a, 5000), "the cycle came once B answered");
    cr_expect(think(&b, 5000));
    cr_expect_eq(published(&s), step + 1, "one cycle, then waiting again");
    close(a.fd);
    close(b.fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(runner_synch_miss, forfeit_ends_the_match, .timeout = 120)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    char res[400];
    snprintf(res, sizeof res, "server::result_file=%s/result.json", d.dir);
    const char *args[] = { "server::synch_mode=true", "server::synch_timeout=50",
                           "server::synch_miss_policy=forfeit", "server::synch_miss_limit=5",
                           res, NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    pl_t a, b;
    join(&a, &s, "A");
    join(&b, &s, "B");
    int st = -2;
    for (int k = 0; k < 500 && (st = e2e_server_wait(&s, 0, NULL, 0)) == -2; k++) {
        if (think(&a, 20))
            done(&a);
    }
    cr_expect_eq(st, 3, "exit status");
    char path[400];
    snprintf(path, sizeof path, "%s/result.json", d.dir);
    json_error_t err;
    json_t *r = json_load_file(path, 0, &err);
    cr_assert_not_null(r, "%s", err.text);
    cr_expect_str_eq(json_string_value(json_object_get(r, "exit_reason")), "forfeit");
    cr_expect_str_eq(json_string_value(json_object_get(r, "forfeit")), "r");
    cr_expect_eq(json_integer_value(json_object_get(r, "exit_code")), 3);
    json_t *cl = json_object_get(r, "clients");
    int seen = 0;
    for (size_t i = 0; i < json_array_size(cl); i++) {
        json_t *c = json_array_get(cl, i);
        if (strcmp(json_string_value(json_object_get(c, "team")), "B") != 0)
            continue;
        seen = 1;
        cr_expect_eq(json_integer_value(json_object_get(c, "max_consecutive_misses")), 5,
                     "the limit, then the end");
        cr_expect_geq(json_integer_value(json_object_get(c, "misses")), 5);
    }
    cr_expect(seen);
    json_decref(r);
    close(a.fd);
    close(b.fd);
    e2e_logdir_remove(&d);
    e2e_logdir_t sdir; /* a server that did not exit with 0 keeps its directory */
    snprintf(sdir.dir, sizeof sdir.dir, "%s", s.dir);
    e2e_logdir_remove(&sdir);
}
