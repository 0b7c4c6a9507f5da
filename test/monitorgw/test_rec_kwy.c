/* test_rec_kwy.c -- the keepaway log (docs/protocol/referee.md §14): the header and the
 * rows as rcssserver 19 writes them, the names (incomplete.kwy, the fixed name, the
 * final [DATE]TEAMINFO.kwy, episodes after a reset), each row on disk at once, and a
 * restarted recorder that finds its predecessor's file: whole lines kept, nothing
 * written twice, nothing lost. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rec.h"
#include "kwy_expect.h"

static char dir[64], path[128];
static conf_t conf;

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/rcss-reckwy-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/incomplete.kwy", dir);
    conf_defaults(&conf);
}

static void fini(void)
{
    unlink(path);
    rmdir(dir);
}

TestSuite(rec_kwy, .init = setup, .fini = fini);

static void set(const char *name, const char *value)
{
    char err[CONF_ERR_LEN];
    cr_assert_eq(conf_set(&conf, "server", name, value, err, sizeof err), 0, "%s", err);
}

static size_t slurp(char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n;
}

static shm_event_sh_t ev(int arg, double x, double y)
{
    shm_event_sh_t e;
    memset(&e, 0, sizeof e);
    e.kind = SHM_EV_KEEPAWAY;
    e.arg = arg;
    e.x = x;
    e.y = y;
    return e;
}


Test(rec_kwy, header)
{
    rec_buf_t b = { 0 };
    rec_kwy_header(&b, 3, 2, 20.0, 20.0);
    cr_expect_str_eq(b.p, KWY_HEADER_3_2);
    rec_buf_clear(&b);
    /* the region's reals as a C++ stream prints them: six significant digits, no zeros */
    rec_kwy_header(&b, 4, 3, 25.5, 17.125);
    cr_expect(strstr(b.p, "# Keepers: 4\n# Takers:  3\n# Region:  25.5 x 17.125\n#\n"), "%s", b.p);
    rec_buf_clear(&b);
    rec_kwy_header(&b, 1, 0, 1.0 / 3.0, 1e7);
    cr_expect(strstr(b.p, "# Region:  0.333333 x 1e+07\n"), "%s", b.p);
    rec_buf_free(&b);
}

/* number, start, end, duration = end - start, o or t, tab separated */
Test(rec_kwy, rows)
{
    rec_buf_t b = { 0 };
    rec_kwy_row(&b, 1, 0, 24, "o");
    rec_kwy_row(&b, 2, 24, 93, "t");
    rec_kwy_row(&b, 3, 93, 93, "o");
    cr_expect_str_eq(b.p, "1\t0\t24\t24\to\n2\t24\t93\t69\tt\n3\t93\t93\t0\to\n");
    rec_buf_free(&b);
}

Test(rec_kwy, running_names)
{
    char out[LOGPATH_MAX];
    cr_assert_eq(rec_kwy_name(&conf, "logs/", 0, 0, 0, NULL, out, sizeof out), 0);
    cr_expect_str_eq(out, "logs/incomplete.kwy");
    set("keepaway_log_fixed", "true");
    cr_assert_eq(rec_kwy_name(&conf, "logs/", 0, 0, 0, NULL, out, sizeof out), 0);
    cr_expect_str_eq(out, "logs/rcssserver.kwy", "keepaway_log_fixed_name's default");
    set("keepaway_log_fixed_name", "train");
    cr_assert_eq(rec_kwy_name(&conf, "logs/", 0, 0, 0, NULL, out, sizeof out), 0);
    cr_expect_str_eq(out, "logs/train.kwy");
    cr_assert_eq(rec_kwy_name(&conf, "logs/", 2, 0, 0, NULL, out, sizeof out), 0);
    cr_expect_str_eq(out, "logs/train-r2.kwy", "the episode after the second reset");
    /* the other logs' fixed names are not the keepaway log's */
    set("game_log_fixed", "true");
    set("game_log_fixed_name", "game");
    set("keepaway_log_fixed", "false");
    cr_assert_eq(rec_kwy_name(&conf, "logs/", 0, 0, 0, NULL, out, sizeof out), 0);
    cr_expect_str_eq(out, "logs/incomplete.kwy");
}

Test(rec_kwy, final_names)
{
    char out[LOGPATH_MAX], want[LOGPATH_MAX], date[64];
    time_t start = 1764374400; /* any time: the date part is checked against strftime */
    struct tm tm;
    localtime_r(&start, &tm);
    strftime(date, sizeof date, "%Y%m%d%H%M%S-", &tm);
    cr_assert_eq(rec_kwy_name(&conf, "./", 0, 1, start, "Keeper_0-vs-Taker_0", out, sizeof out), 0);
    snprintf(want, sizeof want, "./%sKeeper_0-vs-Taker_0.kwy", date);
    cr_expect_str_eq(out, want);
    cr_assert_eq(rec_kwy_name(&conf, "./", 3, 1, start, "K_0-vs-null", out, sizeof out), 0);
    snprintf(want, sizeof want, "./%sr3-K_0-vs-null.kwy", date);
    cr_expect_str_eq(out, want);
    /* undated: keepaway_log_dated alone decides, not the game log's flag */
    set("keepaway_log_dated", "false");
    cr_assert_eq(rec_kwy_name(&conf, "./", 0, 1, start, "K_0-vs-T_0", out, sizeof out), 0);
    cr_expect_str_eq(out, "./K_0-vs-T_0.kwy");
    cr_assert_eq(rec_kwy_name(&conf, "./", 1, 1, start, "K_0-vs-T_0", out, sizeof out), 0);
    cr_expect_str_eq(out, "./r1-K_0-vs-T_0.kwy");
    /* the shared date format */
    set("keepaway_log_dated", "true");
    set("log_date_format", "%Y-");
    strftime(date, sizeof date, "%Y-", &tm);
    cr_assert_eq(rec_kwy_name(&conf, "d/", 0, 1, start, "A_1-vs-B_0", out, sizeof out), 0);
    snprintf(want, sizeof want, "d/%sA_1-vs-B_0.kwy", date);
    cr_expect_str_eq(out, want);
}

/* header at the first play_on, each row on disk when its event is handled */
Test(rec_kwy, written_through)
{
    char buf[4096], err[256], want[4096];
    rec_kwy_t k;
    cr_assert_eq(rec_kwy_open(&k, path, 0, err, sizeof err), 0, "%s", err);
    cr_expect_eq(slurp(buf, sizeof buf), 0u, "opened empty");
    shm_event_sh_t h = ev(0, 3, 2);
    cr_assert_eq(rec_kwy_event(&k, &h, "", 0, &conf, err, sizeof err), 0);
    slurp(buf, sizeof buf);
    cr_expect_str_eq(buf, KWY_HEADER_3_2);
    shm_event_sh_t r1 = ev(1, 0, 24), r2 = ev(2, 24, 30);
    cr_assert_eq(rec_kwy_event(&k, &r1, "o", 1, &conf, err, sizeof err), 0);
    slurp(buf, sizeof buf);
    snprintf(want, sizeof want, "%s1\t0\t24\t24\to\n", KWY_HEADER_3_2);
    cr_expect_str_eq(buf, want, "the row is on disk before the file is closed");
    cr_assert_eq(rec_kwy_event(&k, &r2, "t", 1, &conf, err, sizeof err), 0);
    shm_event_sh_t other = ev(7, 1, 2);
    other.kind = SHM_EV_REFEREE;
    cr_assert_eq(rec_kwy_event(&k, &other, "o", 1, &conf, err, sizeof err), 0);
    rec_file_close(&k.file, err, sizeof err);
    slurp(buf, sizeof buf);
    snprintf(want, sizeof want, "%s1\t0\t24\t24\to\n2\t24\t30\t6\tt\n", KWY_HEADER_3_2);
    cr_expect_str_eq(buf, want);
}

Test(rec_kwy, scan)
{
    int header, last;
    const char *t = "# Keepers: 3\n# Takers:  2\n#\n1\t0\t5\t5\to\n12\t5\t9\t4\tt\n13\t9\t1";
    size_t whole = rec_kwy_scan(t, strlen(t), &header, &last);
    cr_expect_eq(whole, strlen(t) - strlen("13\t9\t1"), "the cut last line is not counted");
    cr_expect_eq(header, 1);
    cr_expect_eq(last, 12);
    cr_expect_eq(rec_kwy_scan("", 0, &header, &last), 0u);
    cr_expect(header == 0 && last == 0);
    cr_expect_eq(rec_kwy_scan("# Keep", 6, &header, &last), 0u);
    cr_expect_eq(header, 0, "a header line cut before its newline is not there");
}

/* a recorder killed after some rows (one cut in the middle), restarted: it goes over the
 * events since its last saved state again and writes only what the file lacks */
Test(rec_kwy, resume_writes_each_row_once)
{
    char buf[4096], err[256], want[4096];
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "%s1\t0\t24\t24\to\n2\t24\t30\t6\tt\n3\t30", KWY_HEADER_3_2);
    fclose(f);
    rec_kwy_t k;
    cr_assert_eq(rec_kwy_open(&k, path, 1, err, sizeof err), 0, "%s", err);
    cr_expect(k.header == 1 && k.last == 2);
    shm_event_sh_t evs[] = { ev(0, 3, 2), ev(1, 0, 24), ev(2, 24, 30), ev(3, 30, 41),
                             ev(4, 41, 60) };
    const char *why[] = { "", "o", "t", "o", "t" };
    for (int i = 0; i < 5; i++)
        cr_assert_eq(rec_kwy_event(&k, &evs[i], why[i], strlen(why[i]), &conf, err, sizeof err), 0);
    rec_file_close(&k.file, err, sizeof err);
    slurp(buf, sizeof buf);
    snprintf(want, sizeof want, "%s1\t0\t24\t24\to\n2\t24\t30\t6\tt\n3\t30\t41\t11\to\n"
             "4\t41\t60\t19\tt\n", KWY_HEADER_3_2);
    cr_expect_str_eq(buf, want);
    /* a fresh start (no saved state) truncates, as the reference opens its file */
    cr_assert_eq(rec_kwy_open(&k, path, 0, err, sizeof err), 0);
    cr_expect(k.header == 0 && k.last == 0);
    rec_file_close(&k.file, err, sizeof err);
    cr_expect_eq(slurp(buf, sizeof buf), 0u);
}

/* a restart before the predecessor created the file */
Test(rec_kwy, resume_without_a_file)
{
    char buf[256], err[256];
    rec_kwy_t k;
    cr_assert_eq(rec_kwy_open(&k, path, 1, err, sizeof err), 0, "%s", err);
    cr_expect(k.header == 0 && k.last == 0);
    shm_event_sh_t r = ev(1, 0, 3);
    cr_assert_eq(rec_kwy_event(&k, &r, "o", 1, &conf, err, sizeof err), 0);
    rec_file_close(&k.file, err, sizeof err);
    slurp(buf, sizeof buf);
    cr_expect_str_eq(buf, "1\t0\t3\t3\to\n");
}

/* a long training (more than the part of the file a resume reads): the header at its
 * start, the last row at its end, a cut last line dropped */
Test(rec_kwy, resume_a_long_file)
{
    char err[256];
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(KWY_HEADER_3_2, f);
    int t = 0;
    for (int e = 1; e <= 9000; e++, t += 25)
        fprintf(f, "%d\t%d\t%d\t25\t%s\n", e, t, t + 25, e % 7 ? "o" : "t");
    long whole = ftell(f);
    fputs("9001\t2250", f);
    fclose(f);
    cr_assert_gt(whole, 200000L);
    rec_kwy_t k;
    cr_assert_eq(rec_kwy_open(&k, path, 1, err, sizeof err), 0, "%s", err);
    cr_expect_eq(k.header, 1);
    cr_expect_eq(k.last, 9000);
    cr_expect_eq((long)k.file.bytes, whole, "cut back to the last whole line");
    shm_event_sh_t r = ev(9001, t, t + 3);
    cr_assert_eq(rec_kwy_event(&k, &r, "o", 1, &conf, err, sizeof err), 0);
    rec_file_close(&k.file, err, sizeof err);
    size_t len;
    FILE *g = fopen(path, "r");
    cr_assert_not_null(g);
    fseek(g, 0, SEEK_END);
    len = (size_t)ftell(g);
    char last[64];
    fseek(g, whole, SEEK_SET);
    cr_assert_not_null(fgets(last, sizeof last, g));
    fclose(g);
    char want[64];
    snprintf(want, sizeof want, "9001\t%d\t%d\t3\to\n", t, t + 3);
    cr_expect_str_eq(last, want);
    cr_expect_eq(len, (size_t)whole + strlen(want));
}
