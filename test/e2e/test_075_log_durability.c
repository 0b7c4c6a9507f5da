/* test_075_log_durability.c -- every game log version survives its processes (issue 10,
 * durability) and every version's reader survives a cut file:
 *   - in a synch-mode match the recorder is killed with SIGKILL (the sim restarts it and
 *     waits for it), later the sim itself: the log keeps its running name and holds every
 *     cycle up to the last published one exactly once (the new recorder cut the file back
 *     to its predecessor's last flush, which is always at an item boundary), with nothing
 *     malformed; a JSON log just lacks its closing "]", which the reader notes;
 *   - the same file cut inside its last item reads up to the item before, and says so;
 *     cut in the middle, it reads a prefix of the same frames; a gzip log cut inside its
 *     last member gives what came before. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_rcg.h"
#include "e2e_trainer.h"
#include "rec.h"

/* cycles first..last each exactly once (the match stays in kick_off_l: time runs) */
static void check_every_cycle(const rcg_t *g, int first)
{
    cr_assert_gt(g->n_frames, 0);
    cr_expect_eq(g->frame[0].show.time, first);
    for (int i = 1; i < g->n_frames; i++)
        cr_assert_eq(g->frame[i].show.time, g->frame[i - 1].show.time + 1,
                     "v%d frame %d: time %d after %d", g->version, i, g->frame[i].show.time,
                     g->frame[i - 1].show.time);
}

/* the frames of a are the first a->n_frames of b, item for item */
static void check_prefix(const rcg_t *a, const rcg_t *b)
{
    const rec_fmt_t *f = rec_fmt_find(b->version);
    cr_assert_not_null(f);
    cr_assert_leq(a->n_frames, b->n_frames);
    for (int i = 0; i < a->n_frames; i++) {
        rec_buf_t x = { 0 }, y = { 0 };
        f->show_disp(&x, &a->frame[i].show);
        f->show_disp(&y, &b->frame[i].show);
        cr_assert(x.len == y.len && memcmp(x.p, y.p, x.len) == 0, "v%d frame %d differs",
                  b->version, i);
        rec_buf_free(&x);
        rec_buf_free(&y);
    }
}

/* write the first n bytes of data to path */
static void write_cut(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* the log at path (plain) cut 2 bytes short, and in the middle */
static void check_cuts(const e2e_logdir_t *d, const char *path, const rcg_t *whole)
{
    char cut[600], err[256];
    size_t len = 0;
    char *raw = e2e_read_file(path, &len);
    cr_assert_not_null(raw);
    snprintf(cut, sizeof cut, "%s/cut.rcg", d->dir);
    rcg_t g;
    write_cut(cut, raw, len - 2);
    cr_assert_eq(rcg_read_file(cut, &g, err, sizeof err), 0, "%s", err);
    cr_expect_eq(g.truncated, 1, "v%d cut inside its last item", whole->version);
    cr_expect_not_null(strstr(g.note, "ends inside"), "%s", g.note);
    /* the last item is the last show, or a message after it (events of a killed sim's
     * last turn) */
    cr_expect(g.n_frames == whole->n_frames - 1 || g.n_frames == whole->n_frames,
              "up to the last whole frame: %d of %d", g.n_frames, whole->n_frames);
    cr_expect_eq(g.bad_items, 0);
    check_prefix(&g, whole);
    rcg_free(&g);
    write_cut(cut, raw, len / 2 + 7);
    cr_assert_eq(rcg_read_file(cut, &g, err, sizeof err), 0, "%s", err);
    cr_expect_lt(g.n_frames, whole->n_frames);
    cr_expect_gt(g.n_frames, whole->n_frames / 3);
    check_prefix(&g, whole);
    rcg_free(&g);
    unlink(cut);
    free(raw);
}

/* a gzip log cut inside its last member (three quarters of it kept) */
static void check_gzip_cut(const e2e_logdir_t *d, const char *path, const rcg_t *whole)
{
    char cut[600], err[256];
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    static char raw[1 << 22];
    size_t len = fread(raw, 1, sizeof raw, f);
    fclose(f);
    snprintf(cut, sizeof cut, "%s/cut.rcg.gz", d->dir);
    write_cut(cut, raw, len - 40);
    rcg_t g;
    cr_assert_eq(rcg_read_file(cut, &g, err, sizeof err), 0, "%s", err);
    cr_expect_eq(g.truncated, 1, "%s", g.note);
    cr_expect_gt(g.n_frames, 0);
    cr_expect_lt(g.n_frames, whole->n_frames);
    check_prefix(&g, whole);
    rcg_free(&g);
    unlink(cut);
}

static void kill_both(int version, int gz)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    char v[64], z[64];
    snprintf(v, sizeof v, "server::game_log_version=%d", version);
    snprintf(z, sizeof z, "server::game_log_compression=%d", gz);
    const char *args[] = { "server::game_logging=true", d.game_arg, v, z,
                           "server::coach_w_referee=true", "server::synch_mode=true",
                           "server::synch_timeout=20000", "server::record_messages=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_players_t p = { 0 };
    cr_assert_eq(e2e_players_join(&p, &s, "Ours", 0), 0);
    cr_assert_eq(e2e_players_join(&p, &s, "Theirs", 1), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_assert_eq(e2e_trainer_start(&t), 0);
    cr_assert_eq(e2e_players_cycles(&p, 40, 20000), 0);
    pid_t rec = e2e_recorder_pid(&s);
    cr_assert_gt(rec, 0);
    kill(rec, SIGKILL);
    /* the players run ahead: the sim waits for the new recorder rather than overwrite */
    cr_assert_eq(e2e_players_cycles(&p, 150, 30000), 0);
    pid_t rec2 = e2e_wait_recorder(&s, rec, 3000);
    cr_expect_gt(rec2, 0, "restarted");
    cr_assert_eq(e2e_players_cycles(&p, 20, 20000), 0);
    e2e_world_t w;
    cr_assert_eq(e2e_trainer_look(&t, &w), 0);
    e2e_server_kill9(&s);
    cr_expect_eq(e2e_wait_gone(rec2, 5000), 0, "the recorder leaves with the sim");
    e2e_trainer_close(&t);
    e2e_players_close(&p);

    char path[512], err[256];
    cr_assert_eq(e2e_logdir_find(&d, gz ? "incomplete.rcg.gz" : "incomplete.rcg", path,
                                 sizeof path), 1, "the running name stays");
    rcg_t g;
    cr_assert_eq(rcg_read_file(path, &g, err, sizeof err), 0, "%s", err);
    cr_expect_eq(g.version, version);
    cr_expect_eq(g.bad_items, 0);
    cr_expect_eq(g.truncated, 0, "flushed at item boundaries: %s", g.note);
    if (version < 0)
        cr_expect_not_null(strstr(g.note, "not closed"), "%s", g.note);
    else
        cr_expect_str_eq(g.note, "");
    check_every_cycle(&g, 1);
    int last = g.frame[g.n_frames - 1].show.time;
    cr_expect(last == w.time || last == w.time + 1, "up to the last published cycle: %d, %d",
              last, w.time);
    cr_expect_geq(g.n_frames, 200);
    if (gz)
        check_gzip_cut(&d, path, &g);
    else
        check_cuts(&d, path, &g);
    rcg_free(&g);
    e2e_logdir_remove(&d);
}

Test(log_durability, v1, .timeout = 120) { kill_both(1, 0); }
Test(log_durability, v2, .timeout = 120) { kill_both(2, 0); }
Test(log_durability, v3, .timeout = 120) { kill_both(3, 0); }
Test(log_durability, v3_gzip, .timeout = 120) { kill_both(3, 5); }
Test(log_durability, v4, .timeout = 120) { kill_both(4, 0); }
Test(log_durability, v5, .timeout = 120) { kill_both(5, 0); }
Test(log_durability, v6_gzip, .timeout = 120) { kill_both(6, 6); }
Test(log_durability, json, .timeout = 120) { kill_both(-1, 0); }
Test(log_durability, json_gzip, .timeout = 120) { kill_both(-1, 9); }
