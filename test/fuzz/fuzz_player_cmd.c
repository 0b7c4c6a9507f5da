/* fuzz_player_cmd.c -- libFuzzer target: arbitrary datagrams through the player command
 * parser (both sides, with and without team names) and the init-port parser; checks the
 * output invariants (counts within limits, replies NUL-terminated).
 * Build: clang -fsanitize=fuzzer,address,undefined -Icommon -Ishm -Inetgw/player
 *        fuzz_player_cmd.c netgw/player/netgw_playercmd.c netgw/player/netgw_init.c
 *        common/[*].c -lm */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "netgw_proto.h"

static void check_parsed(const proto_parsed_t *p)
{
    if (p->n < 0 || p->n > PROTO_MAX_ITEMS || p->dropped < 0)
        abort();
    for (int i = 0; i < p->n; i++) {
        const proto_item_t *it = &p->item[i];
        if (it->kind == PROTO_IT_REPLY && memchr(it->reply, '\0', PROTO_REPLY_LEN) == NULL)
            abort();
        if (it->kind == PROTO_IT_CMD) {
            const shm_cmd_sh_t *c = &it->cmd;
            if (c->kind == SHM_CMD_NONE || c->len >= SHM_CMD_TEXT_LEN
                || memchr(c->text, '\0', SHM_CMD_TEXT_LEN) == NULL)
                abort();
        }
        if (it->kind == PROTO_IT_COMPRESSION && (it->a < -1 || it->a > 9))
            abort();
    }
    if (p->error && (p->n == 0 || p->item[p->n - 1].kind != PROTO_IT_REPLY))
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
        if (n >= sizeof in.team)
            abort();
        if (!in.reconnect && n == 0)
            abort();
    } else if (memchr(err, '\0', sizeof err) == NULL || err[0] != '(') {
        abort();
    }
    return 0;
}
