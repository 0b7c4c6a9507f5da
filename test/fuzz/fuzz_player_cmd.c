/* fuzz_player_cmd.c -- libFuzzer target: arbitrary datagrams through the player command
 * parser (both sides, with and without team names) and the init-port parser; checks the
 * output invariants (counts within limits, replies NUL-terminated).
 * Build: clang -fsanitize=fuzzer,address,undefined -Icommon -Ishm -Inetgw
 *        fuzz_player_cmd.c netgw/netgw_cmd.c netgw/netgw_init.c common/[*].c -lm */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "netgw_proto.h"

static void check_parsed(const proto_parsed_t *p)
{
    if (p->ncmd < 0 || p->ncmd > PROTO_MAX_CMDS || p->nreply < 0
        || p->nreply > PROTO_MAX_REPLIES)
        abort();
    for (int i = 0; i < p->nreply; i++) {
        if (memchr(p->reply[i], '\0', PROTO_REPLY_LEN) == NULL)
            abort();
    }
    for (int i = 0; i < p->ncmd; i++) {
        const shm_cmd_sh_t *c = &p->cmd[i];
        if (c->kind == SHM_CMD_NONE || c->len >= SHM_CMD_TEXT_LEN
            || memchr(c->text, '\0', SHM_CMD_TEXT_LEN) == NULL)
            abort();
    }
    if (p->compression < -1 || p->compression > 9)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static proto_parsed_t out;
    const char *s = (const char *)data;
    proto_parse_player(s, size, 19.0, SHM_SIDE_LEFT, "Alpha", "Beta", &out);
    check_parsed(&out);
    proto_parse_player(s, size, 7.0, SHM_SIDE_RIGHT, NULL, "", &out);
    check_parsed(&out);

    proto_init_t in;
    char err[64];
    if (proto_parse_init(s, size, &in, err, sizeof err) == 0) {
        size_t n = strnlen(in.team, sizeof in.team);
        if (n == 0 || n >= sizeof in.team)
            abort();
        if (!in.reconnect && (in.version < 1.0 || in.version >= 20.0))
            abort();
        if (in.reconnect && (in.unum < 1 || in.unum > SHM_TEAM_SIZE))
            abort();
    } else if (memchr(err, '\0', sizeof err) == NULL || err[0] != '(') {
        abort();
    }
    return 0;
}
