/* mgw_http.c -- the browser monitor of a live match: monitorgw serves HTTP on
 * server::http_port through sse.c (shared with rcss-logplayer): GET / is the page
 * (mgw_page.html, in the binary); GET /events a server-sent-events stream of the JSON
 * show frames (the same bytes as JSON monitors get), server::http_delay cycles late for
 * broadcast; POST /cmd a referee command from the page, accepted only with the operator
 * token (server::http_token). What stays here is what is monitorgw's own: the
 * parameters, the operator check and the hand-over of a command to the sim. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <event2/http.h>
#include "log.h"
#include "mgw.h"
#include "mgw_page.h"
#include "sse.h"

/* ---- commands ---------------------------------------------------------------------- */
/* the operator token: what the request carried (header X-Rcss-Token or ?token=) */
static int cmd_token_ok(const mgw_t *g, const char *got)
{
    const char *want = conf_str(&g->conf, SP_http_token);
    return want[0] && got && sse_token_equal(got, want);
}

static int on_cmd(void *arg, const char *text, const char *token, char *reply, size_t len)
{
    mgw_t *g = arg;
    mgw_cmd_t c;
    mgw_parse_cmd(text, strlen(text), &c);
    if (c.kind != MGW_CMD_CTRL) {
        snprintf(reply, len, "%s", c.kind == MGW_CMD_ERROR ? c.reply : "(error illegal_command_form)");
        return HTTP_BADREQUEST;
    }
    if (!cmd_token_ok(g, token)) {
        snprintf(reply, len, "%s", MGW_E_OPERATOR);
        return 403;
    }
    c.ctrl.recv_time = (uint32_t)(g->have_snap ? g->snap.time : 0);
    if (shm_ctrl_push(&g->self->ctrl, &c.ctrl) < 0) {
        snprintf(reply, len, "(error busy)");
        return HTTP_SERVUNAVAIL;
    }
    shm_sem_post(&g->r->hdr.done_sem); /* the sim applies it at once */
    snprintf(reply, len, "(ok)");
    return HTTP_OK;
}

/* ---- the server ---------------------------------------------------------------------- */
static int http_admit(void *arg)
{
    return mgw_status_fd_room(arg);
}

int mgw_http_start(mgw_t *g)
{
    char err[256];
    int port = conf_int(&g->conf, SP_http_port);
    if (port == 0) /* off; -1: a free port (mgw_status.c) */
        return 0;
    sse_opts_t o = { conf_str(&g->conf, SP_bind_address), mgw_status_port(g, port),
                     conf_int(&g->conf, SP_http_delay), mgw_page_html, on_cmd, g, http_admit,
                     SSE_LIVE_FRAME_MS, SSE_KEEP_FRAMES };
    if (!(g->http = sse_start(g->base, &o, err, sizeof err))) {
        int e = errno;
        log_err("%s", err);
        return e == EADDRINUSE || e == EACCES ? SHM_CONFLICT : -1;
    }
    port = sse_port(g->http);
    mgw_status_bound(g, port);
    if (mgw_status_start(g, sse_evhttp(g->http)) < 0) /* /status, /metrics, /match/events */
        return -1;
    log_info("browser monitor on http port %d", port);
    return 0;
}

void mgw_http_stop(mgw_t *g)
{
    sse_stop(g->http); /* closes the connections of /match/events too */
    mgw_status_stop(g);
    g->http = NULL;
}

void mgw_http_frame(mgw_t *g, uint64_t id, const char *json, size_t len)
{
    sse_frame(g->http, id, json, len);
}

