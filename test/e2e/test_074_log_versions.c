/* test_074_log_versions.c -- every game log version end to end (docs/protocol/logs.md
 * §1-§4): a match recorded with server::game_log_version 1, 2, 3, 4, 5, 6 and -1
 * (JSON), some compressed, reads back to the same frames a live monitor got during the
 * match (the monitor protocol that shows what the version keeps: e2e_monitor_for_log),
 * one for one after the kick-off, and to the same header facts: the version's magic,
 * the parameters and player types from version 3 on, no note of this server's own, the
 * result message, the team graphic, the final name. What each version writes:
 *   v1: 2052-byte records from byte 0; referee messages even without record_messages
 *   v2: "ULG" 2, shows and messages only
 *   v3: "ULG" 3, parameter, player-type, play-mode and team chunks
 *   v4-6: "ULGn" text lines; JSON: "[", version and timestamp objects, "]" at the end. */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disp_bin.h"
#include "e2e_rcg.h"
#include "playmode.h"

static int matches(const char *re, const char *s)
{
    regex_t r;
    cr_assert_eq(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0, "%s", re);
    int ok = regexec(&r, s, 0, NULL, 0) == 0;
    regfree(&r);
    return ok;
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int has_msg(const rcg_t *g, const char *prefix)
{
    for (int i = 0; i < g->n_msgs; i++) {
        if (strncmp(g->msg[i].text, prefix, strlen(prefix)) == 0)
            return 1;
    }
    return 0;
}

/* the first bytes of the file: the version's header (docs/protocol/logs.md §1) */
static void check_magic(const char *raw, size_t len, int version)
{
    cr_assert_gt(len, 4);
    if (version == 1) {   /* no header: a record, mode 1 (show) or 2 (message) */
        cr_expect(raw[0] == 0 && (raw[1] == 1 || raw[1] == 2), "v1 starts with a record");
        cr_expect_eq(len % DISP_V1_SIZE, 0, "whole 2052-byte records");
    } else if (version <= 3) {
        cr_expect(memcmp(raw, "ULG", 3) == 0 && raw[3] == version, "ULG %d (binary)", version);
    } else if (version <= 6) {
        char want[8];
        snprintf(want, sizeof want, "ULG%d\n", version);
        cr_expect_eq(memcmp(raw, want, 5), 0);
    } else {
        cr_expect_eq(strncmp(raw, "[\n{\"version\":\"19.0.0\"},\n{\"timestamp\":\"", 38), 0, "%.60s", raw);
        cr_expect_eq(strcmp(raw + len - 3, "\n]\n"), 0, "the array is closed");
    }
}

static void check_version(int version, int gz, int record_messages)
{
    const char *extra[] = { record_messages ? "server::record_messages=true" : NULL, NULL };
    e2e_rec_t r;
    e2e_rec_match(&r, version, gz, extra);
    cr_expect(matches("^[0-9]{14}-Red_Coachy_1-vs-Blue_0\\.rcg(\\.gz)?$", base(r.path)), "%s",
              r.path);
    size_t len = 0;
    char *raw = e2e_read_file(r.path, &len);
    cr_assert_not_null(raw);
    check_magic(raw, len, version < 0 ? 7 : version);
    free(raw);

    rcg_t g;
    char err[256];
    cr_assert_eq(rcg_read_file(r.path, &g, err, sizeof err), 0, "%s", err);
    cr_expect_eq(g.version, version);
    cr_expect_eq(g.bad_items, 0);
    cr_expect_eq(g.truncated, 0, "%s", g.note);
    cr_expect_str_eq(g.note, "");
    int params = version < 0 || version >= 3;
    cr_expect_eq(g.has_params, params);
    if (params) {
        cr_expect_eq(conf_int(&g.conf, SP_half_time), 3, "the log's parameters");
        if (version != 3) /* not in server_params_t */
            cr_expect_eq(conf_int(&g.conf, SP_game_log_version), version);
        cr_expect_eq(g.types.count, 18u);
    }
    cr_expect_eq(g.has_seed, 0, "no message of this server's own");
    /* the frames: exactly the monitor's after the kick-off, kick-off first, time_over last */
    e2e_rec_compare(&r, &g);
    cr_expect_eq(g.frame[0].show.pmode, PM_KICK_OFF_L);
    const disp_show_t *last = &g.frame[g.n_frames - 1].show;
    cr_expect_eq(last->pmode, PM_TIME_OVER);
    cr_expect_str_eq(last->team[0], "Red");
    cr_expect_eq(last->score[0], 1);
    /* messages: the tile and the result (always), referee messages (with record_messages,
     * or in v1), received commands (with record_messages, without a text log here) */
    cr_expect(has_msg(&g, "(team_graphic_l (0 0 \"8 8 1 1\" \"a c #FF0000\" \"aaaaaaaa\""));
    const char *result = g.msg[g.n_msgs - 1].text;
    cr_expect(matches("^\\(result [0-9]{12} Red_Coachy_1-vs-Blue_0\\)$", result), "%s", result);
    cr_expect_eq(has_msg(&g, "Recv Red_1: (dash 40)"), record_messages);
    cr_expect_eq(has_msg(&g, "(referee goal_l_1)"), version == 1 || record_messages);
    rcg_free(&g);
    e2e_rec_free(&r);
}

Test(log_versions, v1, .timeout = 120) { check_version(1, 0, 0); }
Test(log_versions, v2, .timeout = 120) { check_version(2, 0, 1); }
Test(log_versions, v3, .timeout = 120) { check_version(3, 0, 0); }
Test(log_versions, v3_gzip, .timeout = 120) { check_version(3, 9, 1); }
Test(log_versions, v4, .timeout = 120) { check_version(4, 0, 0); }
Test(log_versions, v5_gzip, .timeout = 120) { check_version(5, 1, 1); }
Test(log_versions, v6, .timeout = 120) { check_version(6, 0, 1); }
Test(log_versions, json, .timeout = 120) { check_version(-1, 0, 0); }
Test(log_versions, json_gzip, .timeout = 120) { check_version(-1, 6, 1); }

/* a version no reference has: the recorder says so and writes no game log; the match
 * still runs and the text log is written */
Test(log_versions, unknown_version_no_game_log, .timeout = 60)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    const char *args[] = { "server::game_logging=true", "server::text_logging=true",
                           d.game_arg, d.text_arg, "server::game_log_version=7",
                           "server::synch_mode=true", "server::synch_timeout=20000", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_players_t p = { 0 };
    cr_assert_eq(e2e_players_join(&p, &s, "Red", 0), 0);
    cr_assert_eq(e2e_players_cycles(&p, 5, 10000), 0);
    e2e_players_close(&p);
    char *out = e2e_read_file(s.log, NULL);
    cr_expect(out && strstr(out, "game_log_version 7 is not written by this server "
                                 "(1, 2, 3, 4, 5, 6, -1 (JSON))"), "%s", out ? out : "");
    free(out);
    cr_assert_eq(e2e_server_stop(&s), 0);
    char path[512];
    cr_expect_eq(e2e_logdir_find(&d, ".rcg", path, sizeof path), 0);
    cr_expect_eq(e2e_logdir_find(&d, ".rcl", path, sizeof path), 1);
    e2e_logdir_remove(&d);
}
