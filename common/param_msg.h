/* param_msg.h -- the (server_param ...), (player_param ...) and (player_type ...) messages
 * every client kind gets after init (players, coaches, monitors v3+, text game logs).
 * v7: positional lists; v8+: (name value) pairs in alphabetical order, only parameters
 * whose tag <= version (tag 0 extensions never). Pass version PARAM_MSG_ALL for monitors
 * and logs (every parameter with tag >= 1, including the 999 ones). Each writes a
 * NUL-terminated message and returns its length, or -1 if buf is too small. */
#ifndef RCSS_PARAM_MSG_H
#define RCSS_PARAM_MSG_H

#include <stddef.h>
#include "conf.h"
#include "shm_layout.h"

#define PARAM_MSG_ALL 1000.0

int param_msg_server(const conf_t *c, double version, char *buf, size_t len);
int param_msg_player(const conf_t *c, double version, char *buf, size_t len);
int param_msg_type(const shm_ptype_sh_t *t, int id, double version, char *buf, size_t len);

#endif
