/* rec_text.c -- lines of the text log (.rcl), as the reference writes them (see
 * docs/protocol/logs.md §6): "TIME,STOPPAGE<TAB>TEXT" for every datagram received from a
 * player ("Recv TEAM_UNUM: ..."), the trainer ("Recv Coach: ...") or an online coach
 * ("Recv TEAM_Coach: ..."), and every referee message ("(referee ...)"). A newline inside
 * a client's text becomes a space, so each entry stays one line. Pure: rec_main.c feeds
 * the events. */
#include <stdio.h>
#include <string.h>
#include "playmode.h"
#include "rec.h"

/* "Recv WHO: " for the sender of a text-log event */
static int recv_prefix(char *out, size_t cap, const shm_event_sh_t *ev,
                       const char team[2][SHM_TEAM_NAME_LEN])
{
    const char *name = team[ev->side == SHM_SIDE_RIGHT ? 1 : 0];
    int n;
    if (ev->side == SHM_SIDE_NONE)
        n = snprintf(out, cap, "Recv Coach: ");
    else if (ev->unum == 0)
        n = snprintf(out, cap, "Recv %s_Coach: ", name);
    else
        n = snprintf(out, cap, "Recv %s_%d: ", name, ev->unum);
    return n < 0 || (size_t)n >= cap ? -1 : n;
}

int rec_text_recv(char *out, size_t cap, const shm_event_sh_t *ev, const char *text,
                  size_t len, const char team[2][SHM_TEAM_NAME_LEN])
{
    int n = recv_prefix(out, cap, ev, team);
    if (n < 0)
        return -1;
    size_t k = len < cap - (size_t)n - 1 ? len : cap - (size_t)n - 1;
    memcpy(out + n, text, k);
    out[(size_t)n + k] = '\0';
    return n + (int)k;
}

int rec_text_line(rec_buf_t *b, const shm_event_sh_t *ev, const char *text, size_t len,
                  const char team[2][SHM_TEAM_NAME_LEN])
{
    char who[64];
    if (ev->kind == SHM_EV_TEXTLOG) {
        if (recv_prefix(who, sizeof who, ev, team) < 0)
            return 0;
        rec_buf_printf(b, "%d,%d\t%s", ev->time, ev->stoppage, who);
        rec_buf_add_line(b, text, len);
        rec_buf_add(b, "\n", 1);
        return 1;
    }
    if (ev->kind == SHM_EV_REFEREE) {
        rec_buf_printf(b, "%d,%d\t(referee ", ev->time, ev->stoppage);
        rec_buf_add_line(b, text, len);
        rec_buf_add(b, ")\n", 2);
        return 1;
    }
    return 0;
}

void rec_text_times(rec_buf_t *b, const shm_snapshot_sh_t *prev, const shm_snapshot_sh_t *s)
{
    char ms[48];
    fmt_real(ms, sizeof ms, (double)(s->publish_ns - prev->publish_ns) / 1e6);
    rec_buf_printf(b, "%d,%d\tCYCLE_TIMES: %s\n", prev->time, prev->stoppage, ms);
}
