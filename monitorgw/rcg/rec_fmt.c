/* rec_fmt.c -- the game log formats this server writes, by server::game_log_version
 * (docs/protocol/logs.md §1): binary 1-3 (rec_fmt_bin.c), text 4-6
 * (rec_fmt_text.c), JSON -1 (rec_fmt_json.c). A format is one module filling a rec_fmt_t
 * (rec.h); adding one is a new rec_fmt_*.c file and a line in this table. */
#include <stddef.h>
#include "rcg_write.h"

static const rec_fmt_t *const formats[] = {
    &rec_fmt_v1, &rec_fmt_v2, &rec_fmt_v3, &rec_fmt_v4, &rec_fmt_v5, &rec_fmt_v6,
    &rec_fmt_json,
};

const rec_fmt_t *rec_fmt_find(int version)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (formats[i]->version == version)
            return formats[i];
    }
    return NULL;
}

const char *rec_fmt_versions(void)
{
    return "1, 2, 3, 4, 5, 6, -1 (JSON)";
}
