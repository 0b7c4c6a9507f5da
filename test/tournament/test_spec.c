/* test_spec.c -- the tournament file (scripts/tournament/tn_spec.c): defaults, a team's
 * own command and cores over the file's, server parameters as server:: arguments, the
 * placeholders of a start command, and refusals (unknown keys, bad or twice-used names,
 * a sweep of a team against itself), each with a line naming what is wrong. The files
 * in conf/tournament/ parse. */
#include <criterion/criterion.h>
#include <string.h>

#include "tn.h"

Test(spec, defaults_and_team_overrides)
{
    tn_spec_t s;
    char err[256];
    const char *text = "{\"name\": \"cup\", \"command\": \"run {team}\", \"cores\": 2, \"teams\": "
                       "[\"A\", {\"name\": \"B\", \"command\": \"other {team} {side}\", \"cores\": 3}], "
                       "\"server\": {\"half_time\": 5, \"synch_mode\": false, \"params\": "
                       "{\"kick_off_wait\": 20, \"server::coach\": true, \"player::pt_max\": 2, "
                       "\"server::slow_down_factor\": 1.5, \"landmark_file\": \"x y\"}}}";
    cr_assert_eq(tn_spec_parse(text, &s, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(s.name, "cup");
    cr_expect_eq(s.nteams, 2);
    cr_expect_str_eq(s.teams[0].command, "run {team}");
    cr_expect_eq(s.teams[0].cores, 2);
    cr_expect_str_eq(s.teams[1].command, "other {team} {side}");
    cr_expect_eq(s.teams[1].cores, 3);
    cr_expect_eq(s.format, TN_FMT_RR);
    cr_expect_eq(s.synch, 0);
    cr_expect_eq(s.half_time, 5);
    cr_expect_eq(s.halves, 2);
    cr_expect_eq(s.retries, 2);
    cr_expect_eq(s.seed, 1);
    cr_assert_eq(s.nparams, 5);
    cr_expect_str_eq(s.params[0], "server::kick_off_wait=20");
    cr_expect_str_eq(s.params[1], "server::coach=true");
    cr_expect_str_eq(s.params[2], "player::pt_max=2");
    cr_expect_str_eq(s.params[3], "server::slow_down_factor=1.5");
    cr_expect_str_eq(s.params[4], "server::landmark_file=x y");
    tn_spec_free(&s);
}

Test(spec, refusals_name_the_problem)
{
    static const struct { const char *text, *says; } bad[] = {
        { "{\"teams\": [\"A\", \"B\"], \"fromat\": \"sweep\"}", "fromat" },
        { "{\"teams\": [\"A\", \"A\"]}", "twice" },
        { "{\"teams\": [\"A\", \"Has space\"]}", "Has space" },
        { "{\"teams\": [\"A\", \"SixteenCharsLong\"]}", "SixteenCharsLong" },
        { "{\"teams\": [\"A\"]}", "two teams" },
        { "{\"teams\": [\"A\", {\"name\": \"B\", \"cpus\": 2}]}", "cpus" },
        { "{\"teams\": [\"A\", \"B\"], \"format\": \"league\"}", "league" },
        { "{\"teams\": [\"A\", \"B\"], \"format\": {\"type\": \"sweep\", \"left\": \"A\", "
          "\"right\": \"A\", \"matches\": 3}}", "different" },
        { "{\"teams\": [\"A\", \"B\"], \"format\": {\"type\": \"sweep\", \"matches\": 2, "
          "\"seeds\": [1]}}", "one seed per match" },
        { "{\"teams\": [\"A\", \"B\"], \"server\": {\"halftime\": 5}}", "halftime" },
        { "{\"teams\": [\"A\", \"B\"], \"server\": {\"params\": {\"x\": [1]}}}", "x" },
        { "{\"teams\": [\"A\", \"B\"], \"retries\": -1}", "retries" },
        { "[1, 2]", "not a JSON object" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tn_spec_t s;
        char err[256];
        cr_expect_eq(tn_spec_parse(bad[i].text, &s, err, sizeof err), -1, "accepted: %s", bad[i].text);
        cr_expect(strstr(err, bad[i].says) != NULL, "%s: error \"%s\" does not say %s",
                  bad[i].text, err, bad[i].says);
        tn_spec_free(&s);
    }
}

Test(spec, placeholders)
{
    static const char *const names[] = { "host", "port", "team", "side", "bindir" };
    const char *vals[] = { "127.0.0.1", "41234", "Alpha", "l", "/opt/rcss/bin" };
    char *line = tn_fill("{bindir}/team --host {host} -p {port} -t {team} {side} {unknown} {port}x{",
                         names, vals, 5);
    cr_expect_str_eq(line, "/opt/rcss/bin/team --host 127.0.0.1 -p 41234 -t Alpha l {unknown} 41234x{");
    free(line);
}

Test(spec, the_shipped_files_parse)
{
    static const char *const files[] = { "conf/tournament/demo.json", "conf/tournament/sweep100.json" };
    for (size_t i = 0; i < 2; i++) {
        tn_spec_t s;
        char err[256];
        cr_expect_eq(tn_spec_load(files[i], &s, err, sizeof err), 0, "%s: %s", files[i], err);
        tn_spec_free(&s);
    }
    tn_spec_t s;
    char err[256];
    cr_assert_eq(tn_spec_load("conf/tournament/demo.json", &s, err, sizeof err), 0);
    cr_expect_eq(s.nteams, 4);
    cr_expect_eq(s.format, TN_FMT_RR);
    cr_expect_eq(s.synch, 1);
    cr_expect(strstr(s.teams[0].command, "{bindir}/rcss-demoteam") != NULL);
    tn_spec_free(&s);
}
