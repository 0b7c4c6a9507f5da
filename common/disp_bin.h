/* disp_bin.h -- the binary structs of monitor protocols 1 and 2 and of binary game logs
 * (spec monitor-log-coach.md 1.4, 2.2, Appendix A): every integer big-endian, padding
 * as the x86-64 layout of the reference headers (zero bytes here), reals scaled.
 * Pure: each writes exactly its struct's size into out and returns that size. */
#ifndef RCSS_DISP_BIN_H
#define RCSS_DISP_BIN_H

#include <stddef.h>
#include <stdint.h>
#include "conf.h"
#include "disp.h"

#define DISP_SHOWINFO_SIZE        316   /* showinfo_t (v1 monitor, v2 log) */
#define DISP_SHOWINFO2_SIZE       1468  /* showinfo_t2 (v2 monitor) */
#define DISP_SHORT_SHOWINFO2_SIZE 1428  /* short_showinfo_t2 (v3 log) */
#define DISP_MSGINFO_SIZE         2050  /* msginfo_t: board + 2048 chars */
#define DISP_MSG_TEXT_MAX         2048
#define DISP_SERVER_PARAMS_SIZE   396   /* server_params_t */
#define DISP_PLAYER_PARAMS_SIZE   132   /* player_params_t */
#define DISP_PLAYER_TYPE_SIZE     88    /* player_type_t */
#define DISP_TEAM_SIZE            18    /* team_t: name[16] + score */
#define DISP_V1_SIZE              2052  /* dispinfo_t: mode + union */
#define DISP_V2_SIZE              2056  /* dispinfo_t2: mode + 2 pad + union */

size_t disp_bin_showinfo(const disp_show_t *s, uint8_t *out);
size_t disp_bin_showinfo2(const disp_show_t *s, uint8_t *out);
size_t disp_bin_short_showinfo2(const disp_show_t *s, uint8_t *out);
/* board + text truncated to 2047 chars, NUL-padded to 2048 */
size_t disp_bin_msginfo(int board, const char *text, uint8_t *out);
/* two team_t (log v3 TEAM_MODE) */
size_t disp_bin_teams(const disp_show_t *s, uint8_t *out);
size_t disp_bin_server_params(const conf_t *c, uint8_t *out);
size_t disp_bin_player_params(const conf_t *c, uint8_t *out);
size_t disp_bin_player_type(const disp_ptype_t *t, uint8_t *out);

/* Whole monitor datagrams: mode, the body (len bytes) and zero fill up to the fixed
 * size (DISP_V1_SIZE for protocol 1, DISP_V2_SIZE for protocol 2). Returns the size,
 * 0 if the body does not fit. */
size_t disp_bin_v1(int mode, const uint8_t *body, size_t len, uint8_t *out);
size_t disp_bin_v2(int mode, const uint8_t *body, size_t len, uint8_t *out);

/* big-endian readers, for tests and tools */
static inline int16_t disp_get16(const uint8_t *p)
{
    return (int16_t)(uint16_t)((p[0] << 8) | p[1]);
}
static inline int32_t disp_get32(const uint8_t *p)
{
    return (int32_t)(((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3]);
}

#endif
