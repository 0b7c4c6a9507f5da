/* test_083_makerun.c -- issue 11: "`make run` shows a live match in the browser within a
 * minute". After the build, `make run` is scripts/demo.sh with the built programs; the
 * test runs it as the Makefile does (real time, SYNCH unset, as a newcomer gets it) on
 * free ports (PORT=, HTTP_PORT=, bound to 127.0.0.1 through DEMO_ARGS) with its logs in
 * a private LOG_DIR, waits for the URL it prints and opens that URL in headless
 * Chromium (Debian's chromium, installed by scripts/install-deps.sh):
 *  - the page (--dump-dom: the page's own record of what it drew, as test_062 reads it)
 *    shows DemoLeft against DemoRight in play_on, all 22 players and the ball drawn,
 *    the stream connected, within 60 s of the start;
 *  - two screenshots (--screenshot, read with e2e_png) show the pitch and the players
 *    in both side colours where a match puts them, and differ: the match moves;
 *  - Ctrl-C (SIGINT to demo.sh) stops it: every process it started (server, gateways,
 *    recorder, both teams: found by PID under demo.sh) is gone, the shm region removed,
 *    and the match's game and text logs are kept in LOG_DIR under their final names.
 * RCSS_E2E_KEEP=1 keeps the working directory (screenshots, page dumps, logs). */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_browser.h"
#include "e2e_png.h"
#include "e2e_proc.h"
#include "e2e_runner.h"

#define LIVE_WITHIN_MS 60000    /* the promise: a live match within a minute */
#define MAX_PIDS       64

/* the page's colours (monitorgw/web/mgw_page.html, COL): grass, sides, goalies */
#define C_GRASS 0x287828L
#define C_L     0xffd23fL
#define C_R     0xff5a5aL
#define C_LG    0x3cdc78L
#define C_RG    0xbe5affL
/* the canvas is 1150 x 780 px for 115 x 78 m (the pitch and 5 m around it): 10 px/m;
 * a player is a disc of 1.1 m radius, about 380 px; a blob of 80 px of a side colour
 * is a player (the direction and neck lines, the number and other players cover less) */
#define CANVAS_W 1150
#define CANVAS_H 780
#define PX_PER_M 10.0
#define MIN_BLOB 80

static char dir[256], buf[1 << 17], line[4096];

typedef struct blob {
    long   colour;
    int    n;
    double x, y;          /* centre in metres, (0, 0) the centre spot, y down as drawn */
} blob_t;

/* -------- the demo: scripts/demo.sh on a pipe -------- */

/* a base port with base, base+1, base+2 free (UDP on 127.0.0.1), as demo.sh uses them */
static int free_port_triple(void)
{
    for (int tries = 0; tries < 50; tries++) {
        int fds[3] = { -1, -1, -1 }, ok = 1, base = 0;
        for (int i = 0; i < 3 && ok; i++) {
            fds[i] = socket(AF_INET, SOCK_DGRAM, 0);
            struct sockaddr_in a = { .sin_family = AF_INET,
                                     .sin_port = htons((uint16_t)(i ? base + i : 0)) };
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            socklen_t l = sizeof a;
            ok = bind(fds[i], (struct sockaddr *)&a, sizeof a) == 0 &&
                 getsockname(fds[i], (struct sockaddr *)&a, &l) == 0;
            if (i == 0)
                base = ntohs(a.sin_port);
            ok = ok && base < 65000;
        }
        for (int i = 0; i < 3; i++)
            if (fds[i] >= 0)
                close(fds[i]);
        if (ok)
            return base;
    }
    return -1;
}

static int free_tcp_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t l = sizeof a;
    cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    getsockname(fd, (struct sockaddr *)&a, &l);
    close(fd);
    return ntohs(a.sin_port);
}

/* scripts/demo.sh of the source tree ($RCSS_BIN_DIR is BUILD/bin in it) */
static void demo_script(char *out, size_t len)
{
    const char *bindir = getenv("RCSS_BIN_DIR");
    snprintf(out, len, "%s/../../scripts/demo.sh", bindir ? bindir : "build/bin");
    if (access(out, R_OK) != 0)
        snprintf(out, len, "scripts/demo.sh");
}

/* start demo.sh with its stdout on p's pipe, as `make run PORT=port HTTP_PORT=hport` */
static void demo_start(e2e_proc_t *p, int port, int hport)
{
    char script[600], env_port[16], env_http[16], logs[300];
    const char *bindir = getenv("RCSS_BIN_DIR");
    demo_script(script, sizeof script);
    snprintf(env_port, sizeof env_port, "%d", port);
    snprintf(env_http, sizeof env_http, "%d", hport);
    snprintf(logs, sizeof logs, "%s/logs", dir);
    int out[2];
    cr_assert_eq(pipe2(out, O_CLOEXEC), 0);
    memset(p, 0, sizeof *p);
    p->in = -1;
    p->pid = fork();
    cr_assert_geq(p->pid, 0);
    if (p->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        /* a shell cannot trap a signal ignored at its start: give it Ctrl-C back even
         * if this test runs in the background */
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        int null = open("/dev/null", O_RDONLY);
        dup2(null, 0);
        dup2(out[1], 1);
        setenv("PORT", env_port, 1);
        setenv("HTTP_PORT", env_http, 1);
        setenv("LOG_DIR", logs, 1);
        setenv("DEMO_ARGS", "server::bind_address=127.0.0.1", 1);
        unsetenv("SYNCH");
        execl("/bin/bash", "bash", script, bindir ? bindir : "build/bin", (char *)NULL);
        fprintf(stderr, "e2e: exec bash %s: %s\n", script, strerror(errno));
        _exit(127);
    }
    close(out[1]);
    p->out = out[0];
}

/* the pids of every process under root (its children, theirs, ...), from /proc */
static int descendants(pid_t root, pid_t *out, int max)
{
    pid_t pid[4096], ppid[4096];
    int n = 0, k = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && n < 4096) {
        char path[300], st[512];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t len = fread(st, 1, sizeof st - 1, f);
        fclose(f);
        st[len] = '\0';
        char *rp = strrchr(st, ')');   /* "pid (comm) state ppid ...": comm may hold blanks */
        int pp;
        if (rp && sscanf(rp + 2, "%*c %d", &pp) == 1) {
            pid[n] = atoi(e->d_name);
            ppid[n++] = pp;
        }
    }
    if (d)
        closedir(d);
    out[k++] = root;
    for (int i = 0; i < k; i++)          /* breadth first: out grows while we walk it */
        for (int j = 0; j < n && k < max; j++)
            if (ppid[j] == out[i])
                out[k++] = pid[j];
    return k;
}

/* the process has left: no such pid, or only its zombie entry is left */
static int gone(pid_t pid)
{
    for (int i = 0; i < 500; i++) {
        char path[64], st[256];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        FILE *f = fopen(path, "r");
        if (!f)
            return 1;
        size_t len = fread(st, 1, sizeof st - 1, f);
        fclose(f);
        st[len] = '\0';
        char *rp = strrchr(st, ')');
        if (rp && rp[1] == ' ' && rp[2] == 'Z')
            return 1;
        usleep(10000);
    }
    return 0;
}

/* the match time /status on the server's HTTP port shows, -1 if it does not answer */
static int match_time(int hport)
{
    static char st[1 << 16];
    if (e2e_http_get(hport, "/status", st, sizeof st) != 200)
        return -1;
    return (int)e2e_json_num(st, "time", -1);
}

/* -------- the page -------- */

/* the page's state record (<pre id="state">) into buf; 0 or -1 */
static int page_state(const char *url)
{
    if (e2e_chromium_dom(dir, url, "--timeout=3000", buf, sizeof buf) != 0)
        return -1;
    return strstr(buf, "<pre id=\"state\">") ? 0 : -1;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

/* players the page says it did not draw, and no other player stands on (two discs of
 * 1.1 m closer than 2.2 m overlap: the one drawn later covers the other's pixels) */
static int count_hidden(const char *st)
{
    double x[32], y[32];
    int drawn[32], n = 0, hidden = 0;
    for (const char *p = st; (p = strstr(p, "\nplayer ")) != NULL && n < 32; p++) {
        char d[8] = "";
        if (sscanf(p, "\nplayer %*c %*d %lf %lf state %*d drawn %7[a-z]", &x[n], &y[n], d) == 3) {
            drawn[n] = strcmp(d, "true") == 0;
            n++;
        }
    }
    for (int i = 0; i < n; i++) {
        int covered = 0;
        for (int j = 0; j < n && !drawn[i] && !covered; j++)
            covered = j != i &&
                      (x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j]) < 2.2 * 2.2;
        hidden += !drawn[i] && !covered;
    }
    return n == 22 ? hidden : 99;
}

/* -------- the screenshot -------- */

/* the canvas: the bounding box of the grass colour, which fills it before anything else */
static void canvas_box(const e2e_png_t *img, int *x0, int *y0, int *x1, int *y1)
{
    *x0 = img->w, *y0 = img->h, *x1 = -1, *y1 = -1;
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w; x++)
            if (e2e_png_at(img, x, y) == C_GRASS) {
                *x0 = x < *x0 ? x : *x0, *x1 = x > *x1 ? x : *x1;
                *y0 = y < *y0 ? y : *y0, *y1 = y > *y1 ? y : *y1;
            }
}

/* another player's stamina bar, number or outline drawn across a disc cuts it in pieces
 * whose centres lie about one radius (1.1 m) apart. Merges such pieces (merging two
 * players that close only lowers the count, which check_shot allows for); returns the
 * new count. */
static int merge_pieces(blob_t *b, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double dx = b[i].x - b[j].x, dy = b[i].y - b[j].y;
            if (b[i].colour != b[j].colour || dx * dx + dy * dy > 1.3 * 1.3)
                continue;
            int m = b[i].n + b[j].n;
            b[i].x = (b[i].x * b[i].n + b[j].x * b[j].n) / m;
            b[i].y = (b[i].y * b[i].n + b[j].y * b[j].n) / m;
            b[i].n = m;
            b[j--] = b[--n];
        }
    return n;
}

/* the connected areas (4-neighbours) of each player colour on the canvas */
static int find_blobs(const e2e_png_t *img, blob_t *out, int max)
{
    static const long colours[] = { C_L, C_R, C_LG, C_RG };
    int x0, y0, x1, y1, n = 0;
    canvas_box(img, &x0, &y0, &x1, &y1);
    cr_assert(x1 - x0 + 1 == CANVAS_W && y1 - y0 + 1 == CANVAS_H,
              "the pitch (canvas) is %dx%d px at %d,%d", x1 - x0 + 1, y1 - y0 + 1, x0, y0);
    size_t area = (size_t)img->w * (size_t)img->h;
    unsigned char *seen = calloc(area, 1);
    int *stack = malloc(area * sizeof *stack);
    cr_assert(seen && stack);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            long c = e2e_png_at(img, x, y);
            size_t i = (size_t)y * (size_t)img->w + (size_t)x;
            int side = -1;
            for (int k = 0; k < 4; k++)
                side = c == colours[k] ? k : side;
            if (side < 0 || seen[i])
                continue;
            int top = 0, cnt = 0;
            double sx = 0, sy = 0;
            stack[top++] = (int)i;
            seen[i] = 1;
            while (top > 0) {
                int j = stack[--top], jx = j % img->w, jy = j / img->w;
                cnt++, sx += jx, sy += jy;
                const int nx[4] = { jx - 1, jx + 1, jx, jx }, ny[4] = { jy, jy, jy - 1, jy + 1 };
                for (int k = 0; k < 4; k++) {
                    if (nx[k] < x0 || nx[k] > x1 || ny[k] < y0 || ny[k] > y1)
                        continue;
                    int q = ny[k] * img->w + nx[k];
                    if (!seen[q] && e2e_png_at(img, nx[k], ny[k]) == c) {
                        seen[q] = 1;
                        stack[top++] = q;
                    }
                }
            }
            if (cnt >= MIN_BLOB && n < max)
                out[n++] = (blob_t){ c, cnt, (sx / cnt - x0 - CANVAS_W / 2.0) / PX_PER_M,
                                     (sy / cnt - y0 - CANVAS_H / 2.0) / PX_PER_M };
        }
    free(seen);
    free(stack);
    return merge_pieces(out, n);
}

/* what a match on the screen looks like: both teams there, each goalie in its own half,
 * the left team on the whole to the left of the right team (their formations keep each
 * side's players in or near their own half) */
static int check_shot(const char *path, blob_t *b, int max)
{
    e2e_png_t img;
    char err[200];
    cr_assert_eq(e2e_png_read(&img, path, err, sizeof err), 0, "%s: %s", path, err);
    int n = find_blobs(&img, b, max);
    e2e_png_free(&img);
    int nl = 0, nr = 0, ngl = 0, ngr = 0;
    double mean_l = 0, mean_r = 0;
    for (int i = 0; i < n; i++) {
        cr_expect(b[i].x > -57.5 && b[i].x < 57.5 && b[i].y > -39 && b[i].y < 39);
        if (b[i].colour == C_L) {
            nl++;
            mean_l += b[i].x;
        } else if (b[i].colour == C_R) {
            nr++;
            mean_r += b[i].x;
        } else if (b[i].colour == C_LG) {
            ngl++;
            cr_expect(b[i].x < 0, "%s: left goalie at x %.1f", path, b[i].x);
        } else {
            ngr++;
            cr_expect(b[i].x > 0, "%s: right goalie at x %.1f", path, b[i].x);
        }
    }
    /* ten field players a side; two overlapping discs may count as one */
    cr_expect(nl >= 7 && nl <= 10, "%s: %d left players drawn", path, nl);
    cr_expect(nr >= 7 && nr <= 10, "%s: %d right players drawn", path, nr);
    /* a goalie shows (a forward standing on the other may hide it) */
    cr_expect(ngl <= 1 && ngr <= 1 && ngl + ngr >= 1, "%s: goalies drawn %d %d", path, ngl,
              ngr);
    if (nl && nr)
        cr_expect(mean_l / nl < mean_r / nr, "%s: left team around x %.1f, right %.1f",
                  path, mean_l / nl, mean_r / nr);
    return n;
}

/* blobs of b that have no blob of the same colour within 0.2 m in a: players that moved */
static int moved(const blob_t *a, int na, const blob_t *b, int nb)
{
    int m = 0;
    for (int i = 0; i < nb; i++) {
        int same = 0;
        for (int j = 0; j < na && !same; j++)
            same = a[j].colour == b[i].colour && (a[j].x - b[i].x) * (a[j].x - b[i].x) +
                   (a[j].y - b[i].y) * (a[j].y - b[i].y) < 0.04;
        m += !same;
    }
    return m;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

/* -------- the test -------- */

Test(makerun, browser_shows_a_live_match_and_ctrl_c_stops_everything, .timeout = 240)
{
    static e2e_proc_t demo;
    static blob_t a[64], b[64];
    snprintf(dir, sizeof dir, "/tmp/rcss-e2e-makerun-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    int port = free_port_triple(), hport = free_tcp_port(), server = 0, teams[2] = { 0, 0 };
    cr_assert_gt(port, 0);
    double t0 = e2e_now_ms();
    demo_start(&demo, port, hport);

    /* what it prints: the match, then where to watch */
    cr_assert(e2e_proc_expect(&demo, "demo: a match between", line, sizeof line, 60000),
              "demo.sh printed no start line");
    const char *pids = strstr(line, "(server pid ");
    cr_assert(pids && sscanf(pids, "(server pid %d, teams %d %d)", &server, &teams[0],
                             &teams[1]) == 3, "%s", line);
    cr_assert(e2e_proc_expect(&demo, "watch it:", line, sizeof line, 5000));
    char url[128];
    cr_assert_eq(sscanf(strstr(line, "http://"), "%127s", url), 1, "%s", line);
    char want[64];
    snprintf(want, sizeof want, "http://localhost:%d/", hport);
    cr_assert_str_eq(url, want);

    /* the page: a live match within a minute of `make run` */
    int live = 0, t1 = -1, t2 = -1;
    while (!live && e2e_now_ms() - t0 < LIVE_WITHIN_MS) {
        /* play_on (the frame inlined in the page shows it too) and the page's own
         * stream connected: a loaded machine may dump the page before the stream is up */
        live = page_state(url) == 0 && strstr(buf, "mode play_on") != NULL
               && strstr(buf, "id=\"conn\">live<") != NULL;
        if (!live)
            usleep(500000);
    }
    cr_assert(live, "no match in play_on on the page %.0f s after the start: %.600s",
              (e2e_now_ms() - t0) / 1000, buf);
    cr_log_info("make run: play_on in the browser %.1f s after the start\n",
                (e2e_now_ms() - t0) / 1000);
    const char *st = strstr(buf, "<pre id=\"state\">");
    cr_expect(sscanf(st, "<pre id=\"state\">time %d", &t1) == 1 && t1 > 0, "%.300s", st);
    cr_expect(strstr(st, "team DemoLeft ") && strstr(st, " DemoRight "), "%.300s", st);
    cr_expect(strstr(buf, "id=\"conn\">live<") != NULL, "the page's stream is not connected");
    const char *ball = strstr(st, "\nball ");
    cr_expect(ball && strstr(ball, "drawn true") < strstr(ball + 1, "\n"), "%.300s", st);
    cr_expect_eq(count(st, "player l "), 11, "%.2000s", st);
    cr_expect_eq(count(st, "player r "), 11, "%.2000s", st);
    cr_expect_eq(count_hidden(st), 0, "players neither drawn nor covered: %.2000s", st);

    /* two screenshots a moment apart: a match on the pitch, and it moves */
    char shot1[300], shot2[300];
    snprintf(shot1, sizeof shot1, "%s/shot1.png", dir);
    snprintf(shot2, sizeof shot2, "%s/shot2.png", dir);
    cr_assert_eq(e2e_chromium_shot(dir, url, shot1), 0, "chromium --screenshot");
    /* the match goes on between the two: 15 cycles (1.5 s of play) after the first */
    int from = match_time(hport), now = from;
    cr_assert_geq(from, 0, "no /status on the HTTP port");
    for (double end = e2e_now_ms() + 10000; now < from + 15 && e2e_now_ms() < end;
         usleep(100000))
        now = match_time(hport);
    cr_assert_geq(now, from + 15, "the match time stays at %d (from %d)", now, from);
    cr_assert_eq(e2e_chromium_shot(dir, url, shot2), 0, "chromium --screenshot");
    int na = check_shot(shot1, a, 64), nb = check_shot(shot2, b, 64);
    cr_expect_geq(moved(a, na, b, nb), 3, "the second screenshot shows the same picture");
    cr_assert_eq(page_state(url), 0);
    cr_expect(sscanf(strstr(buf, "<pre id=\"state\">"), "<pre id=\"state\">time %d", &t2) == 1
              && t2 > t1, "the page's time went from %d to %d", t1, t2);

    /* Ctrl-C: everything it started stops; the logs stay */
    pid_t all[MAX_PIDS];
    int n = descendants(demo.pid, all, MAX_PIDS);
    cr_expect_geq(n, 7, "demo.sh, server, netgw, monitorgw, recorder, two teams: %d", n);
    int found = 0;
    for (int i = 0; i < n; i++)
        found += all[i] == server || all[i] == teams[0] || all[i] == teams[1];
    cr_expect_eq(found, 3, "the pids demo.sh printed are its children");
    cr_assert_eq(kill(demo.pid, SIGINT), 0);
    cr_expect_eq(e2e_proc_wait(&demo, 30000), 130, "demo.sh exit status after Ctrl-C");
    for (int i = 1; i < n; i++)
        cr_expect(gone(all[i]), "process %d left behind", (int)all[i]);
    char shm[64];
    snprintf(shm, sizeof shm, "/dev/shm/rcssserver-%d", port);
    cr_expect_neq(access(shm, F_OK), 0, "%s left behind", shm);
    int saw_stop = 0, saw_teams = 0, saw_logs = 0;
    while (e2e_proc_line(&demo, line, sizeof line, 2000) > 0) {
        saw_stop |= strstr(line, "demo: stopping") != NULL;
        saw_teams += strstr(line, "rcss-demoteam Demo") && strstr(line, ": stopped, score ");
        saw_logs |= strstr(line, "demo: this match's logs in ") != NULL;
    }
    cr_expect(saw_stop && saw_teams == 2 && saw_logs, "demo.sh's lines after Ctrl-C");

    /* the logs: renamed at the clean stop, DATE-DemoLeft_S-vs-DemoRight_S.rcg and .rcl */
    char logs[300];
    snprintf(logs, sizeof logs, "%s/logs", dir);
    DIR *d = opendir(logs);
    cr_assert_not_null(d, "no %s", logs);
    int rcg = 0, rcl = 0, other = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *nm = e->d_name, *x = strrchr(nm, '.');
        if (nm[0] == '.')
            continue;
        int named = strstr(nm, "-DemoLeft_") && strstr(nm, "-vs-DemoRight_") && x;
        rcg += named && strcmp(x, ".rcg") == 0;
        rcl += named && strcmp(x, ".rcl") == 0;
        other += !named;
    }
    closedir(d);
    cr_expect(rcg == 1 && rcl == 1 && other == 0, "logs: %d rcg, %d rcl, %d others", rcg, rcl,
              other);
    if (!getenv("RCSS_E2E_KEEP"))
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    else
        cr_log_info("kept %s\n", dir);
}
