/* test_strbuf.c -- the bounded text builder: appends, reals as the reference prints
 * them, and a sticky overflow that never writes past the buffer. */
#include <criterion/criterion.h>
#include <string.h>
#include "strbuf.h"

Test(strbuf, appends_and_reals)
{
    char buf[64];
    strbuf_t o = { buf, sizeof buf, 0, 0 };
    strbuf_printf(&o, "(see %d", 12);
    strbuf_real(&o, 0.5);
    strbuf_real(&o, -0.0);     /* "-0" prints as 0 */
    strbuf_real(&o, 1234567.0); /* 6 significant digits */
    strbuf_printf(&o, ")");
    cr_expect_str_eq(buf, "(see 12 0.5 0 1.23457e+06)");
    cr_expect_eq(o.pos, strlen(buf));
    cr_expect_eq(o.overflow, 0);
}

Test(strbuf, overflow_sticks_and_stays_in_bounds)
{
    char buf[16];
    memset(buf, 'x', sizeof buf);
    strbuf_t o = { buf, 10, 0, 0 };
    strbuf_printf(&o, "12345");
    strbuf_printf(&o, "67890"); /* needs 11 bytes with the NUL */
    cr_expect_eq(o.overflow, 1);
    cr_expect_eq(o.pos, 5u);
    cr_expect_str_eq(buf, "12345", "cut back to what fitted");
    strbuf_printf(&o, "a");
    cr_expect_eq(o.pos, 5u, "nothing after an overflow");
    cr_expect_eq(buf[10], 'x', "never past len");
    strbuf_t z = { buf, 0, 0, 0 };
    strbuf_printf(&z, "a");
    cr_expect_eq(z.pos, 0u, "a zero-length buffer takes nothing");
}
