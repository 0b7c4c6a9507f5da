/* test_121_events.c -- the runner's event stream (issue 13): NDJSON lines on
 * server::event_stream (a file here; a unix socket in the second test) and the same
 * events as server-sent events on /match/events of the HTTP server. A scripted match in
 * synch mode: two players and the trainer connect, play_on, a yellow card from an
 * operator monitor, a goal the trainer sets up, the play resumed, half time, the stop.
 * The file holds each of these once, in that order, with the fields a runner needs;
 * the SSE stream carries the same lines with increasing ids, and a client coming back
 * with Last-Event-ID gets what it missed. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "e2e_http.h"
#include "e2e_logs.h"
#include "e2e_ref.h"
#include "e2e_runner.h"
#include "playmode.h"

#define MAX_LINES 256

static char *lines[MAX_LINES];
static int nlines;

static void split_lines(char *text)
{
    nlines = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && nlines < MAX_LINES;
         l = strtok_r(NULL, "\n", &save))
        lines[nlines++] = l;
}

/* index of the first line at or after from with "event":"name" (and text, if given) */
static int find(int from, const char *name, const char *text)
{
    char key[64];
    snprintf(key, sizeof key, "{\"event\":\"%s\"", name);
    for (int i = from < 0 ? 0 : from; i < nlines; i++) {
        if (strncmp(lines[i], key, strlen(key)) == 0 && (!text || strstr(lines[i], text)))
            return i;
    }
    return -1;
}

static int count(const char *name)
{
    int n = 0;
    for (int i = find(0, name, NULL); i >= 0; i = find(i + 1, name, NULL))
        n++;
    return n;
}

/* an operator monitor (127.0.0.1 is one by default): its own port on monitorgw */
static int monitor(const e2e_server_t *s, int *fd)
{
    char buf[8192];
    int port = 0;
    *fd = e2e_udp_open();
    e2e_send(*fd, s->port, "(dispinit version 3)");
    cr_assert_gt(e2e_recv(*fd, buf, sizeof buf, 2000, &port), 0);
    return port;
}

Test(runner_events, goal_card_half_in_file_and_sse, .timeout = 120)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    char stream[400], a_stream[460], data[16384];
    snprintf(stream, sizeof stream, "%s/events.ndjson", d.dir);
    snprintf(a_stream, sizeof a_stream, "server::event_stream=%s", stream);
    const char *args[] = { "server::half_time=2", "server::http_port=-1", a_stream, NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int http = e2e_runner_http_port(m.s.shm_name);
    cr_assert_gt(http, 0);
    /* Last-Event-ID 0: from the first event on (the start came before we connected) */
    int sse = e2e_sse_open(http, "/match/events", "0");
    cr_assert_geq(sse, 0);
    int a1 = e2e_ref_connect(&m, "A", 0), b1 = e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    e2e_ref_place(&m, a1, 20.0, 10.0, 0.0);
    e2e_ref_place(&m, b1, -10.0, 3.0, 180.0);
    cr_assert_eq(e2e_ref_cycle(&m), 0);
    int mon, mport = monitor(&m.s, &mon);
    e2e_send(mon, mport, "(dispcard 1 1 yellow)");
    /* monitorgw hands it to the sim when it reads it: a cycle or a few later */
    for (int k = 0; k < 1000 && !strstr(m.log, "yellow_card_l_1"); k++) {
        usleep(2000);
        cr_assert_eq(e2e_ref_cycle(&m), 0);
    }
    cr_assert(strstr(m.log, "yellow_card_l_1"), "%s", m.log);
    /* the goal: 2 m/cycle from 50 m, in after two steps (test_031) */
    e2e_ref_ball(&m, 50.0, -3.0, 2.0, 0.0);
    cr_assert_gt(e2e_ref_until(&m, PM_GOAL_L, 5), 0, "%s", m.log);
    cr_assert_gt(e2e_ref_until(&m, PM_KICK_OFF_R, 60), 0, "%s", m.log);
    e2e_ref_trainer(&m, "(change_mode play_on)");
    /* half time (2 s = 20 cycles): the referee says half_time, then before_kick_off */
    cr_assert_gt(e2e_ref_until(&m, PM_BEFORE_KICK_OFF, 40), 0, "%s", m.log);
    cr_expect(strstr(m.log, "20 half_time;"), "%s", m.log);
    cr_assert_eq(e2e_ref_cycle(&m), 0);

    /* a client that saw events 1..3 comes back: it gets 4.. (the first connection has
     * them all; compare the replay with it below) */
    int again = e2e_sse_open(http, "/match/events", "3");
    cr_assert_geq(again, 0);
    cr_assert_eq(e2e_ref_stop(&m), 0);
    close(mon);

    size_t len;
    char *text = e2e_read_file(stream, &len);
    cr_assert_not_null(text);
    char *copy = strdup(text);
    split_lines(text);
    cr_assert_gt(nlines, 8, "%s", copy);
    for (int i = 0; i < nlines; i++) {
        json_error_t err;
        json_t *o = json_loads(lines[i], 0, &err);
        cr_expect_not_null(o, "line %d is JSON: %s (%s)", i + 1, lines[i], err.text);
        json_decref(o);
    }
    /* the order of a match */
    int start = find(0, "start", NULL);
    int trainer = find(0, "connect", "\"client\":\"trainer\"");
    int ca = find(0, "connect", "\"team\":\"A\",\"unum\":1");
    int cb = find(0, "connect", "\"team\":\"B\",\"unum\":1");
    int on = find(0, "playmode", "\"mode\":\"play_on\"");
    int card = find(0, "card", NULL);
    int goal = find(0, "goal", NULL);
    int goal_l = find(goal, "playmode", "\"mode\":\"goal_l\"");
    int ko = find(goal, "playmode", "\"mode\":\"kick_off_r\"");
    int half = find(0, "half", NULL);
    int end = find(0, "end", NULL);
    cr_expect_eq(start, 0, "%s", copy);
    /* (connections seen in the same step are reported in client-table order) */
    cr_expect(start < trainer && start < ca && ca < cb && trainer < on && cb < on && on < card
              && card < goal && goal < goal_l && goal_l < ko && ko < half && half < end,
              "%d %d %d %d %d %d %d %d %d %d %d: %s", start, trainer, ca, cb, on, card, goal,
              goal_l, ko, half, end, copy);
    cr_expect_eq(end, nlines - 1, "end is the last line");
    cr_expect_eq(count("goal"), 1);
    cr_expect_eq(count("card"), 1);
    cr_expect_eq(count("half"), 1);
    cr_expect_eq(count("start"), 1);
    /* what each says */
    cr_assert_geq(goal, 0);
    cr_expect(strstr(lines[goal], "\"side\":\"l\",\"score\":[1,0]"), "%s", lines[goal]);
    cr_expect(strstr(lines[goal], "\"episode\":0"), "%s", lines[goal]);
    cr_expect(strstr(lines[card], "\"side\":\"l\",\"unum\":1,\"card\":\"yellow\""), "%s",
              lines[card]);
    cr_expect(strstr(lines[half], "\"halves\":1"), "%s", lines[half]);
    cr_expect_eq(e2e_json_num(lines[half], "time", -1), 20, "%s", lines[half]);
    cr_expect(strstr(lines[ca], "\"reconnect\":false") && strstr(lines[ca], "\"version\":19"),
              "%s", lines[ca]);
    cr_expect(strstr(lines[end], "\"reason\":\"signal\",\"exit_code\":0"), "%s", lines[end]);
    cr_expect(strstr(lines[end], "\"score\":[1,0]"), "%s", lines[end]);
    char port[32];
    snprintf(port, sizeof port, "\"port\":%d,", m.s.port);
    cr_expect(strstr(lines[start], port), "%s", lines[start]);

    /* the SSE stream: the same lines, ids 1, 2, 3, ... up to end */
    for (int i = 0; i < nlines; i++) {
        long long id;
        int n = e2e_sse_next(sse, data, sizeof data, &id, 3000);
        cr_assert_gt(n, 0, "event %d on /match/events", i + 1);
        cr_expect_str_eq(data, lines[i]);
        cr_expect_eq(id, i + 1);
    }
    /* the client that came back with Last-Event-ID 3 */
    for (int i = 3; i < nlines; i++) {
        long long id;
        cr_assert_gt(e2e_sse_next(again, data, sizeof data, &id, 3000), 0, "replayed %d", i + 1);
        cr_expect_eq(id, i + 1);
        cr_expect_str_eq(data, lines[i]);
    }
    e2e_sse_close(sse);
    e2e_sse_close(again);
    free(text);
    free(copy);
    e2e_logdir_remove(&d);
}

/* a runner listening on a unix socket: the server connects at start; the stream begins
 * with start and ends with end, one JSON object per line */
Test(runner_events, unix_socket_stream, .timeout = 60)
{
    char path[108];
    snprintf(path, sizeof path, "/tmp/rcss-ev-%d.sock", (int)getpid());
    unlink(path);
    int ls = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    cr_assert_eq(bind(ls, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert_eq(listen(ls, 1), 0);
    char arg[160];
    snprintf(arg, sizeof arg, "server::event_stream=unix:%s", path);
    const char *args[] = { arg, "server::synch_mode=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int c = accept(ls, NULL, NULL);
    cr_assert_geq(c, 0);
    int p = e2e_udp_open();
    char buf[4096];
    e2e_send(p, s.port, "(init U (version 19))");
    cr_assert_gt(e2e_recv_prefix(p, "(init ", buf, sizeof buf, 2000, NULL), 0);
    /* the sim's turn that takes the player in writes its connect line */
    static char all[65536];
    size_t have = e2e_read_until(c, all, sizeof all, 0, 5000, "{\"event\":\"connect\"");
    cr_assert(strstr(all, "{\"event\":\"connect\""), "no connect line: %s", all);
    cr_assert_eq(e2e_server_stop(&s), 0);
    ssize_t n;
    while (have < sizeof all - 1 && (n = read(c, all + have, sizeof all - 1 - have)) > 0)
        have += (size_t)n;
    all[have] = '\0';
    cr_assert_gt(have, 0);
    cr_expect_eq(all[have - 1], '\n', "the stream ends with a whole line");
    split_lines(all);
    cr_assert_geq(nlines, 3, "%s", all);
    cr_expect_eq(find(0, "start", NULL), 0);
    cr_expect_gt(find(0, "connect", "\"team\":\"U\""), 0, "%s", all);
    cr_expect_eq(find(0, "end", NULL), nlines - 1);
    close(p);
    close(c);
    close(ls);
    unlink(path);
}

/* a runner's pipe as an inherited descriptor (fd:N): the lines arrive through it and it
 * closes when the server is gone (the gateways do not hold it) */
Test(runner_events, inherited_pipe, .timeout = 60)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    char arg[64];
    snprintf(arg, sizeof arg, "server::event_stream=fd:%d", p[1]);
    const char *args[] = { arg, "server::port=0", "server::coach_port=0",
                           "server::olcoach_port=0", NULL };
    e2e_srv_t s;
    cr_assert_eq(e2e_srv_start(&s, args, NULL), 0);
    close(p[1]);
    cr_expect_eq(e2e_srv_stop(&s), 0);
    static char all[65536];
    size_t have = 0;
    ssize_t n;
    while (have < sizeof all - 1 && (n = read(p[0], all + have, sizeof all - 1 - have)) > 0)
        have += (size_t)n;
    all[have] = '\0';
    cr_assert_gt(have, 0);
    cr_expect_eq(all[have - 1], '\n');
    split_lines(all);
    cr_expect_eq(find(0, "start", NULL), 0);
    cr_expect_eq(find(0, "end", NULL), nlines - 1);
    close(p[0]);
    e2e_srv_clean(&s);
    /* 0, 1, 2 are refused: stdout carries the reference's lines */
    const char *bad[] = { "server::event_stream=fd:1", NULL };
    cr_assert_eq(e2e_srv_start(&s, bad, NULL), 1);
    cr_expect_eq(s.status, 1);
    e2e_srv_clean(&s);
}
