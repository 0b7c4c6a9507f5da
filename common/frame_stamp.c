/* frame_stamp.c -- the publish stamp of a live show frame (frame_stamp.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "frame_stamp.h"

#define STAMP_KEY ",\"pub\":{\"seq\":"

int frame_stamp_write(const char *json, size_t len, uint64_t seq, int64_t us, char *out,
                      size_t cap)
{
    while (len > 0 && (json[len - 1] == '\n' || json[len - 1] == ' '))
        len--;
    if (len < 2 || json[0] != '{' || json[len - 1] != '}' || len - 1 >= cap)
        return -1;
    memcpy(out, json, len - 1);
    int n = snprintf(out + len - 1, cap - (len - 1), "%s%llu,\"us\":%lld}}", STAMP_KEY,
                     (unsigned long long)seq, (long long)us);
    if (n < 0 || (size_t)n >= cap - (len - 1))
        return -1;
    return (int)(len - 1) + n;
}

int frame_stamp_read(const char *json, size_t len, uint64_t *seq, int64_t *us)
{
    static const char key[] = STAMP_KEY;
    const size_t klen = sizeof key - 1;
    /* the stamp is the last member: search the last 64 bytes only */
    size_t from = len > FRAME_STAMP_MAX + klen ? len - FRAME_STAMP_MAX - klen : 0;
    const char *p = NULL;
    for (size_t i = len >= klen ? len - klen + 1 : 0; i-- > from;) {
        if (memcmp(json + i, key, klen) == 0) {
            p = json + i + klen;
            break;
        }
    }
    if (!p)
        return -1;
    char tmp[FRAME_STAMP_MAX + 1];
    size_t n = (size_t)(json + len - p);
    if (n > FRAME_STAMP_MAX)
        n = FRAME_STAMP_MAX;
    memcpy(tmp, p, n);
    tmp[n] = '\0';
    unsigned long long s;
    long long u;
    int used = 0;
    if (sscanf(tmp, "%llu,\"us\":%lld}%n", &s, &u, &used) != 2 || used == 0)
        return -1;
    *seq = s;
    *us = u;
    return 0;
}

int64_t frame_stamp_wall_us(int64_t mono_ns)
{
    struct timespec m, r;
    clock_gettime(CLOCK_MONOTONIC, &m);
    clock_gettime(CLOCK_REALTIME, &r);
    int64_t now_m = (int64_t)m.tv_sec * 1000000000LL + m.tv_nsec;
    int64_t now_r = (int64_t)r.tv_sec * 1000000000LL + r.tv_nsec;
    return (now_r - (now_m - mono_ns)) / 1000;
}
