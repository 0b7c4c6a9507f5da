/* test_playmode.c -- play-mode names/lookup and reference number formatting. */
#include <criterion/criterion.h>
#include <string.h>
#include "playmode.h"

Test(playmode, names)
{
    cr_assert_str_eq(playmode_name(PM_NULL), "");
    cr_assert_str_eq(playmode_name(PM_BEFORE_KICK_OFF), "before_kick_off");
    cr_assert_str_eq(playmode_name(PM_PLAY_ON), "play_on");
    cr_assert_str_eq(playmode_name(PM_DROP_BALL), "drop_ball");
    cr_assert_str_eq(playmode_name(PM_ILLEGAL_DEFENSE_R), "illegal_defense_r");
    cr_assert_str_eq(playmode_name(PM_MAX), "");
    cr_assert_str_eq(playmode_name(-1), "");
    cr_assert_eq(PM_PLAY_ON, 3);
    cr_assert_eq(PM_MAX, 52);
}

Test(playmode, lookup_roundtrip)
{
    for (int i = 1; i < PM_MAX; i++)
        cr_assert_eq(playmode_lookup(playmode_name(i)), i, "%d", i);
    cr_assert_eq(playmode_lookup(""), -1);
    cr_assert_eq(playmode_lookup("play_onx"), -1);
    cr_assert_eq(playmode_lookup("PLAY_ON"), -1);
}

static void check(double v, const char *want)
{
    char buf[64];
    int n = fmt_real(buf, sizeof buf, v);
    cr_assert_str_eq(buf, want);
    cr_assert_eq(n, (int)strlen(want));
}

Test(playmode, fmt_real)
{
    check(8000, "8000");
    check(0.94, "0.94");
    check(1.05, "1.05");
    check(-0.0, "0");
    check(0.0, "0");
    check(1e-5, "1e-05");
    check(14.02, "14.02");
    check(-180, "-180");
    check(130600, "130600");
    check(1234567, "1.23457e+06");
    check(0.0008, "0.0008");
    check(1.0 / 3.0, "0.333333");
    char tiny[3];
    cr_assert_eq(fmt_real(tiny, sizeof tiny, 8000), 4);
    cr_assert_str_eq(tiny, "80");
}
