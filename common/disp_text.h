/* disp_text.h -- the text forms of monitor protocols 3-5 and of text game logs v4-v6
 * (docs/protocol/monitor.md §4, §5; docs/protocol/logs.md §2): (show ...) lines, (msg ...)
 * lines and team-graphic tiles. Pure; each writes a NUL-terminated text and returns its
 * length, or -1 if it does not fit in len. */
#ifndef RCSS_DISP_TEXT_H
#define RCSS_DISP_TEXT_H

#include <stddef.h>
#include "disp.h"

#define DISP_TEXT_LOG  0x1   /* game-log form: no (pm ...) and (tm ...) */

/* (show TIME (pm PM) (tm L R SL SR [penalties]) ((b) X Y VX VY) PLAYER x 22) for
 * version 3, 4 or 5 (log v4/v5/v6 use 3/4/5 with DISP_TEXT_LOG). */
int disp_text_show(const disp_show_t *s, int version, int flags, char *buf, size_t len);
/* (msg TIME BOARD "TEXT"), TEXT as is (not escaped, as the reference). */
int disp_text_msg(int time, int board, const char *text, char *buf, size_t len);
/* The message text of a team-graphic tile: (team_graphic_l (X Y "line" "line" ...)
 * (one closing paren, as the reference); lines is the quoted XPM lines as the online
 * coach gateway forwards them ("\"8 8 2 1\" \"...\" ..."). */
int disp_text_team_graphic(int side, int x, int y, const char *lines, char *buf, size_t len);

#endif
