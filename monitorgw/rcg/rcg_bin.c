/* rcg_bin.c -- binary game logs, versions 1-3 (docs/protocol/logs.md §1, §2), the
 * inverse of monitorgw/rcg/rec_fmt_bin.c; the structs are read by common/disp_bin.c.
 *   v1: 2052-byte records: int16 mode + 2050-byte union (SHOW_MODE showinfo_t, MSG_MODE
 *       msginfo_t); a record of another mode is skipped.
 *   v2, v3: int16 mode + a body whose size the mode gives (show: showinfo_t in v2,
 *       short_showinfo_t2 in v3; message: board, length, text; v3 also parameters, player
 *       types, play mode, teams). An unknown mode cannot be stepped over: the rest of the
 *       file is left unread, with a note.
 * A file that ends inside a record reads up to the record before. */
#include <string.h>
#include "disp_bin.h"
#include "rcg.h"

static int get16(const uint8_t *p)
{
    return disp_get16(p);
}

static void cut(rcg_t *g, size_t left, size_t need)
{
    g->truncated = 1;
    rcg_note(g, "the file ends inside a record (%zu of its %zu bytes, after frame %d, cycle %d): "
             "read up to there", left, need, g->n_frames,
             g->n_frames ? g->frame[g->n_frames - 1].show.time : 0);
}

/* ---- version 1 ------------------------------------------------------------------------ */
static int read_v1(rcg_t *g, const uint8_t *p, size_t len)
{
    static disp_show_t d;
    static char text[DISP_MSG_TEXT_MAX + 1];
    for (size_t off = 0; off < len; off += DISP_V1_SIZE) {
        if (len - off < DISP_V1_SIZE) {
            cut(g, len - off, DISP_V1_SIZE);
            break;
        }
        int mode = get16(p + off);
        if (mode == DISP_SHOW_MODE) {
            disp_bin_read_showinfo(p + off + 2, &d);
            if (rcg_add_frame(g, &d) < 0)
                return -1;
        } else if (mode == DISP_MSG_MODE) {
            int board = disp_bin_read_msginfo(p + off + 2, text, sizeof text);
            if (rcg_add_msg(g, g->n_frames ? g->frame[g->n_frames - 1].show.time : 0, board,
                            text, sizeof text) < 0)
                return -1;
        } else {
            g->bad_items++;
        }
    }
    return 0;
}

/* ---- versions 2 and 3 ------------------------------------------------------------------- */
/* the body size of a chunk of mode in version v (b: its left bytes); 0 for an unknown
 * mode */
static size_t body_size(int v, int mode, const uint8_t *b, size_t left)
{
    switch (mode) {
    case DISP_SHOW_MODE:
        return v == 2 ? DISP_SHOWINFO_SIZE : DISP_SHORT_SHOWINFO2_SIZE;
    case DISP_MSG_MODE: {
        if (left < 4)
            return 4;
        int n = get16(b + 2);
        return 4 + (size_t)(n < 0 ? 0 : n);
    }
    case DISP_PM_MODE:
        return 1;
    case DISP_TEAM_MODE:
        return 2 * DISP_TEAM_SIZE;
    case DISP_PT_MODE:
        return DISP_PLAYER_TYPE_SIZE;
    case DISP_PARAM_MODE:
        return DISP_SERVER_PARAMS_SIZE;
    case DISP_PPARAM_MODE:
        return DISP_PLAYER_PARAMS_SIZE;
    default:
        return 0;
    }
}

/* the time of the last frame: messages carry none in binary logs */
static int last_time(const rcg_t *g)
{
    return g->n_frames ? g->frame[g->n_frames - 1].show.time : 0;
}

static int chunk(rcg_t *g, int mode, const uint8_t *b, size_t n)
{
    static disp_show_t d;
    disp_ptype_t t;
    switch (mode) {
    case DISP_SHOW_MODE:
        if (g->version == 2) {
            disp_bin_read_showinfo(b, &d);
        } else {
            d = g->cur; /* play mode, teams and scores of the PM and TEAM chunks */
            disp_bin_read_short_showinfo2(b, &d);
        }
        return rcg_add_frame(g, &d);
    case DISP_MSG_MODE:
        return rcg_add_msg(g, last_time(g), get16(b), (const char *)b + 4, n - 4);
    case DISP_PM_MODE:
        g->cur.pmode = b[0];
        return 0;
    case DISP_TEAM_MODE:
        disp_bin_read_teams(b, &g->cur);
        return 0;
    case DISP_PT_MODE:
        disp_bin_read_player_type(b, &t);
        rcg_add_ptype(g, &t);
        return 0;
    case DISP_PARAM_MODE:
        disp_bin_read_server_params(b, &g->conf);
        g->has_params = 1;
        return 0;
    default:
        disp_bin_read_player_params(b, &g->conf);
        return 0;
    }
}

static int read_v23(rcg_t *g, const uint8_t *p, size_t len)
{
    size_t off = 0;
    while (off < len) {
        if (len - off < 2) {
            cut(g, len - off, 2);
            break;
        }
        int mode = get16(p + off);
        size_t need = body_size(g->version, mode, p + off + 2, len - off - 2);
        if (need == 0) {
            g->bad_items++;
            rcg_note(g, "an unknown record (mode %d) at byte %zu: the %zu bytes from there are "
                     "not read", mode, off + 4, len - off);
            break;
        }
        if (len - off - 2 < need) {
            cut(g, len - off - 2, need);
            break;
        }
        if (chunk(g, mode, p + off + 2, need) < 0)
            return -1;
        off += 2 + need;
    }
    return 0;
}

int rcg_bin_read(rcg_t *g, const uint8_t *data, size_t len)
{
    return g->version == 1 ? read_v1(g, data, len) : read_v23(g, data, len);
}
