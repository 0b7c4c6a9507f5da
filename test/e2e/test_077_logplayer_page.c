/* test_077_logplayer_page.c -- the log player's browser page (rcss-logplayer --http-port):
 * the same page and event stream as a live match's (sse.c, mgw_page.html), with the
 * replay's state as a "replay" event and controls that post the log player's commands:
 *   - over HTTP: GET / draws the current frame at once, GET /events streams the state and
 *     every frame the playback shows, POST /cmd applies each control (step, back, jump,
 *     faster, slower, play, pause, reverse, first, last) and answers with the status line,
 *     a bad command is a 400, a GET is refused; stdin commands reach the stream too;
 *     with --http-token a command needs the token;
 *   - in headless Chromium: the page shows the replay controls instead of the operator's,
 *     and clicking them (?do=..., one after the other, then the stream closed for a still
 *     page) moves the replay: the page's own record of what it drew (frame, time, ball
 *     and players drawn where the frame puts them) and of the replay state is checked. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "e2e_browser.h"
#include "e2e_http.h"
#include "e2e_lp.h"
#include "e2e_rcg.h"

static char buf[1 << 18];

/* read from fd into buf (after have bytes) until text appears or ms pass */
static size_t read_until(int fd, const char *text, size_t have, int ms)
{
    return e2e_read_until(fd, buf, sizeof buf, have, ms, text);
}

/* one request (Connection: close): the whole response in buf */
static void http(int port, const char *req)
{
    int fd = e2e_tcp_connect(port);
    cr_assert_eq(write(fd, req, strlen(req)), (ssize_t)strlen(req));
    read_until(fd, "\x01", 0, 1500); /* to the end: the server closes */
    close(fd);
}

static void post(int port, const char *cmd, const char *token)
{
    char req[512];
    snprintf(req, sizeof req, "POST /cmd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
             "%s%s%sContent-Length: %zu\r\n\r\n%s", token ? "X-Rcss-Token: " : "",
             token ? token : "", token ? "\r\n" : "", strlen(cmd), cmd);
    http(port, req);
}

/* the event stream: a connection reading /events, what it sent, how far it was read */
typedef struct stream {
    int    fd;
    size_t len, pos;
    char   data[1 << 18];
} stream_t;

static stream_t s;

static void stream_open(int port)
{
    const char *get = "GET /events HTTP/1.1\r\nHost: x\r\n\r\n";
    s.fd = e2e_tcp_connect(port);
    s.len = s.pos = 0;
    cr_assert_eq(write(s.fd, get, strlen(get)), (ssize_t)strlen(get));
}

/* read what comes within ms (at most): 0, or -1 when nothing came */
static int stream_read(int ms)
{
    if (s.len > sizeof s.data / 2) { /* keep room: drop what was read */
        memmove(s.data, s.data + s.pos, s.len - s.pos);
        s.len -= s.pos;
        s.pos = 0;
    }
    struct pollfd p = { .fd = s.fd, .events = POLLIN };
    if (poll(&p, 1, ms) <= 0)
        return -1;
    ssize_t n = read(s.fd, s.data + s.len, sizeof s.data - 1 - s.len);
    if (n <= 0)
        return -1;
    s.len += (size_t)n;
    s.data[s.len] = '\0';
    return 0;
}

/* wait for text in what the stream sent since the last match; 1 found, 0 not in ms */
static int stream_wait(const char *text, int ms)
{
    double end = e2e_now_ms() + ms;
    for (;;) {
        s.data[s.len] = '\0';
        const char *at = strstr(s.data + s.pos, text);
        if (at) {
            s.pos = (size_t)(at - s.data) + strlen(text);
            return 1;
        }
        int left = (int)(end - e2e_now_ms());
        if (left <= 0)
            return 0;
        stream_read(left < 100 ? left : 100);
    }
}

/* the time of the last show the stream sends within ms */
static int stream_last_time(int ms)
{
    double end = e2e_now_ms() + ms;
    int t = -1;
    while (e2e_now_ms() < end)
        stream_read(50);
    s.data[s.len] = '\0';
    for (const char *p = s.data + s.pos; (p = strstr(p, "data: {\"show\":{\"time\":")); p++)
        t = atoi(p + 22);
    s.pos = s.len;
    return t;
}

static void start(e2e_rec_t *r, e2e_lp_t *lp, const char *token)
{
    static char port[16];
    e2e_rec_match(r, 6, 0, NULL);
    snprintf(port, sizeof port, "%d", e2e_free_tcp_port());
    const char *extra[] = { "--http-port", port, token ? "--http-token" : NULL, token, NULL };
    cr_assert_eq(e2e_lp_start(lp, r->path, extra), 0);
    const char *l = e2e_lp_line(lp, 5000);
    cr_assert_not_null(l);
    cr_assert_eq(lp->http_port, atoi(port), "%s", l);
}

Test(logplayer_page, stream_and_every_control_over_http, .timeout = 90)
{
    e2e_rec_t r;
    e2e_lp_t lp;
    start(&r, &lp, NULL);
    int hp = lp.http_port;
    /* the page, with the current frame (the first: cycle 1) inlined for its first paint */
    http(hp, "GET / HTTP/1.0\r\n\r\n");
    cr_expect(strstr(buf, " 200 ") && strstr(buf, "text/html"), "%.200s", buf);
    cr_expect_not_null(strstr(buf, "const FIRST = {\"show\":{\"time\":1,"), "the frame inlined");
    cr_expect_not_null(strstr(buf, "id=\"replay\""), "the replay controls are on the page");

    stream_open(hp);
    cr_assert(stream_wait("data: {\"replay\":{\"cycle\":1,\"frame\":1,", 3000), "%.300s", s.data);
    cr_assert(stream_wait("data: {\"show\":{\"time\":1,", 3000), "%.300s", s.data + s.pos);
    /* each control: its status line as the reply, its frame and state on the stream */
    post(hp, "step", NULL);
    cr_expect(strstr(buf, " 200 ") && strstr(buf, "cycle 2 frame 2/"), "%s", buf);
    cr_expect(stream_wait("data: {\"show\":{\"time\":2,", 3000), "%.300s", s.data + s.pos);
    cr_expect(stream_wait("\"frame\":2,", 3000), "%.300s", s.data + s.pos);
    post(hp, "jump 20", NULL);
    cr_expect_not_null(strstr(buf, "cycle 20 "), "%s", buf);
    cr_expect(stream_wait("data: {\"show\":{\"time\":20,", 3000), "%.300s", s.data + s.pos);
    post(hp, "back 3", NULL);
    cr_expect(stream_wait("data: {\"show\":{\"time\":17,", 3000), "%.300s", s.data + s.pos);
    post(hp, "faster", NULL);
    cr_expect_not_null(strstr(buf, "paused forward x2"), "%s", buf);
    cr_expect(stream_wait("\"speed\":2,", 3000), "%.300s", s.data + s.pos);
    post(hp, "slower", NULL);
    cr_expect(stream_wait("\"speed\":1,", 3000), "%.300s", s.data + s.pos);
    post(hp, "play", NULL);
    cr_expect(stream_wait("\"playing\":true,\"dir\":\"forward\"", 3000), "%.300s", s.data + s.pos);
    int t1 = stream_last_time(600);
    post(hp, "pause", NULL);
    cr_expect(stream_wait("\"playing\":false", 3000), "%.300s", s.data + s.pos);
    cr_expect_gt(t1, 18, "played forward: %d", t1);
    post(hp, "reverse", NULL);
    cr_expect(stream_wait("\"playing\":true,\"dir\":\"backwards\"", 3000), "%.300s", s.data + s.pos);
    int t2 = stream_last_time(400);
    post(hp, "pause", NULL);
    cr_expect(t2 >= 0 && t2 < t1, "played backwards: %d after %d", t2, t1);
    post(hp, "last", NULL);
    cr_expect(stream_wait("\"mode\":\"time_over\"", 3000), "%.300s", s.data + s.pos);
    post(hp, "first", NULL);
    cr_expect(stream_wait("data: {\"show\":{\"time\":1,", 3000), "%.300s", s.data + s.pos);
    /* stdin commands reach the page too */
    cr_expect_not_null(strstr(e2e_lp_cmd(&lp, "jump 10"), "cycle 10 "));
    cr_expect(stream_wait("data: {\"show\":{\"time\":10,", 3000), "%.300s", s.data + s.pos);
    /* refusals: a bad command, quit (only from the terminal), a GET, another path */
    post(hp, "quit", NULL);
    cr_expect(strstr(buf, " 403 ") && strstr(buf, "error: quit only"), "%s", buf);
    post(hp, "bogus", NULL);
    cr_expect(strstr(buf, " 400 ") && strstr(buf, "error: "), "%s", buf);
    http(hp, "GET /cmd HTTP/1.0\r\n\r\n");
    cr_expect_not_null(strstr(buf, " 405 "), "%.100s", buf);
    http(hp, "GET /nothing HTTP/1.0\r\n\r\n");
    cr_expect_not_null(strstr(buf, " 404 "), "%.100s", buf);
    close(s.fd);
    e2e_lp_cmd(&lp, "quit");
    cr_expect_eq(e2e_lp_wait(&lp), 0);
    e2e_rec_free(&r);
}

Test(logplayer_page, token_guards_the_controls, .timeout = 60)
{
    e2e_rec_t r;
    e2e_lp_t lp;
    start(&r, &lp, "s3cret");
    post(lp.http_port, "step", NULL);
    cr_expect_not_null(strstr(buf, " 403 "), "%s", buf);
    post(lp.http_port, "step", "wrong");
    cr_expect_not_null(strstr(buf, " 403 "), "%s", buf);
    post(lp.http_port, "step", "s3cret");
    cr_expect(strstr(buf, " 200 ") && strstr(buf, "frame 2/"), "%s", buf);
    e2e_lp_cmd(&lp, "quit");
    cr_expect_eq(e2e_lp_wait(&lp), 0);
    e2e_rec_free(&r);
}

/* Chromium loads the page, clicks the controls listed, closes the stream; the DOM after:
 * the page's record of what it drew (<pre id="state">) into buf */
static const char *browse(const e2e_rec_t *r, int port, const char *controls)
{
    char url[512];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/?do=%s,close", port, controls);
    cr_assert_eq(e2e_chromium_dom(r->d.dir, url, "--virtual-time-budget=8000", buf, sizeof buf),
                 0, "chromium (scripts/install-deps.sh installs it)");
    cr_assert_not_null(strstr(buf, "data-done=\"1\""), "the controls were clicked: %.300s",
                       strstr(buf, "<div id=\"replay\"") ? strstr(buf, "<div id=\"replay\"") : buf);
    const char *state = strstr(buf, "<pre id=\"state\">");
    cr_assert_not_null(state);
    return state;
}

Test(logplayer_page, controls_in_headless_chromium, .timeout = 120)
{
    e2e_rec_t r;
    e2e_lp_t lp;
    start(&r, &lp, NULL);
    rcg_t g;
    char err[256];
    cr_assert_eq(rcg_read_file(r.path, &g, err, sizeof err), 0, "%s", err);
    int n = g.n_frames;
    char want[128];
    /* step twice from the first frame: cycle 3 of the kick-off, players and ball drawn */
    const char *st = browse(&r, lp.http_port, "first,step,step");
    cr_expect_not_null(strstr(st, "time 3\nmode kick_off_l\nteam Red 0 Blue 0\n"), "%.500s", st);
    cr_expect_not_null(strstr(st, "ball 0.00 0.00 drawn true"), "%.500s", st);
    cr_expect_not_null(strstr(st, "player l 1 "), "%.500s", st);
    cr_expect_null(strstr(st, "drawn false"), "%.500s", st);
    snprintf(want, sizeof want, "replay frame 3/%d paused forward x1", n);
    cr_expect_not_null(strstr(st, want), "%.500s", st);
    cr_expect_not_null(strstr(buf, "<details id=\"ops\" hidden"), "no operator panel on a replay");
    /* the jump field, back, faster twice, slower */
    st = browse(&r, lp.http_port, "jump=20,back,faster,faster,slower");
    snprintf(want, sizeof want, "replay frame %d/%d paused forward x2", rcg_frame_at(&g, 20), n);
    cr_expect_not_null(strstr(st, "time 19\n"), "%.500s", st);
    cr_expect_not_null(strstr(st, want), "%s: %.500s", want, st);
    /* play, five frames drawn, pause: on from frame 1 */
    st = browse(&r, lp.http_port, "first,play,frames=5,pause");
    int frame = 0;
    const char *rp = strstr(st, "replay frame ");
    cr_assert_not_null(rp, "%.500s", st);
    frame = atoi(rp + 13);
    cr_expect_geq(frame, 6, "played on: %.500s", st);
    cr_expect_not_null(strstr(st, "paused forward"), "%.500s", st);
    /* from the last frame backwards */
    st = browse(&r, lp.http_port, "last,reverse,frames=5,pause");
    rp = strstr(st, "replay frame ");
    cr_assert_not_null(rp);
    cr_expect_leq(atoi(rp + 13), n - 5, "played backwards: %.500s", st);
    cr_expect_not_null(strstr(st, "paused backwards"), "%.500s", st);
    rcg_free(&g);
    e2e_lp_cmd(&lp, "quit");
    cr_expect_eq(e2e_lp_wait(&lp), 0);
    e2e_rec_free(&r);
}
