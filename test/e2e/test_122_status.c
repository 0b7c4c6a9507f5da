/* test_122_status.c -- GET /status (JSON) and GET /metrics (Prometheus text) on the HTTP
 * server (issue 13), server::http_port=-1 (a free port, reported in the region and on
 * the ready line). A synch-mode server with two players, the trainer and a monitor,
 * 10 cycles stepped: the numbers must be those of what the test did (two players of
 * two teams, one connection each, no misses, one monitor, at least 10 cycles published,
 * positive cycle periods), and every metrics line must be a well-formed sample. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_ref.h"
#include "e2e_runner.h"

static char body[262144];

static json_int_t jint(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* "name{labels} value" or "name value"; comments start with '#' */
static int sample_ok(const char *l)
{
    const char *p = l;
    if (!isalpha((unsigned char)*p) && *p != '_')
        return 0;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == ':')
        p++;
    if (*p == '{') {
        p = strchr(p, '}');
        if (!p)
            return 0;
        p++;
    }
    if (*p++ != ' ')
        return 0;
    char *end;
    strtod(p, &end);
    return end != p && *end == '\0';
}

/* the value of the sample named exactly name (with labels), -1 if absent */
static double sample(const char *text, const char *name)
{
    char key[256];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *p = strstr(text, key);
    return p ? atof(p + strlen(key)) : -1;
}

Test(runner_status, status_and_metrics, .timeout = 60)
{
    const char *args[] = { "server::http_port=-1", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int http = e2e_runner_http_port(m.s.shm_name);
    cr_assert_gt(http, 0);
    cr_assert_geq(e2e_ref_connect(&m, "A", 1), 0);
    cr_assert_geq(e2e_ref_connect(&m, "B", 0), 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    int mon = e2e_udp_open();
    char buf[8192];
    e2e_send(mon, m.s.port, "(dispinit version 4)");
    cr_assert_gt(e2e_recv(mon, buf, sizeof buf, 2000, NULL), 0);
    cr_assert_eq(e2e_ref_cycles(&m, 10), 0);

    cr_assert_eq(e2e_http_get(http, "/status", body, sizeof body), 200);
    json_error_t err;
    json_t *s = json_loads(body, 0, &err);
    cr_assert_not_null(s, "%s: %s", err.text, body);
    cr_expect_str_eq(json_string_value(json_object_get(s, "state")), "running");
    cr_expect(json_is_true(json_object_get(s, "ready")));
    cr_expect(json_is_true(json_object_get(s, "synch_mode")));
    cr_expect_str_eq(json_string_value(json_object_get(s, "miss_policy")), "skip");
    cr_expect_str_eq(json_string_value(json_object_get(s, "shm")), m.s.shm_name);
    json_t *ports = json_object_get(s, "ports");
    cr_expect_eq(jint(ports, "port"), m.s.port);
    cr_expect_eq(jint(ports, "coach_port"), m.s.coach_port);
    cr_expect_eq(jint(ports, "olcoach_port"), m.s.olcoach_port);
    cr_expect_eq(jint(ports, "http_port"), http);
    cr_expect_str_eq(json_string_value(json_object_get(s, "play_mode")), "before_kick_off");
    cr_expect_geq(jint(s, "step"), 10);
    json_t *teams = json_object_get(s, "teams");
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(teams, 0), "name")), "A");
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(teams, 1), "name")), "B");
    cr_expect_eq(jint(json_array_get(teams, 0), "players"), 1);
    json_t *cl = json_object_get(s, "clients");
    cr_assert_eq(json_array_size(cl), 3, "two players and the trainer: %s", body);
    for (size_t i = 0; i < 3; i++) {
        json_t *c = json_array_get(cl, i);
        cr_expect(json_is_true(json_object_get(c, "connected")));
        cr_expect_eq(jint(c, "connections"), 1);
        cr_expect_eq(jint(c, "misses"), 0);
        cr_expect_eq(jint(c, "consecutive_misses"), 0);
    }
    /* players by slot: A 1 is index 0, B 1 index 11; the trainer 22 */
    cr_expect_eq(jint(json_array_get(cl, 0), "index"), 0);
    cr_expect_eq(jint(json_array_get(cl, 1), "index"), 11);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(cl, 2), "client")), "trainer");
    cr_expect_eq(jint(s, "monitors"), 1);
    cr_expect_eq(jint(s, "misses"), 0);
    json_t *cyc = json_object_get(s, "cycle");
    cr_expect_geq(jint(cyc, "count"), 10);
    cr_expect_gt(json_real_value(json_object_get(cyc, "period_ms")), 0.0);
    cr_expect_gt(json_real_value(json_object_get(cyc, "publish_max_ms")), 0.0);
    cr_expect(json_is_number(json_object_get(cyc, "jitter_ms")));
    json_t *drops = json_object_get(s, "drops");
    cr_expect_eq(jint(drops, "commands"), 0);
    cr_expect(json_is_integer(json_object_get(drops, "monitor_frames")));
    json_t *gws = json_object_get(s, "gateways");
    cr_expect_eq(json_array_size(gws), 3, "netgw0, monitorgw, recorder (not running)");
    cr_expect_gt(jint(json_array_get(gws, 0), "pid"), 0);
    cr_expect(json_is_null(json_object_get(s, "exit")));
    json_decref(s);

    cr_assert_eq(e2e_http_get(http, "/metrics", body + 1, sizeof body - 1), 200);
    body[0] = '\n';
    char *copy = strdup(body + 1);
    int samples = 0, types = 0;
    for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (l[0] == '#') {
            types += strncmp(l, "# TYPE ", 7) == 0;
            continue;
        }
        cr_expect(sample_ok(l), "not a sample: '%s'", l);
        samples++;
    }
    free(copy);
    cr_expect_gt(samples, 20);
    cr_expect_gt(types, 10);
    cr_expect_eq(sample(body, "rcss_ready"), 1);
    cr_expect_geq(sample(body, "rcss_cycles_total"), 10);
    cr_expect_gt(sample(body, "rcss_cycle_period_last_seconds"), 0);
    cr_expect_gt(sample(body, "rcss_cycle_period_seconds_count"), 0);
    cr_expect_geq(sample(body, "rcss_cycle_jitter_seconds"), 0);
    cr_expect_gt(sample(body, "rcss_publish_max_seconds"), 0);
    cr_expect_eq(sample(body, "rcss_clients{kind=\"player\"}"), 2);
    cr_expect_eq(sample(body, "rcss_clients{kind=\"trainer\"}"), 1);
    cr_expect_eq(sample(body, "rcss_monitors"), 1);
    cr_expect_eq(sample(body, "rcss_synch_misses_total"), 0);
    cr_expect_eq(sample(body, "rcss_client_misses_total{client=\"player\",side=\"l\",unum=\"1\"}"), 0);
    cr_expect_eq(sample(body, "rcss_client_connections_total{client=\"player\",side=\"r\",unum=\"1\"}"), 1);
    cr_expect_eq(sample(body, "rcss_drops_total{what=\"commands\"}"), 0);
    cr_expect(strstr(body, "\n# TYPE rcss_cycle_period_seconds summary\n"), "%s", body);

    cr_expect_eq(e2e_http_get(http, "/no/such/page", body, sizeof body), 404);
    close(mon);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}
