/* disp_bin.h -- the binary structs of monitor protocols 1 and 2 and of binary game logs
 * (docs/protocol/monitor.md §4, §9; docs/protocol/logs.md §2): every integer big-endian, padding
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

/* Reading back (game-log readers, tests): the inverses of the writers above, from
 * exactly the struct's size of bytes. Values come back at the struct's precision: v1
 * positions in 1/16 m and integer degrees, v2/v3 reals in 1/65536, state flags in 16 bits
 * (enabled = state != 0), view width in degrees; side and unum from the slot. */
void disp_bin_read_showinfo(const uint8_t *in, disp_show_t *s);
void disp_bin_read_showinfo2(const uint8_t *in, disp_show_t *s);
/* ball, players and time; s's play mode, team names and scores are kept (log v3 gives
 * them in PM_MODE and TEAM_MODE chunks) */
void disp_bin_read_short_showinfo2(const uint8_t *in, disp_show_t *s);
/* two team_t: names and scores into s */
void disp_bin_read_teams(const uint8_t *in, disp_show_t *s);
/* msginfo_t: returns the board, the text (up to its NUL or 2048 chars) into text */
int  disp_bin_read_msginfo(const uint8_t *in, char *text, size_t len);
/* the parameters the structs carry, set on c (derived and constant fields skipped) */
void disp_bin_read_server_params(const uint8_t *in, conf_t *c);
void disp_bin_read_player_params(const uint8_t *in, conf_t *c);
/* id and the 14 fields of player_type_t; the other fields 0 */
void disp_bin_read_player_type(const uint8_t *in, disp_ptype_t *t);

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
