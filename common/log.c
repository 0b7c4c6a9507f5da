/* log.c -- "progname[pid] level: message" lines on stderr; the reference's lines on stdout. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "log.h"

int log_level = LOG_INFO;
static char log_prog[32] = "rcssserver";

void log_init(const char *progname, int level)
{
    snprintf(log_prog, sizeof log_prog, "%s", progname);
    log_level = level;
}

void log_write(int level, const char *fmt, ...)
{
    static const char *names[] = { "error", "warning", "info", "debug" };
    char line[1024];
    int n = snprintf(line, sizeof line, "%s[%d] %s: ", log_prog, (int)getpid(),
                     names[level < 0 ? 0 : level > 3 ? 3 : level]);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof line)
        vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    size_t len = strnlen(line, sizeof line - 2);
    line[len++] = '\n';
    /* one write() so lines of concurrent processes do not interleave */
    ssize_t w = write(STDERR_FILENO, line, len);
    (void)w;
}

void log_stdout(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line - 2 ? (size_t)n : sizeof line - 2;
    line[len++] = '\n';
    fflush(stdout);
    ssize_t w = write(STDOUT_FILENO, line, len);
    (void)w;
}
