/* logpath.c -- log directory and file names (logpath.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "logpath.h"

int logpath_dir(const char *dir, char *out, size_t len, char *err, size_t errlen)
{
    const char *home = "";
    const char *rest = dir;
    if (dir[0] == '~' && (dir[1] == '/' || dir[1] == '\0')) {
        home = getenv("HOME");
        if (!home || !home[0]) {
            snprintf(err, errlen, "log directory %s: HOME is not set", dir);
            return -1;
        }
        rest = dir + 1;
    }
    if (rest[0] == '\0' && home[0] == '\0')
        rest = "./";
    size_t n = strlen(rest);
    int slash = n > 0 && rest[n - 1] == '/';
    int w = snprintf(out, len, "%s%s%s", home, rest, slash ? "" : "/");
    if (w < 0 || (size_t)w >= len) {
        snprintf(err, errlen, "log directory %s: path too long", dir);
        return -1;
    }
    return 0;
}

int logpath_mkdirs(const char *dir, char *err, size_t errlen)
{
    char path[LOGPATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        snprintf(err, errlen, "log directory %s: path too long", dir);
        return -1;
    }
    /* each prefix ending before a '/' (and the whole path), parents first */
    for (char *p = path + 1; ; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(path, 0777) < 0 && errno != EEXIST) {
            snprintf(err, errlen, "mkdir(\"%s\") failed: %s", path, strerror(errno));
            return -1;
        }
        *p = c;
        if (c == '\0' || p[1] == '\0')
            break;
    }
    if (access(dir, W_OK | X_OK) < 0) {
        snprintf(err, errlen, "log directory %s: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

void logpath_sanitize(char *s)
{
    for (; *s; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                 || c == '_' || c == '.' || c == '+' || c == '-';
        if (!ok)
            *s = '_';
    }
}

/* one side's TEAMINFO, sanitised */
static int team_info(const logpath_team_t *t, int pens, char *out, size_t len)
{
    char name[64], coach[64];
    int n;
    if (!t->name || !t->name[0])
        return snprintf(out, len, "null");
    snprintf(name, sizeof name, "%s", t->name);
    snprintf(coach, sizeof coach, "%s", t->coach ? t->coach : "");
    logpath_sanitize(name);
    logpath_sanitize(coach);
    n = snprintf(out, len, "%s_%s%s%d", name, coach, coach[0] ? "_" : "", t->score);
    if (pens && n >= 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, "_%d%s", t->pen_score, t->pen_won ? "w" : "");
    return n;
}

int logpath_teaminfo(const logpath_team_t *l, const logpath_team_t *r, char *out, size_t len)
{
    char a[160], b[160];
    int pens = l->score == r->score && l->pen_taken > 0 && r->pen_taken > 0;
    if (team_info(l, pens, a, sizeof a) < 0 || team_info(r, pens, b, sizeof b) < 0)
        return -1;
    int n = snprintf(out, len, "%s-vs-%s", a, b);
    return n < 0 || (size_t)n >= len ? -1 : n;
}

int logpath_running(const char *dir, int fixed, const char *fixed_name, const char *suffix,
                    int gz, char *out, size_t len)
{
    int n = snprintf(out, len, "%s%s%s%s", dir, fixed ? fixed_name : "incomplete", suffix,
                     gz ? ".gz" : "");
    return n < 0 || (size_t)n >= len ? -1 : n;
}

int logpath_final(const char *dir, int dated, const char *date_fmt, time_t start,
                  const char *teaminfo, const char *suffix, int gz, char *out, size_t len)
{
    char date[128] = "";
    if (dated) {
        struct tm tm;
        localtime_r(&start, &tm);
        if (strftime(date, sizeof date, date_fmt, &tm) == 0)
            date[0] = '\0';
        for (char *p = date; *p; p++) {
            if (*p == '/' || (unsigned char)*p < 0x20)
                *p = '_';
        }
    }
    int n = snprintf(out, len, "%s%s%s%s%s", dir, date, teaminfo, suffix, gz ? ".gz" : "");
    return n < 0 || (size_t)n >= len ? -1 : n;
}
