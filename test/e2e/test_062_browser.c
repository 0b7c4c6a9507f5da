/* test_062_browser.c -- the browser monitor (issue 9): monitorgw serves the page and a
 * server-sent-events stream of JSON frames on server::http_port. Headless Chromium
 * (Debian's chromium, installed by scripts/install-deps.sh) loads the page during a
 * match whose scene a trainer set, and the page's own record of what it drew (the
 * canvas pixel under the ball and each player) must match the snapshot. Also: the
 * stream itself, the broadcast delay, and referee commands from the page only with
 * the operator token. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_browser.h"
#include "e2e_http.h"
#include "e2e_lp.h"
#include "e2e_trainer.h"

static char buf[65536];

/* read from fd into buf until text appears or timeout_ms passes; bytes read */
static size_t read_until(int fd, const char *text, size_t have, int timeout_ms)
{
    return e2e_read_until(fd, buf, sizeof buf, have, timeout_ms, text);
}

/* one HTTP request; the whole response in buf */
static void http(int port, const char *req)
{
    int fd = e2e_tcp_connect(port);
    cr_assert_eq(write(fd, req, strlen(req)), (ssize_t)strlen(req));
    size_t n = read_until(fd, "\r\n\r\n", 0, 3000);
    read_until(fd, "\n)", n, 1000); /* the body: one s-expression line */
    close(fd);
}

static void post_cmd(int port, const char *cmd, const char *token)
{
    char req[512];
    snprintf(req, sizeof req, "POST /cmd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
             "%s%s%sContent-Length: %zu\r\n\r\n%s", token ? "X-Rcss-Token: " : "",
             token ? token : "", token ? "\r\n" : "", strlen(cmd), cmd);
    http(port, req);
}

/* Past what is queued on the stream fd, its next show frame whole (from "data: " to the
 * blank line that ends the event) into buf: the time it shows, -1 if none came in 2 s */
static int next_frame_time(int fd)
{
    static const char data[] = "data: {\"show\":{\"time\":";
    struct pollfd pf = { .fd = fd, .events = POLLIN };
    while (poll(&pf, 1, 0) > 0 && read(fd, buf, sizeof buf - 1) > 0)
        ;
    size_t have = e2e_read_until(fd, buf, sizeof buf, 0, 2000, data);
    const char *d = strstr(buf, data);
    if (!d)
        return -1;
    have -= (size_t)(d - buf);
    memmove(buf, d, have + 1);
    e2e_read_until(fd, buf, sizeof buf, have, 2000, "\n\n");
    int t = -1;
    if (strstr(buf, "\n\n"))
        sscanf(buf + strlen(data), "%d", &t);
    return t;
}

static void start(e2e_server_t *s, int *hport, const char *delay)
{
    static char a_port[64], a_delay[64];
    *hport = e2e_free_tcp_port();
    snprintf(a_port, sizeof a_port, "server::http_port=%d", *hport);
    snprintf(a_delay, sizeof a_delay, "server::http_delay=%s", delay);
    const char *args[] = { a_port, a_delay, "server::http_token=s3cret", "server::coach=true", NULL };
    cr_assert_eq(e2e_server_start(s, args), 0);
}

Test(browser, page_draws_players_and_ball_where_the_snapshot_puts_them, .timeout = 90)
{
    e2e_server_t s;
    int hport;
    start(&s, &hport, "0");
    int pl[2], port;
    const char *init[2] = { "(init TeamA (version 19))", "(init TeamB (version 19))" };
    for (int k = 0; k < 2; k++) {
        pl[k] = e2e_udp_open();
        e2e_send(pl[k], s.port, init[k]);
        cr_assert_gt(e2e_recv_prefix(pl[k], "(init ", buf, sizeof buf, 2000, &port), 0);
    }
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_assert_eq(e2e_trainer_move_ball(&t, 12.5, -7.25, 0, 0), 0);
    cr_assert_eq(e2e_trainer_move_player(&t, "TeamA", 1, -10, 5, 0, 0, 0), 0);
    cr_assert_eq(e2e_trainer_move_player(&t, "TeamB", 1, 30, 20, 90, 0, 0), 0);
    e2e_world_t w;
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 2, &w), 0);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", hport);
    cr_assert_eq(e2e_chromium_dom(s.dir, url, "--timeout=3000", buf, sizeof buf), 0,
                 "chromium (scripts/install-deps.sh installs it)");
    const char *state = strstr(buf, "<pre id=\"state\">");
    cr_assert_not_null(state, "the page: %.300s", buf);
    /* what the page drew: positions from the frame, pixel colour checked on the canvas */
    cr_expect(strstr(state, "team TeamA 0 TeamB 0") != NULL, "%.400s", state);
    cr_expect(strstr(state, "ball 12.50 -7.25 drawn true") != NULL, "%.400s", state);
    cr_expect(strstr(state, "player l 1 -10.00 5.00 state 1 drawn true") != NULL, "%.400s", state);
    cr_expect(strstr(state, "player r 1 30.00 20.00 state 1 drawn true") != NULL, "%.400s", state);
    cr_expect(strstr(state, "mode before_kick_off") != NULL, "%.400s", state);
    e2e_trainer_close(&t);
    for (int k = 0; k < 2; k++)
        close(pl[k]);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(browser, event_stream_delay_and_operator_token, .timeout = 60)
{
    e2e_server_t s;
    int hport;
    start(&s, &hport, "10");
    http(hport, "GET / HTTP/1.0\r\n\r\n");
    cr_expect(strstr(buf, "HTTP/1.") == buf && strstr(buf, " 200 ") != NULL, "%.100s", buf);
    cr_expect(strstr(buf, "text/html") != NULL);
    /* the page cannot start the match without the token, or with a wrong one */
    post_cmd(hport, "(dispstart)", NULL);
    cr_expect(strstr(buf, " 403 ") != NULL, "%.200s", buf);
    cr_expect(strstr(buf, "(error referee_commands_need_operator_rights)") != NULL, "%.300s", buf);
    post_cmd(hport, "(dispstart)", "wrong");
    cr_expect(strstr(buf, " 403 ") != NULL);
    post_cmd(hport, "(bogus)", "s3cret");
    cr_expect(strstr(buf, " 400 ") != NULL && strstr(buf, "(error illegal_command_form)"), "%.300s", buf);
    /* a viewer on the stream: before kick-off, time 0 (after the 10-cycle delay) */
    int ev = e2e_tcp_connect(hport);
    const char *get = "GET /events HTTP/1.1\r\nHost: x\r\n\r\n";
    cr_assert_eq(write(ev, get, strlen(get)), (ssize_t)strlen(get));
    size_t got = read_until(ev, "data: {\"show\":{\"time\":0,", 0, 5000);
    cr_assert(strstr(buf, "text/event-stream") != NULL, "%.200s", buf);
    cr_assert(strstr(buf, "data: {\"show\":{\"time\":0,") != NULL, "%.300s", buf);
    (void)got;
    post_cmd(hport, "(dispstart)", "s3cret");
    cr_expect(strstr(buf, " 200 ") != NULL && strstr(buf, "(ok)"), "%.300s", buf);
    /* a UDP monitor sees the live time; the stream shows the match 10 cycles later */
    int mon = e2e_udp_open(), live = 0;
    e2e_send(mon, s.port, "(dispinit version 3)");
    while (live < 20) {
        cr_assert_gt(e2e_recv_prefix(mon, "(show ", buf, sizeof buf, 2000, NULL), 0);
        sscanf(buf, "(show %d ", &live);
    }
    /* both sides read right after one cycle's fan-out (which sends the live frame and the
     * delayed one together): the stream's next frame once it is whole, then the monitor's
     * datagrams (monitorgw sends them before the stream's frame); the newest times differ
     * by the delay */
    int shown = next_frame_time(ev);
    cr_assert_geq(shown, 0, "no whole frame on the stream: %.300s", buf);
    while (e2e_recv(mon, buf, sizeof buf, 0, NULL) > 0)
        sscanf(buf, "(show %d ", &live);
    cr_expect(shown > 0 && live - shown >= 9 && live - shown <= 11,
              "stream at %d, live at %d: 10 cycles late", shown, live);
    close(ev);
    close(mon);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
