/* tn_util.c -- rcss-tournament's small helpers: whole files in and out (written through a
 * temporary file and a rename, so a reader sees the old file or the new one, never half
 * of one), directories, the clock, a string hash, paths in DIR/matches/ID, and running a
 * command for its output (squeue, sbatch). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tn.h"

char *tn_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 8192, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 4096 + 1 > cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int tn_write_atomic(const char *path, const char *text)
{
    char tmp[TN_PATH_LEN + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    size_t n = strlen(text);
    int ok = fwrite(text, 1, n, f) == n;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) < 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

int tn_write_json(const char *path, json_t *j)
{
    char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!text)
        return -1;
    size_t n = strlen(text);
    char *withnl = malloc(n + 2);
    int rc = -1;
    if (withnl) {
        memcpy(withnl, text, n);
        withnl[n] = '\n';
        withnl[n + 1] = '\0';
        rc = tn_write_atomic(path, withnl);
        free(withnl);
    }
    free(text);
    return rc;
}

int tn_mkdirs(const char *path)
{
    char buf[TN_PATH_LEN];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) < 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

int tn_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

double tn_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

unsigned long long tn_fnv1a(const char *s)
{
    unsigned long long h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

void tn_match_path(char *out, size_t len, const char *dir, const char *id, const char *name)
{
    if (name && name[0])
        snprintf(out, len, "%s/matches/%s/%s", dir, id, name);
    else
        snprintf(out, len, "%s/matches/%s", dir, id);
}

int tn_capture(const char *const *argv, char *out, size_t len)
{
    int p[2];
    if (len)
        out[0] = '\0';
    if (pipe(p) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(p[1], 1);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 2);
        }
        close(p[0]);
        close(p[1]);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(p[1]);
    size_t n = 0;
    char sink[4096];
    for (;;) {
        ssize_t r = n + 1 < len ? read(p[0], out + n, len - n - 1) : read(p[0], sink, sizeof sink);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (n + 1 < len)
            n += (size_t)r;
    }
    if (len)
        out[n] = '\0';
    close(p[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
