/* disp_json.h -- the JSON forms of the monitor protocol (version -1) and of the JSON
 * game log (docs/protocol/monitor.md §2-§5; docs/protocol/logs.md §2), built with jansson.
 * Pure; each writes one compact NUL-terminated JSON object into buf and returns its length,
 * or -1 if it does not fit. Reals are printed with 6 significant digits, as the reference's
 * streams; integral values without a fraction. */
#ifndef RCSS_DISP_JSON_H
#define RCSS_DISP_JSON_H

#include <stddef.h>
#include "conf.h"
#include "disp.h"

#define DISP_JSON_LOG  0x1   /* game-log form: counters, no mode/team/fdist/fdir */

/* {"show":{"time":T[,"stime":S],"mode":..,"team":{..},"ball":{..},"players":[..]}} */
int disp_json_show(const disp_show_t *s, int flags, char *buf, size_t len);
/* {"msg":{"time":T[,"stime":S],"board":B,"message":"..."}} */
int disp_json_msg(int time, int stime, int board, const char *text, char *buf, size_t len);
/* {"team_graphic":{"side":"l","x":X,"y":Y,"xpm":["..",..]}}; lines = the quoted XPM
 * lines as the online-coach gateway forwards them ("\"8 8 2 1\" \"...\" ..."). */
int disp_json_team_graphic(int side, int x, int y, const char *lines, char *buf, size_t len);
/* {"server_param":{..}} / {"player_param":{..}}: every parameter of the module that
 * monitors and logs get (tag >= 1), alphabetical; bools true/false. */
int disp_json_server_param(const conf_t *c, char *buf, size_t len);
int disp_json_player_param(const conf_t *c, char *buf, size_t len);
/* {"player_type":{"id":N,"player_speed_max":..,...}} */
int disp_json_player_type(const disp_ptype_t *t, char *buf, size_t len);
/* log only: {"playmode":{"time":T,"mode":".."}} and {"team":{"time":T,"l":{..},"r":{..}}} */
int disp_json_playmode(const disp_show_t *s, char *buf, size_t len);
int disp_json_team(const disp_show_t *s, char *buf, size_t len);

#endif
