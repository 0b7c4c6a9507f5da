/* e2e_rcg.c -- see e2e_rcg.h. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disp_bin.h"
#include "e2e_rcg.h"
#include "e2e_trainer.h"
#include "mgw.h"
#include "playmode.h"

static const char *tile = "(team_graphic (0 0 \"8 8 1 1\" \"a c #FF0000\" \"aaaaaaaa\" "
                          "\"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\" "
                          "\"aaaaaaaa\" \"aaaaaaaa\"))";

int e2e_monitor_for_log(int version)
{
    return version < 0 ? -1 : version <= 2 ? 1 : version - 1;
}

int e2e_mon_show(const char *data, size_t len, int version, disp_show_t *out)
{
    const uint8_t *b = (const uint8_t *)data;
    if (version == 1 || version == 2) {
        size_t size = version == 1 ? DISP_V1_SIZE : DISP_V2_SIZE;
        if (len != size)
            return -1;
        if (disp_get16(b) != DISP_SHOW_MODE)
            return 0;
        if (version == 1)
            disp_bin_read_showinfo(b + 2, out);
        else
            disp_bin_read_showinfo2(b + 4, out);
        return 1;
    }
    if (version < 0) {
        if (strncmp(data, "{\"show\":", 8) != 0)
            return 0;
        return rcg_json_show(data, len, out) == 0 ? 1 : -1;
    }
    if (strncmp(data, "(show ", 6) != 0)
        return 0;
    return rcg_parse_show(data, out) == 0 ? 1 : -1;
}

static void frames_add(e2e_frames_t *fr, const disp_show_t *d)
{
    if (fr->n == fr->cap) {
        fr->cap = fr->cap ? fr->cap * 2 : 256;
        fr->f = realloc(fr->f, (size_t)fr->cap * sizeof *fr->f);
        cr_assert_not_null(fr->f);
    }
    fr->f[fr->n++] = *d;
}

/* what the monitor has sent so far; with want, wait (up to 2 s) for at least one show:
 * the next cycle waits for monitorgw, so it never falls behind (a frame that does not
 * come is found missing by e2e_rec_compare; the first cycles after the players joined
 * may see no step, as their first thinks come at different turns) */
static void monitor_drain(e2e_rec_t *r, int fd, int want)
{
    static char buf[65536];
    static disp_show_t d;
    int got = 0;
    for (;;) {
        int n = e2e_recv(fd, buf, sizeof buf - 1, want && !got ? 2000 : 0, NULL);
        if (n <= 0)
            break;
        memset(&d, 0, sizeof d);
        int k = e2e_mon_show(buf, (size_t)n, r->mv, &d);
        cr_assert_geq(k, 0, "a monitor show that does not read (v%d): %.200s", r->mv, buf);
        if (k == 1) {
            frames_add(&r->mon, &d);
            got = 1;
        } else {
            r->msgs++;
        }
    }
}

/* a monitor of protocol mv, registered: its first datagram (init block or frame) seen */
static int monitor_join(const e2e_server_t *s, int mv)
{
    static char buf[65536];
    char init[64];
    int fd = e2e_udp_open();
    if (mv == 1)
        snprintf(init, sizeof init, "(dispinit)");
    else
        snprintf(init, sizeof init, "(dispinit version %d)", mv);
    for (int i = 0; i < 5; i++) {
        e2e_send(fd, s->port, init);
        if (e2e_recv(fd, buf, sizeof buf, 2000, NULL) > 0)
            return fd;
    }
    cr_assert_fail("the monitor (v%d) got nothing after its dispinit", mv);
    return -1;
}

/* the online coach of Red, named Coachy, with a tile before the kick-off */
static int coach_join(const e2e_server_t *s)
{
    static char buf[8192];
    int oc = e2e_udp_open(), oport = 0;
    e2e_send(oc, s->olcoach_port, "(init Red Coachy (version 19))");
    cr_assert_gt(e2e_recv_prefix(oc, "(init l ok)", buf, sizeof buf, 2000, &oport), 0);
    e2e_send(oc, oport, tile);
    cr_assert_gt(e2e_recv_prefix(oc, "(ok team_graphic", buf, sizeof buf, 2000, NULL), 0);
    return oc;
}

void e2e_rec_match(e2e_rec_t *r, int version, int gz, const char *const *extra)
{
    char v[64], z[64];
    memset(r, 0, sizeof *r);
    r->version = version;
    r->mv = e2e_monitor_for_log(version);
    cr_assert_eq(e2e_logdir_make(&r->d), 0);
    snprintf(v, sizeof v, "server::game_log_version=%d", version);
    snprintf(z, sizeof z, "server::game_log_compression=%d", gz);
    const char *args[24] = { "server::game_logging=true", r->d.game_arg, v, z,
                             "server::synch_mode=true", "server::synch_timeout=20000",
                             "server::coach_w_referee=true", "server::half_time=3",
                             "server::nr_normal_halfs=1", "server::nr_extra_halfs=0",
                             "server::penalty_shoot_outs=false" };
    int n = 11;
    for (int i = 0; extra && extra[i] && n < 23; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int mon = monitor_join(&s, r->mv);
    e2e_players_t p = { 0 };
    cr_assert_eq(e2e_players_join(&p, &s, "Red", 0), 0);
    cr_assert_eq(e2e_players_join(&p, &s, "Blue", 1), 0);
    int oc = coach_join(&s);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    monitor_drain(r, mon, 0);
    cr_assert_eq(e2e_trainer_start(&t), 0);
    int over = 0;
    for (int cyc = 0; cyc < 200 && over < 4; cyc++) {
        if (cyc == 3) {
            cr_assert_eq(e2e_trainer_change_mode(&t, "play_on"), 0);
            cr_assert_eq(e2e_trainer_move_ball(&t, 50.0, 0.0, 2.5, 0.0), 0);
        }
        cr_assert_eq(e2e_players_cycles(&p, 1, 10000), 0);
        monitor_drain(r, mon, 1);
        over += r->mon.n > 0 && r->mon.f[r->mon.n - 1].pmode == PM_TIME_OVER;
    }
    cr_assert_geq(over, 4, "the half ended");
    monitor_drain(r, mon, 0);
    r->seed = e2e_server_seed(&s);
    e2e_trainer_close(&t);
    e2e_players_close(&p);
    close(oc);
    close(mon);
    cr_assert_eq(e2e_server_stop(&s), 0);
    cr_assert_eq(e2e_logdir_find(&r->d, gz ? ".rcg.gz" : ".rcg", r->path, sizeof r->path), 1);
}

void e2e_rec_free(e2e_rec_t *r)
{
    free(r->mon.f);
    r->mon.f = NULL;
    e2e_logdir_remove(&r->d);
}

/* the parts of a frame the comparison leaves out for monitor protocol mv */
static void normalise(disp_show_t *d, int mv)
{
    for (int i = 0; i < DISP_PLAYERS && mv < 0; i++) {
        d->player[i].focus_dist = 0;   /* not in the JSON log */
        d->player[i].focus_dir = 0;
        memset(d->player[i].count, 0, sizeof d->player[i].count); /* not in the JSON monitor */
    }
}

int e2e_same_frame(const disp_show_t *a, const disp_show_t *m, int mv, char *why, size_t len)
{
    static disp_show_t x, y;
    static char ea[MGW_FRAME_MAX], em[MGW_FRAME_MAX];
    x = *a;
    y = *m;
    normalise(&x, mv);
    normalise(&y, mv);
    int na = mgw_encode_show_disp(&x, mv, ea, sizeof ea);
    int nm = mgw_encode_show_disp(&y, mv, em, sizeof em);
    if (na > 0 && na == nm && memcmp(ea, em, (size_t)na) == 0)
        return 1;
    if (mv >= 3 || mv < 0) {
        snprintf(why, len, "log:     %.400s\nmonitor: %.400s", ea, em);
    } else {
        int k = 0;
        while (k < na && k < nm && ea[k] == em[k])
            k++;
        snprintf(why, len, "binary frames differ from byte %d (lengths %d, %d)", k, na, nm);
    }
    return 0;
}

void e2e_rec_compare(const e2e_rec_t *r, const rcg_t *g)
{
    char why[1024];
    int j = 0, over = 0;
    for (int i = 0; i < r->mon.n; i++) {
        const disp_show_t *m = &r->mon.f[i];
        if (m->pmode == PM_BEFORE_KICK_OFF || (m->pmode == PM_TIME_OVER && over++))
            continue;
        cr_assert_lt(j, g->n_frames, "the log has %d frames, the monitor more (time %d)",
                     g->n_frames, m->time);
        cr_assert(e2e_same_frame(&g->frame[j].show, m, r->mv, why, sizeof why),
                  "v%d log frame %d (time %d) is not the monitor's:\n%s", r->version, j,
                  g->frame[j].show.time, why);
        j++;
    }
    cr_expect_eq(j, g->n_frames, "the monitor saw %d frames after the kick-off, the log has %d",
                 j, g->n_frames);
    cr_expect_gt(j, 30, "a whole half");
}
