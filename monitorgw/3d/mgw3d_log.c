/* mgw3d_log.c -- the monitor log (docs/protocol/3d.md §4: "the recorded sequence of all
 * expressions sent to the monitor", Logfiles/monitor.log by default): the Init line,
 * an Info line every MonitorInterval steps (everything first, then changes, as a
 * monitor connected from the start sees them) and (Die). A restarted gateway appends
 * with a complete Info, so the file stays replayable; the sim truncates it at start. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "log.h"
#include "mgw3d.h"

static int write_line(mgw3d_log_t *l, const char *text, int len)
{
    if (fwrite(text, 1, (size_t)len, l->f) != (size_t)len || fputc('\n', l->f) == EOF
        || fflush(l->f) != 0) {
        log_err("monitor log %s: write failed: %s; logging stops", l->path, strerror(errno));
        fclose(l->f);
        l->f = NULL;
        return -1;
    }
    return 0;
}

int mgw3d_log_open(mgw3d_log_t *l, const char *path, const char *init, int init_len)
{
    memset(l, 0, sizeof *l);
    if (!path || !path[0])
        return 0;
    snprintf(l->path, sizeof l->path, "%s", path);
    l->f = fopen(path, "a");
    if (!l->f) {
        log_err("monitor log %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(l->f), &st) == 0 && st.st_size == 0)
        return write_line(l, init, init_len);
    return 0;
}

void mgw3d_log_info(mgw3d_log_t *l, const char *full, int full_len, const char *delta,
                    int delta_len)
{
    if (!l->f)
        return;
    if (!l->fed || delta_len < 0) {
        if (full_len >= 0 && write_line(l, full, full_len) == 0)
            l->fed = 1;
        return;
    }
    write_line(l, delta, delta_len);
}

void mgw3d_log_close(mgw3d_log_t *l, int die)
{
    if (!l->f)
        return;
    if (die)
        write_line(l, MGW3D_DIE, (int)strlen(MGW3D_DIE));
    if (l->f)
        fclose(l->f);
    l->f = NULL;
}
