/* fuzz_monitor_cmd.c -- libFuzzer target: arbitrary datagrams through the monitor parsers
 * (mgw_parse_cmd for a registered monitor's port, dispinit_parse for the hand-over, the
 * zlib unpacker of compressed monitors, the operator list parser, the coach-mode
 * commands), checking the
 * invariants monitorgw relies on: a known kind, a NUL-terminated reply, control records
 * with sides and unums in range and positions on the field. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mgw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mgw_cmd_t c;
    int v;
    mgw_parse_cmd((const char *)data, size, &c);
    if (c.kind < MGW_CMD_ERROR || c.kind > MGW_CMD_DISPINIT)
        abort();
    if (memchr(c.reply, '\0', sizeof c.reply) == NULL)
        abort();
    /* the control records a monitor can send: (dispstart) and (dispreset)/(reset) carry
     * nothing; a foul, a player move, a discard and a card a side, a unum, a position */
    if (c.kind == MGW_CMD_CTRL && c.ctrl.kind != SHM_CMD_START && c.ctrl.kind != SHM_CMD_RESET
        && c.ctrl.kind != SHM_CMD_FOUL && c.ctrl.kind != SHM_CMD_MOVE_PLAYER
        && c.ctrl.kind != SHM_CMD_DISCARD && c.ctrl.kind != SHM_CMD_CARD)
        abort();
    if (c.kind == MGW_CMD_CTRL && (c.ctrl.kind == SHM_CMD_START || c.ctrl.kind == SHM_CMD_RESET)
        && (c.ctrl.i != 0 || c.ctrl.flags != 0))
        abort();
    if (c.kind == MGW_CMD_CTRL && c.ctrl.kind != SHM_CMD_START && c.ctrl.kind != SHM_CMD_RESET) {
        int side = c.ctrl.i;
        unsigned unum = c.ctrl.flags & 0xffu;
        if (side < -1 || side > 1)
            abort();
        if (c.ctrl.kind != SHM_CMD_FOUL && (unum < 1 || unum > SHM_TEAM_SIZE))
            abort();
        if (!(c.ctrl.d[0] >= -57.5 && c.ctrl.d[0] <= 57.5 && c.ctrl.d[1] >= -39.0
              && c.ctrl.d[1] <= 39.0))
            abort();
    }
    if (c.kind == MGW_CMD_COMPRESSION && (c.level < -1 || c.level > 9))
        abort();
    (void)dispinit_parse((const char *)data, size, &v);
    static char plain[4096];
    int n = mgw_zlib_unpack(data, size, plain, sizeof plain);
    if (n >= (int)sizeof plain || (n >= 0 && plain[n] != '\0'))
        abort();
    char list[256], err[128];
    size_t k = size < sizeof list - 1 ? size : sizeof list - 1;
    memcpy(list, data, k);
    list[k] = '\0';
    mgw_ops_t ops;
    if (mgw_ops_parse(list, &ops, err, sizeof err) == 0 && (ops.n < 0 || ops.n > MGW_MAX_OPS))
        abort();
    /* coach mode: a finite move, a unum in range, a NUL-terminated team name */
    if (mgw_parse_coach_cmd(list, &c)) {
        if (memchr(c.reply, '\0', sizeof c.reply) == NULL
            || memchr(c.team, '\0', sizeof c.team) == NULL)
            abort();
        if (c.kind == MGW_CMD_CTRL && c.ctrl.kind == SHM_CMD_MOVE_PLAYER
            && ((c.ctrl.flags & 0xffu) < 1 || (c.ctrl.flags & 0xffu) > SHM_TEAM_SIZE))
            abort();
        for (int i = 0; i < 5; i++) {
            if (c.kind == MGW_CMD_CTRL && !isfinite(c.ctrl.d[i]))
                abort();
        }
    }
    return 0;
}
