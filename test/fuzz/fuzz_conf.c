/* fuzz_conf.c -- libFuzzer target: arbitrary bytes as a configuration text (NUL-terminated
 * copy), then the messages and value texts built from the resulting values. Inputs naming
 * /dev, /proc or /sys are skipped so an include can never block on a device.
 * What does not depend on the input is done once, in LLVMFuzzerInitialize: the defaults,
 * and every message (each version) and every value text built from them. Per input, only
 * what the text changed is formatted again (each changed value, both forms, whole and cut
 * short), and the messages are built again only when something changed: PARAM_MSG_ALL
 * (every named parameter, so the largest message: when it fits, the 8-19 ones, its
 * subsets, fit too) always, and one of 7 (positional), 8, 13.5, 19 (picked by the input's
 * length) for the positional list and the tag filter. This keeps the target at thousands
 * of executions per second; building all ten messages per input ran at 200-700.
 * Build: clang -fsanitize=fuzzer,address,undefined -Icommon -Ishm fuzz_conf.c common/[*].c -lm */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "conf.h"
#include "param_msg.h"

static conf_t defaults;
static char msg[32768];

/* the server and player messages of c at version v, which must fit (values are at most
 * CONF_STR_LEN long, far below the buffer) and report their true length */
static void check_msgs(const conf_t *c, double v)
{
    int n = param_msg_server(c, v, msg, sizeof msg);
    if (n < 0 || (size_t)n != strlen(msg))
        abort();
    n = param_msg_player(c, v, msg, sizeof msg);
    if (n < 0 || (size_t)n != strlen(msg))
        abort();
}

/* one value's text, json or not: snprintf semantics (the full length back, whatever the
 * buffer), and a short buffer gets a NUL-terminated prefix of the full text */
static void check_value(const conf_t *c, int id, int json)
{
    char full[CONF_STR_LEN * 6 + 16], small[40];
    int n = conf_format_value(c, (param_id_t)id, json, full, sizeof full);
    if (n < 0 || (size_t)n >= sizeof full || (size_t)n != strlen(full))
        abort();
    int m = conf_format_value(c, (param_id_t)id, json, small, sizeof small);
    if (m != n || memchr(small, '\0', sizeof small) == NULL
        || strncmp(small, full, sizeof small - 1) != 0)
        abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static const double versions[] = { 7, 8, 13.5, 19, PARAM_MSG_ALL };
    conf_defaults(&defaults);
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++)
        check_msgs(&defaults, versions[i]);
    for (int i = 0; i < PARAM_COUNT; i++) {
        check_value(&defaults, i, 0);
        check_value(&defaults, i, 1);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static conf_t c;
    static char text[8192];
    char err[CONF_ERR_LEN], warn[256];
    if (size >= sizeof text)
        size = sizeof text - 1;
    memcpy(text, data, size);
    text[size] = '\0';
    if (strstr(text, "/dev") || strstr(text, "/proc") || strstr(text, "/sys"))
        return 0;
    memcpy(&c, &defaults, sizeof c);
    warn[0] = '\0';
    int rc = conf_parse_text(&c, text, "fuzz", "test/fuzz/seeds", err, sizeof err, warn,
                             sizeof warn);
    if (rc != 0 && rc != -1 && rc != 1)
        abort();
    if (rc == -1 && err[0] == '\0')
        abort(); /* every error has a message */
    if (memchr(warn, '\0', sizeof warn) == NULL)
        abort();
    int changed = 0;
    for (int i = 0; i < PARAM_COUNT; i++) {
        /* memcmp, not !=: a NaN value counts as changed */
        if (memcmp(&c.num[i], &defaults.num[i], sizeof c.num[i]) == 0
            && strcmp(c.str[i], defaults.str[i]) == 0)
            continue;
        if (memchr(c.str[i], '\0', CONF_STR_LEN) == NULL)
            abort(); /* a string value always ends inside its slot */
        check_value(&c, i, 0);
        check_value(&c, i, 1);
        changed = 1;
    }
    if (!changed)
        return 0; /* the defaults' messages were checked once, in LLVMFuzzerInitialize */
    static const double other[] = { 7, 8, 13.5, 19 };
    check_msgs(&c, PARAM_MSG_ALL);
    check_msgs(&c, other[size % 4]);
    char small[40];
    if (param_msg_server(&c, 19, small, sizeof small) != -1 || small[0] != '\0')
        abort(); /* too small: -1 and an empty string, never a cut message */
    return 0;
}
