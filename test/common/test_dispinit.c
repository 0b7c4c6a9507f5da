/* test_dispinit.c -- the monitor init forms of docs/protocol/monitor.md §1. */
#include <criterion/criterion.h>
#include "dispinit.h"

Test(dispinit, versions)
{
    int v;
    cr_expect_eq(dispinit_parse("(dispinit)", 10, &v), 0);
    cr_expect_eq(v, 1, "bare dispinit is version 1");
    cr_expect_eq(dispinit_parse("(dispinit version 3)", 20, &v), 0);
    cr_expect_eq(v, 3);
    cr_expect_eq(dispinit_parse("(dispinit version 4.9)", 22, &v), 0);
    cr_expect_eq(v, 4, "truncated, not rounded");
    cr_expect_eq(dispinit_parse("(dispinit version -1)", 21, &v), 0);
    cr_expect_eq(v, -1);
    cr_expect_eq(dispinit_parse("(dispinit version 0.5)", 22, &v), 0);
    cr_expect_eq(v, 0);
    cr_expect_not(dispinit_version_known(0));
    cr_expect_not(dispinit_version_known(6));
    cr_expect(dispinit_version_known(-1) && dispinit_version_known(1) && dispinit_version_known(5));
    cr_expect(dispinit_version_served(3) && dispinit_version_served(5));
    cr_expect(dispinit_version_served(1) && dispinit_version_served(2), "binary protocols");
    cr_expect(dispinit_version_served(-1), "and JSON");
    cr_expect_not(dispinit_version_served(0) || dispinit_version_served(6)
                  || dispinit_version_served(-2));
    cr_expect_eq(dispinit_parse("(dispinit version)", 18, &v), -1);
    cr_expect_eq(dispinit_parse("(dispinit version x)", 20, &v), -1);
    cr_expect_eq(dispinit_parse("(init x)", 8, &v), -1);
    cr_expect_eq(dispinit_parse("((((", 4, &v), -1);
    cr_expect_eq(dispinit_parse("", 0, &v), -1);
}
