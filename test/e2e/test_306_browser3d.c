/* test_306_browser3d.c -- the 3D browser view: rcss3d-monitorgw serves the page and a
 * server-sent-events stream of JSON frames on server::http_port. A trainer sets a scene
 * (gravity off, so the ball stays 1.5 m up); the stream carries it, and headless
 * Chromium (Debian's chromium, a test dependency of the browser monitor) loads the page,
 * whose own record of what it drew (the canvas pixel where the ball, lifted by its
 * height, and the robot are) must match. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "e2e.h"
#include "e2e3d.h"
#include "e2e_browser.h"

static char buf[1 << 16], rbuf[1 << 16];

static int free_port(void)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    socklen_t l = sizeof a;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    bind(fd, (struct sockaddr *)&a, sizeof a);
    getsockname(fd, (struct sockaddr *)&a, &l);
    close(fd);
    return ntohs(a.sin_port);
}

/* an HTTP GET; what arrived until text was in it (or ms passed / the server closed) */
static size_t http_get(int port, const char *path, const char *text, int ms)
{
    int fd = e2e3d_connect(port);
    cr_assert_geq(fd, 0);
    char req[256];
    snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path);
    cr_assert_eq(write(fd, req, strlen(req)), (ssize_t)strlen(req));
    size_t have = 0;
    double end = e2e_now_ms() + ms;
    buf[0] = '\0';
    while (e2e_now_ms() < end && have < sizeof buf - 1 && !strstr(buf, text)) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t n = read(fd, buf + have, sizeof buf - 1 - have);
        if (n <= 0)
            break;
        have += (size_t)n;
        buf[have] = '\0';
    }
    close(fd);
    return have;
}

Test(browser3d, page_stream_and_drawing, .timeout = 60)
{
    int hport = free_port();
    char a_http[64];
    snprintf(a_http, sizeof a_http, "server::http_port=%d", hport);
    const char *args[] = { a_http, "soccer::Gravity=0", "soccer::WaitBeforeKickOff=-1", NULL };
    e2e3d_server_t s;
    cr_assert_eq(e2e3d_start(&s, args), 0);
    int ag = e2e3d_connect(s.agent_port);
    e2e3d_send(ag, "(create)(init (unum 4) (teamname Viewed))");
    int t = e2e3d_monitor(s.monitor_port);
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    cr_assert_eq(e2e3d_recv_containing(t, &r, "(P (s 0)(id 4)", 3000, &m), 1);
    e2e3d_send(t, "((ball (pos 10 5 1.5))(agent (team L)(unum 4)(pos -20 10 0.22))(getAck set))");
    cr_assert_eq(e2e3d_recv_prefix(t, &r, "(Info (ack set))", 3000, &m), 1);
    cr_assert_eq(e2e3d_recv_prefix(t, &r, "(Info (time", 3000, &m), 1);
    /* the page, and the stream */
    http_get(hport, "/", "</html>", 3000);
    cr_expect(strstr(buf, "HTTP/1.1 200") && strstr(buf, "<canvas id=\"field\""), "the page");
    http_get(hport, "/events", "\"ball\":[10,5,1.5]", 3000);
    cr_expect(strstr(buf, "text/event-stream") != NULL);
    cr_expect(strstr(buf, "data: {\"time\":0,\"half\":1,\"mode\":\"BeforeKickOff\",\"score\":[0,0],"
                          "\"teams\":[\"Viewed\",\"\"],\"field\":[104,68,7.32,2,0.5,0.22,0.111,9.15],"
                          "\"ball\":[10,5,1.5],\"robots\":[{\"side\":0,\"unum\":4,\"pos\":[-20,10,0.22],")
              != NULL, "%s", buf);
    http_get(hport, "/nothing", "404", 3000);
    cr_expect(strstr(buf, "404") != NULL);
    /* what the page draws */
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", hport);
    cr_assert_eq(e2e_chromium_dom(s.dir, url, "--timeout=3000", buf, sizeof buf), 0, "chromium");
    cr_expect(strstr(buf, "ball 10.00 5.00 1.50 drawn true") != NULL, "the ball, lifted: %.3000s", buf);
    cr_expect(strstr(buf, "robot 0 4 -20.00 10.00 drawn true") != NULL, "the robot");
    /* 1200 x 800 with a full field of robots: it fits */
    int more[21];
    for (int i = 0; i < 21; i++) {
        char init[96];
        more[i] = e2e3d_connect(s.agent_port);
        snprintf(init, sizeof init, "(create)(init (unum %d) (teamname %s))", i < 10 ? i + 5 : i - 9,
                 i < 10 ? "Viewed" : "Other");
        e2e3d_send(more[i], init);
    }
    cr_assert_eq(e2e3d_recv_containing(t, &r, "(P (s 1)(id 11)", 3000, &m), 1, "22 robots");
    cr_assert_eq(e2e_chromium_dom_size(s.dir, url, "--timeout=3000", 1200, 800, buf, sizeof buf), 0);
    int w = 0, h = 0, sw = 0, sh = 0, cw = 0, ch = 0, bottom = 0;
    const char *pg = strstr(buf, "page ");
    cr_assert(pg && sscanf(pg, "page %d %d scroll %d %d canvas %d %d bottom %d", &w, &h, &sw, &sh,
                           &cw, &ch, &bottom) == 7, "the page's record: %.2000s", buf);
    cr_expect(sw <= w && sh <= h, "no scrollbar: the page is %d x %d in a %d x %d window", sw, sh, w, h);
    cr_expect(bottom <= h, "the whole field in view: it ends at %d of %d", bottom, h);
    cr_expect(cw >= 1000 && ch >= 550, "and it is not small: %d x %d", cw, ch);
    cr_expect(strstr(buf, "robot 1 11 ") != NULL && strstr(buf, "drawn false") == NULL,
              "every robot drawn: %.3000s", buf);
    for (int i = 0; i < 21; i++)
        close(more[i]);
    close(t);
    close(ag);
    cr_expect_eq(e2e3d_stop(&s), 0);
    e2e3d_cleanup(&s);
}
