/* test_108_help.c -- issue 12 item 9: `rcssserver server::help` prints every parameter
 * of the module, one line each after the heading and the version line, and exits 0;
 * the same for player::help, and plain help prints the usage and exits 0. The expected
 * lines come from the parameter table itself (common/params.def). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "e2e_safety.h"
#include "params.h"

static char out[1 << 20], err[65536];

static void expect_module(const char *module)
{
    char arg[32];
    snprintf(arg, sizeof arg, "%s::help", module);
    const char *argv[] = { "rcssserver", arg, NULL };
    int rc = es_run(argv, "/tmp", out, sizeof out, err, sizeof err, 15000);
    cr_expect_eq(rc, 0, "%s: exit status %d: %s", arg, rc, err);
    int n = 0;
    for (int i = 0; i < PARAM_COUNT; i++) {
        if (strcmp(param_defs[i].module, module) != 0)
            continue;
        n++;
        char want[128];
        snprintf(want, sizeof want, "\n  %s::%s = ", module, param_defs[i].name);
        cr_expect(strstr(out, want) != NULL, "%s missing from %s", want + 3, arg);
    }
    /* "server options:", "  server::version = ...", then one line per parameter */
    cr_expect_eq(es_lines(out), n + 2, "%s: %d lines for %d parameters", arg, es_lines(out), n);
    cr_expect_gt(strlen(out), 512u, "more than the old 512-byte buffer");
}

Test(help, every_parameter_and_status_0, .timeout = 30)
{
    expect_module("server");
    expect_module("player");
    const char *argv[] = { "rcssserver", "help", NULL };
    int rc = es_run(argv, "/tmp", out, sizeof out, err, sizeof err, 15000);
    cr_expect_eq(rc, 0);
    cr_expect(strstr(out, "usage: rcssserver") != NULL, "%s", out);
}
