/* fuzz_clang.c -- libFuzzer target: arbitrary text through the coach-language parser
 * and printer (netgw/clang/clang_*.c) and through the trainer and online-coach command parsers
 * (netgw_coachcmd.c), checking the invariants: a parsed message has a known type and a
 * version span of 7/8 values, prints into a bounded NUL-terminated text, and an error
 * comes with a message; command replies are NUL-terminated.
 * Seeds: test/fuzz/seeds/clang_*.txt. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "clang.h"
#include "netgw_coach.h"

static clang_work_t work;
static coach_cmd_t cmd;
static char out[20000];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CLANG_ERR_LEN];
    clang_msg_t m;
    const char *s = (const char *)data;
    if (clang_parse(&work, s, size, 128, &m, err, sizeof err) == 0) {
        if (m.type <= CLANG_NONE || m.type > CLANG_DEL || m.min_ver < 7 || m.min_ver > 8
            || m.max_ver < 7 || m.max_ver > 8)
            abort();
        int n = clang_print(&work, &m, out, sizeof out);
        if (n >= 0 && (strlen(out) != (size_t)n || (size_t)n >= sizeof out))
            abort();
    } else if (memchr(err, '\0', sizeof err) == NULL || err[0] == '\0') {
        abort();
    }
    /* the command parsers want a NUL-terminated datagram, as the gateway gives them */
    static char text[COACH_TEXT_MAX + 1];
    size_t k = size < COACH_TEXT_MAX ? size : COACH_TEXT_MAX;
    memcpy(text, data, k);
    text[k] = '\0';
    coach_parse_olcoach(text, 19.0, 128, &work, &cmd);
    if (memchr(cmd.reply, '\0', sizeof cmd.reply) == NULL || cmd.len >= sizeof cmd.text)
        abort();
    coach_parse_olcoach(text, 5.0, 128, &work, &cmd);
    coach_parse_trainer(text, 128, &cmd);
    if (memchr(cmd.reply, '\0', sizeof cmd.reply) == NULL)
        abort();
    return 0;
}
