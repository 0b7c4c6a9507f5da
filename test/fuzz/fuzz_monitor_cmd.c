/* fuzz_monitor_cmd.c -- libFuzzer target: arbitrary datagrams through the monitor parsers
 * (mgw_parse_cmd for a registered monitor's port, dispinit_parse for the hand-over),
 * checking the invariants monitorgw relies on: a known kind, a NUL-terminated reply, and
 * control records with sides and unums in range. */
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
    if (c.kind == MGW_CMD_CTRL && c.ctrl.kind != SHM_CMD_START) {
        int side = c.ctrl.i;
        unsigned unum = c.ctrl.flags & 0xffu;
        if (side < -1 || side > 1)
            abort();
        if (c.ctrl.kind != SHM_CMD_FOUL && (unum < 1 || unum > SHM_TEAM_SIZE))
            abort();
    }
    (void)dispinit_parse((const char *)data, size, &v);
    return 0;
}
