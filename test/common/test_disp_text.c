/* test_disp_text.c -- the text show line in its log form, messages and team-graphic
 * tiles (docs/protocol/monitor.md §4, §5; docs/protocol/logs.md §2). The monitor form of
 * the show line is pinned in test/monitorgw/test_encode.c through the gateway's snapshot
 * conversion. */
#include <criterion/criterion.h>
#include <string.h>
#include "disp_text.h"

static disp_show_t show;
static char buf[16384];

Test(disp_text, log_form_drops_playmode_and_teams)
{
    memset(&show, 0, sizeof show);
    show.time = 7;
    show.pmode = 3;
    strcpy(show.team[0], "A");
    for (int i = 0; i < DISP_PLAYERS; i++) {
        show.player[i].side = i < 11 ? 1 : -1;
        show.player[i].unum = i % 11 + 1;
        show.player[i].view_width = 90;
    }
    cr_assert_gt(disp_text_show(&show, 5, DISP_TEXT_LOG, buf, sizeof buf), 0);
    cr_expect(strncmp(buf, "(show 7 ((b) 0 0 0 0) ((l 1) 0 0 0 0 0 0 0 0 (v l 90) (fp 0 0) "
                           "(s 0 0 0 0) (c 0 0 0 0 0 0 0 0 0 0 0 0)) ", 98) == 0, "%.120s", buf);
    cr_assert_gt(disp_text_show(&show, 3, 0, buf, sizeof buf), 0);
    cr_expect(strncmp(buf, "(show 7 (pm 3) (tm A null 0 0) ((b) 0 0 0 0) ", 44) == 0, "%.60s", buf);
    cr_expect_eq(disp_text_show(&show, 3, 0, buf, 100), -1, "too small");
}

Test(disp_text, msg_and_team_graphic)
{
    cr_assert_gt(disp_text_msg(12, 1, "(referee \"x\")", buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "(msg 12 1 \"(referee \"x\")\")");
    cr_assert_gt(disp_text_team_graphic(1, 0, 7, "\"8 8 1 1\" \"a c red\"", buf, sizeof buf), 0);
    /* one closing paren after the lines, as the reference */
    cr_expect_str_eq(buf, "(team_graphic_l (0 7 \"8 8 1 1\" \"a c red\")");
    cr_expect_eq(disp_text_msg(1, 1, "long", buf, 8), -1);
}
