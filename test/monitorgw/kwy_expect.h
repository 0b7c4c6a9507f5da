/* kwy_expect.h -- the .kwy header a 3 keepers / 2 takers match in a 20 x 20 region must
 * begin with, written out by hand (not by the recorder's code it checks). */
#ifndef RCSS_TEST_KWY_EXPECT_H
#define RCSS_TEST_KWY_EXPECT_H

static const char KWY_HEADER_3_2[] =
    "# Keepers: 3\n"
    "# Takers:  2\n"
    "# Region:  20 x 20\n"
    "#\n"
    "# Description of Fields:\n"
    "# 1) Episode number\n"
    "# 2) Start time in simulator steps (100ms)\n"
    "# 3) End time in simulator steps (100ms)\n"
    "# 4) Duration in simulator steps (100ms)\n"
    "# 5) (o)ut of bounds / (t)aken away\n"
    "#\n";

#endif
