/* fuzz_3d_msg.c -- libFuzzer target for the 3D server's parsers: arbitrary bytes as an
 * agent message (agw3d_cmd_parse), a stream of SPADES frames (agw3d_spades_next, each
 * message taken in turn as the gateway does), a monitor message (mgw3d_cmd_parse) and a
 * monitor log (mgw3d_replay_load), checking what the gateways rely on: records of known kinds
 * with numbers, unums, sides and play modes in range, texts within their records, and
 * error replies that are one short NUL-terminated expression. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "agw3d.h"
#include "mgw3d.h"
#include "playmode3d.h"

static void check_record(void *ctx, const shm3d_cmd_sh_t *c)
{
    (void)ctx;
    if (c->kind < SHM3D_CMD_CREATE || c->kind > SHM3D_CMD_ACK || c->len > SHM3D_CMD_TEXT_LEN)
        abort();
    for (int i = 0; i < 6; i++) {
        if (!isfinite(c->d[i]))
            abort();
    }
    if (c->kind == SHM3D_CMD_INIT && (c->i < 0 || c->i > SHM3D_TEAM_SIZE || c->len == 0))
        abort();
    if (c->kind == SHM3D_CMD_PLAYMODE && (c->i < 0 || c->i >= PM3D_COUNT))
        abort();
    if (c->kind == SHM3D_CMD_AGENT && (c->i < 0 || c->i > 1 || c->j < 1 || c->j > SHM3D_TEAM_SIZE))
        abort();
}

static void check_error(void *ctx, const char *text)
{
    (void)ctx;
    size_t n = strnlen(text, 200);
    if (n >= 160 || n < 8 || text[0] != '(' || text[n - 1] != ')' || strchr(text, '"'))
        abort();
}

static void on_syn(void *ctx)
{
    (void)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    agw3d_sink_t a = { check_record, check_error, on_syn, NULL };
    mgw3d_sink_t m = { check_record, check_error, NULL };
    agw3d_cmd_parse((const char *)data, size, &a);
    mgw3d_cmd_parse((const char *)data, size, 0, &m);
    size_t at = 0, used = 0;
    agw3d_sp_msg_t sm;
    char why[96];
    while (agw3d_spades_next(data + at, size - at, AGW3D_SP_MAX, &sm, &used, why, sizeof why) == 1) {
        if (used < 5 || used > size - at || sm.len + 5 != used
            || (sm.type != 'A' && sm.type != 'D' && sm.type != 'I') || (sm.type != 'A' && sm.len))
            abort();
        agw3d_cmd_parse(sm.data, sm.len, &a);
        at += used;
    }
    char *copy = malloc(size + 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    mgw3d_replay_t r;
    char err[128];
    mgw3d_replay_load(&r, copy, size, err, sizeof err);
    for (int i = 0; i < r.n; i++) {
        if (r.line[i][0] != '(' || strlen(r.line[i]) != r.len[i])
            abort();
    }
    mgw3d_replay_free(&r); /* frees copy */
    return 0;
}
