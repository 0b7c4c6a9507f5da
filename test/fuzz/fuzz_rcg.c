/* fuzz_rcg.c -- libFuzzer target: the game log reader on arbitrary bytes (a log file
 * anyone may hand to rcss-logplayer), every version. The first byte picks a header
 * (0: none, the bytes as they are; 1: none, a version 1 log's first record is forced to
 * be a show; 2, 3: "ULG" 2 / 3; 4-6: "ULG4\n".."ULG6\n"; 7: "[\n" JSON) so each reader
 * is reached at once; the rest is the body. Also a show line and a JSON show alone.
 * Must never crash, leak or read out of bounds. Seeds: test/fuzz/seeds/rcg_*. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rcg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rcg_t g;  /* large: the log's parameters */
    char err[256];
    if (size == 0)
        return 0;
    static const char *const heads[8] = { "", "\0\x01", "ULG\x02", "ULG\x03", "ULG4\n",
                                          "ULG5\n", "ULG6\n", "[\n" };
    static const size_t head_len[8] = { 0, 2, 4, 4, 5, 5, 5, 2 };
    int k = data[0] & 7;
    size_t n = head_len[k] + size - 1;
    char *buf = malloc(n + 1);
    if (!buf)
        return 0;
    memcpy(buf, heads[k], head_len[k]);
    memcpy(buf + head_len[k], data + 1, size - 1);
    buf[n] = '\0';
    if (rcg_read_mem(buf, n, &g, err, sizeof err) == 0)
        rcg_free(&g);
    /* a show line alone (text), a JSON show alone */
    disp_show_t s;
    memset(&s, 0, sizeof s);
    rcg_parse_show(buf + head_len[k], &s);
    rcg_json_show(buf + head_len[k], n - head_len[k], &s);
    free(buf);
    return 0;
}
