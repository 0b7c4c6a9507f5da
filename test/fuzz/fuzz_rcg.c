/* fuzz_rcg.c -- libFuzzer target: the game log reader on arbitrary bytes (a log file
 * anyone may hand to rcss-logplayer). Must never crash, leak or read out of bounds. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "rcg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rcg_t g;
    char err[256];
    if (rcg_read_mem((const char *)data, size, &g, err, sizeof err) == 0)
        rcg_free(&g);
    /* a show line alone */
    char line[4096];
    size_t n = size < sizeof line - 1 ? size : sizeof line - 1;
    memcpy(line, data, n);
    line[n] = '\0';
    shm_snapshot_sh_t s;
    memset(&s, 0, sizeof s);
    rcg_parse_show(line, &s);
    return 0;
}
