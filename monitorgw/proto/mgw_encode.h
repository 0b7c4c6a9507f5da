/* mgw_encode.h -- the monitor protocol's encoders (mgw_encode.c, pure): a snapshot as
 * disp_show_t, and every datagram a monitor of protocol 1-5 or JSON gets (show frames,
 * board messages, team-graphic tiles, the init block). Shared by the monitor gateway
 * (gateway/), the log player (logplayer/) and the game-log writers (rcg/). */
#ifndef RCSS_MGW_ENCODE_H
#define RCSS_MGW_ENCODE_H

#include <stddef.h>
#include "conf.h"
#include "disp.h"
#include "dispinit.h"
#include "shm.h"

#define MGW_FRAME_MAX      24576  /* one encoded datagram (show, message, parameters) */
#define MGW_NVER           (DISPINIT_MAX_VERSION + 1) /* index 0 = JSON (-1), 1..5 */

/* the per-version slot of a protocol version: 0 for JSON (-1), else the version */
static inline int mgw_vidx(int version) { return version < 0 ? 0 : version; }

/* The disp_show_t of a snapshot (players' view widths, cards and focus as monitors see
 * them). */
void mgw_show_from_snap(const shm_snapshot_sh_t *s, disp_show_t *out);
void mgw_ptype_from_shm(const shm_ptype_sh_t *t, int id, disp_ptype_t *out);
/* The show frame of snapshot s for monitor protocol version (1..5, -1). Returns its
 * length (text and JSON include the NUL), -1 if buf is too small. */
int mgw_encode_show(const shm_snapshot_sh_t *s, int version, char *buf, size_t len);
int mgw_encode_show_disp(const disp_show_t *d, int version, char *buf, size_t len);
/* A board message for version (v1/v2 MSG_MODE datagram, v3+ (msg ...), JSON msg). */
int mgw_encode_msg_v(int version, int time, int stime, int board, const char *text, char *buf,
                     size_t len);
/* (msg TIME BOARD "TEXT") without its NUL (text protocols; kept for tests). */
int mgw_encode_msg(int time, int board, const char *text, char *buf, size_t len);
/* A team-graphic tile (lines: quoted XPM lines) as a message for version. */
int mgw_encode_tile(int version, int time, int side, int x, int y, const char *lines,
                    char *buf, size_t len);
/* Init-block datagram k (0 server params, 1 player params, 2.. player types) for
 * version; 0 when version has no such datagram (v1, k past the types). */
int mgw_encode_init(int version, int k, const conf_t *c, const shm_ptypes_sh_t *pt,
                    char *buf, size_t len);

#endif
