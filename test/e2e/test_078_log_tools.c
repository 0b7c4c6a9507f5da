/* test_078_log_tools.c -- the outside world reads our logs and watches our replays (dev
 * checks, skipped unless the tools are named):
 *   - $RCSS_RCG_TOOLS = the directory of librcsc's rcgversion, rcgresultprinter and
 *     rcg2txt: a match recorded in every version (1-6, JSON) gives rcgversion its version
 *     (it says "json" for 6 and JSON, as for the reference's logs), rcgresultprinter the final score of a complete
 *     match, rcg2txt one (Info ...) line per frame our reader sees and the result;
 *   - $RCSS_RCSSMONITOR = rcssmonitor (and Xvfb on the PATH): rcss-logplayer replays a
 *     log to rcssmonitor --client-version 1..5 under Xvfb; each connects in its version,
 *     its window shows the pitch (mostly rcssmonitor's field green), and jumping to
 *     another cycle changes what it shows. The screenshots go to $RCSS_SHOT_DIR (PNG)
 *     when set, for a look. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "e2e_lp.h"
#include "e2e_rcg.h"

/* ---- librcsc's tools ---------------------------------------------------------------- */
/* run DIR/tool file; its stdout (and stderr) into out; the exit status */
static int tool(const char *dir, const char *name, const char *file, char **out)
{
    char exe[512], tmp[] = "/tmp/rcss-tool-XXXXXX";
    int fd = mkstemp(tmp);
    cr_assert_geq(fd, 0);
    snprintf(exe, sizeof exe, "%s/%s", dir, name);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        execl(exe, exe, file, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    close(fd);
    *out = e2e_read_file(tmp, NULL);
    unlink(tmp);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void check_tools(int version)
{
    const char *dir = getenv("RCSS_RCG_TOOLS");
    char probe[512];
    snprintf(probe, sizeof probe, "%s/rcg2txt", dir ? dir : "");
    if (!dir || access(probe, X_OK) != 0)
        cr_skip_test("RCSS_RCG_TOOLS does not name librcsc's tools");
    e2e_rec_t r;
    e2e_rec_match(&r, version, 0, NULL);
    rcg_t g;
    char err[256], *out;
    cr_assert_eq(rcg_read_file(r.path, &g, err, sizeof err), 0, "%s", err);

    cr_expect_eq(tool(dir, "rcgversion", r.path, &out), 0);
    char want[32];
    /* the tool prints "json" for version 6 too, for the reference's own logs as well */
    if (version < 0 || version == 6)
        snprintf(want, sizeof want, "version=json");
    else
        snprintf(want, sizeof want, "version=%d", version);
    cr_expect_not_null(strstr(out, want), "v%d: %s", version, out);
    free(out);

    cr_expect_eq(tool(dir, "rcgresultprinter", r.path, &out), 0);
    cr_expect_not_null(strstr(out, " Red Blue 1 0"), "v%d: %s", version, out);
    cr_expect_null(strstr(out, "incomplete"), "v%d: %s", version, out);
    free(out);

    cr_expect_eq(tool(dir, "rcg2txt", r.path, &out), 0);
    int infos = 0;
    for (const char *p = out; (p = strstr(p, "(Info (state ")); p++)
        infos++;
    cr_expect_eq(infos, g.n_frames, "v%d: rcg2txt saw %d frames, our reader %d", version, infos,
                 g.n_frames);
    cr_expect_not_null(strstr(out, "(Result \"Red\" \"Blue\" 1 0)"), "v%d", version);
    free(out);
    rcg_free(&g);
    e2e_rec_free(&r);
}

Test(log_tools, librcsc_v1, .timeout = 60) { check_tools(1); }
Test(log_tools, librcsc_v2, .timeout = 60) { check_tools(2); }
Test(log_tools, librcsc_v3, .timeout = 60) { check_tools(3); }
Test(log_tools, librcsc_v4, .timeout = 60) { check_tools(4); }
Test(log_tools, librcsc_v5, .timeout = 60) { check_tools(5); }
Test(log_tools, librcsc_v6, .timeout = 60) { check_tools(6); }
Test(log_tools, librcsc_json, .timeout = 60) { check_tools(-1); }

/* ---- rcssmonitor under Xvfb ---------------------------------------------------------- */
typedef struct shot {
    int            w, h;
    unsigned char *rgb;        /* w * h * 3 */
} shot_t;

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* xwd -root of display: the screen as RGB (24/32-bit TrueColor dumps only) */
static void screenshot(int display, shot_t *s)
{
    char cmd[256], path[] = "/tmp/rcss-xwd-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "xwd -root -silent -display :%d > %s", display, path);
    cr_assert_eq(system(cmd), 0, "xwd");
    size_t len = 0;
    unsigned char *d = (unsigned char *)e2e_read_file(path, &len);
    unlink(path);
    cr_assert(d && len > 100);
    uint32_t hsize = be32(d), w = be32(d + 16), h = be32(d + 20), order = be32(d + 28);
    uint32_t bpp = be32(d + 44), bpl = be32(d + 48), ncolors = be32(d + 76);
    size_t off = hsize + (size_t)ncolors * 12, B = bpp / 8;
    cr_assert(B >= 3 && off + (size_t)h * bpl <= len, "an xwd dump of %u bits per pixel", bpp);
    s->w = (int)w;
    s->h = (int)h;
    s->rgb = malloc((size_t)w * h * 3);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            const unsigned char *p = d + off + (size_t)y * bpl + x * B;
            unsigned char *q = s->rgb + ((size_t)y * w + x) * 3;
            q[0] = order == 0 ? p[2] : p[B - 3];
            q[1] = order == 0 ? p[1] : p[B - 2];
            q[2] = order == 0 ? p[0] : p[B - 1];
        }
    }
    free(d);
}

static void png_chunk(FILE *f, const char *type, const unsigned char *data, uint32_t len)
{
    unsigned char b[4] = { len >> 24, len >> 16, len >> 8, len };
    fwrite(b, 1, 4, f);
    fwrite(type, 1, 4, f);
    if (len)
        fwrite(data, 1, len, f);
    uLong crc = crc32(crc32(0, (const Bytef *)type, 4), data, len);
    unsigned char c[4] = { crc >> 24, crc >> 16, crc >> 8, crc };
    fwrite(c, 1, 4, f);
}

/* the screenshot as a PNG (zlib), for a look */
static void save_png(const shot_t *s, const char *path)
{
    size_t row = (size_t)s->w * 3 + 1, raw_len = row * (size_t)s->h;
    unsigned char *raw = malloc(raw_len);
    uLongf zlen = compressBound(raw_len);
    unsigned char *z = malloc(zlen);
    for (int y = 0; y < s->h; y++) {
        raw[y * row] = 0;
        memcpy(raw + y * row + 1, s->rgb + (size_t)y * s->w * 3, (size_t)s->w * 3);
    }
    cr_assert_eq(compress(z, &zlen, raw, raw_len), Z_OK);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    fwrite("\x89PNG\r\n\x1a\n", 1, 8, f);
    unsigned char ihdr[13] = { s->w >> 24, s->w >> 16, s->w >> 8, s->w,
                               s->h >> 24, s->h >> 16, s->h >> 8, s->h, 8, 2, 0, 0, 0 };
    png_chunk(f, "IHDR", ihdr, 13);
    png_chunk(f, "IDAT", z, (uint32_t)zlen);
    png_chunk(f, "IEND", NULL, 0);
    fclose(f);
    free(raw);
    free(z);
}

/* pixels of rcssmonitor's field green (31, 160, 31 give or take), and pixels that
 * differ between two shots */
static long green(const shot_t *s)
{
    long n = 0;
    for (size_t i = 0; i < (size_t)s->w * s->h; i++) {
        const unsigned char *p = s->rgb + i * 3;
        n += p[1] > 130 && p[0] < 70 && p[2] < 70;
    }
    return n;
}

static long differ(const shot_t *a, const shot_t *b)
{
    long n = 0;
    for (size_t i = 0; i < (size_t)a->w * a->h * 3; i += 3)
        n += memcmp(a->rgb + i, b->rgb + i, 3) != 0;
    return n;
}

/* the window is drawn: the pitch shows (half of an 800 x 560 window is field green) and,
 * after `before`, the picture changed */
static int drawn(const shot_t *s, const shot_t *before)
{
    return green(s) > 800L * 560 / 2 && (!before || differ(before, s) > 20);
}

/* screenshots every 200 ms until one is drawn and the same as the one before (the drawing
 * is done), up to 10 s; the last one in *s */
static void shot_drawn(int display, shot_t *s, const shot_t *before)
{
    shot_t prev = { 0, 0, NULL };
    double end = e2e_now_ms() + 10000;
    for (;;) {
        screenshot(display, s);
        int done = prev.rgb && differ(&prev, s) == 0 && drawn(s, before);
        free(prev.rgb);
        if (done || e2e_now_ms() > end)
            return;
        prev = *s;
        usleep(200000);
    }
}

static pid_t spawn(char *const argv[], int display)
{
    pid_t pid = fork();
    if (pid == 0) {
        char d[16];
        snprintf(d, sizeof d, ":%d", display);
        setenv("DISPLAY", d, 1);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static void stop(pid_t pid)
{
    if (pid > 0) {
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
    }
}

/* lines of the log player until one starting with prefix (3 s) */
static const char *lp_wait_line(e2e_lp_t *lp, const char *prefix)
{
    const char *l;
    while ((l = e2e_lp_line(lp, 5000)) && strncmp(l, prefix, strlen(prefix)) != 0)
        ;
    return l;
}

Test(log_tools, rcssmonitor_replays_in_every_version, .timeout = 180)
{
    const char *mon = getenv("RCSS_RCSSMONITOR");
    if (!mon || access(mon, X_OK) != 0 || system("command -v Xvfb >/dev/null 2>&1") != 0)
        cr_skip_test("RCSS_RCSSMONITOR does not name rcssmonitor, or no Xvfb");
    const char *shots = getenv("RCSS_SHOT_DIR");
    int display = 90 + (int)(getpid() % 100);
    char disp[16];
    snprintf(disp, sizeof disp, ":%d", display);
    char *xvfb[] = { "Xvfb", disp, "-screen", "0", "1024x768x24", "-nolisten", "tcp", NULL };
    pid_t x = spawn(xvfb, display);
    char xsock[64]; /* Xvfb takes connections once its socket is there */
    snprintf(xsock, sizeof xsock, "/tmp/.X11-unix/X%d", display);
    for (double end = e2e_now_ms() + 10000; access(xsock, F_OK) != 0 && e2e_now_ms() < end;)
        usleep(20000);
    cr_assert_eq(access(xsock, F_OK), 0, "Xvfb %s did not start", disp);
    e2e_rec_t r;
    e2e_rec_match(&r, 6, 0, NULL);
    e2e_lp_t lp;
    cr_assert_eq(e2e_lp_start(&lp, r.path, NULL), 0);
    cr_assert_not_null(e2e_lp_line(&lp, 5000));
    char port[16];
    snprintf(port, sizeof port, "%d", lp.port);
    for (int v = 1; v <= 5; v++) {
        char ver[8], want[64];
        snprintf(ver, sizeof ver, "%d", v);
        char *argv[] = { (char *)mon, "--connect", "--server-port", port, "--client-version",
                         ver, "--geometry", "800x560+0+0", NULL };
        pid_t m = spawn(argv, display);
        snprintf(want, sizeof want, "a monitor (version %d) connected", v);
        const char *l = lp_wait_line(&lp, "a monitor");
        cr_assert_not_null(l, "rcssmonitor --client-version %d did not connect", v);
        cr_expect_str_eq(l, want);
        shot_t a, b;
        cr_assert_not_null(e2e_lp_cmd(&lp, "jump 2"));
        shot_drawn(display, &a, NULL);
        cr_assert_not_null(e2e_lp_cmd(&lp, "jump 25"));
        shot_drawn(display, &b, &a);
        cr_expect_gt(green(&b), 800L * 560 / 2, "v%d: the pitch is shown", v);
        cr_expect_gt(differ(&a, &b), 20, "v%d: another cycle, another picture", v);
        if (shots) {
            char path[600];
            snprintf(path, sizeof path, "%s/rcssmonitor_v%d_cycle25.png", shots, v);
            save_png(&b, path);
        }
        free(a.rgb);
        free(b.rgb);
        stop(m);
        lp_wait_line(&lp, "a monitor left");
    }
    e2e_lp_cmd(&lp, "quit");
    e2e_lp_wait(&lp);
    stop(x);
    e2e_rec_free(&r);
}
