/* fuzz_conf.c -- libFuzzer target: arbitrary bytes as a configuration text (NUL-terminated
 * copy), then every message built from the resulting values. Inputs naming /dev, /proc or
 * /sys are skipped so an include can never block on a device.
 * Build: clang -fsanitize=fuzzer,address,undefined -Icommon -Ishm fuzz_conf.c common/[*].c -lm */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "conf.h"
#include "param_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static conf_t c;
    static char msg[32768];
    static char text[8192];
    char err[CONF_ERR_LEN], warn[256];
    if (size >= sizeof text)
        size = sizeof text - 1;
    memcpy(text, data, size);
    text[size] = '\0';
    if (strstr(text, "/dev") || strstr(text, "/proc") || strstr(text, "/sys"))
        return 0;
    conf_defaults(&c);
    warn[0] = '\0';
    int rc = conf_parse_text(&c, text, "fuzz", "test/fuzz/seeds", err, sizeof err, warn,
                             sizeof warn);
    if (rc != 0 && rc != -1 && rc != 1)
        abort();
    if (rc == -1 && err[0] == '\0')
        abort(); /* every error has a message */
    static const double versions[] = { 7, 8, 13.5, 19, PARAM_MSG_ALL };
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        if (param_msg_server(&c, versions[i], msg, sizeof msg) < 0)
            abort(); /* defaults-sized values always fit */
        if (param_msg_player(&c, versions[i], msg, sizeof msg) < 0)
            abort();
    }
    char small[40];
    (void)param_msg_server(&c, 19, small, sizeof small);
    for (int i = 0; i < PARAM_COUNT; i++)
        (void)conf_format_value(&c, (param_id_t)i, i & 1, small, sizeof small);
    return 0;
}
