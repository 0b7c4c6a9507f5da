/* lp_http.c -- the log player's browser page (lp.h): with --http-port P, the monitor page
 * of a live match (mgw_page.html, served by sse.c exactly as monitorgw serves it) shows
 * the replay: every frame the playback shows goes out as a JSON show event (the JSON
 * monitors' form, with play mode and teams), the playback state as a "replay" status
 * event (which makes the page show its replay controls), and the page's controls come
 * back as POST /cmd with the same command words as stdin ("play", "jump 300"; not
 * "quit": a viewer steers the replay but cannot end the program). With --http-token T a
 * command must carry T (header X-Rcss-Token or ?token=T). */
#include <stdio.h>
#include <string.h>
#include <event2/http.h>
#include "disp_json.h"
#include "lp.h"
#include "mgw_page.h"
#include "sse.h"

static int on_cmd(void *arg, const char *text, const char *token, char *reply, size_t len)
{
    lp_t *lp = arg;
    if (lp->token[0] && (!token || !sse_token_equal(token, lp->token))) {
        snprintf(reply, len, "error: this replay's controls need its token");
        return 403;
    }
    char word[8] = "";
    sscanf(text, " %7s", word);
    if (strcmp(word, "quit") == 0) { /* a viewer may steer the replay, not end it */
        snprintf(reply, len, "error: quit only from the log player's terminal");
        return 403;
    }
    int out = lp_apply(lp, text, reply, len);
    return out & LP_OUT_ERROR ? HTTP_BADREQUEST : HTTP_OK;
}

int lp_http_start(lp_t *lp, int port)
{
    char err[256];
    if (port <= 0)
        return 0;
    sse_opts_t o = { lp->bind, port, 0, mgw_page_html, on_cmd, lp, NULL, 0, 0 };
    if (!(lp->http = sse_start(lp->base, &o, err, sizeof err))) {
        fprintf(stderr, "rcss-logplayer: %s\n", err);
        return -1;
    }
    lp_http_status(lp, 0);
    lp_http_frame(lp);
    return 0;
}

void lp_http_stop(lp_t *lp)
{
    sse_stop(lp->http);
    lp->http = NULL;
}

void lp_http_frame(lp_t *lp)
{
    static char buf[MGW_FRAME_MAX];
    if (!lp->http || lp->log.n_frames == 0)
        return;
    int n = disp_json_show(&lp->log.frame[lp->play.cur].show, 0, buf, sizeof buf);
    if (n > 0)
        sse_frame(lp->http, 0, buf, (size_t)n); /* a replay: no ids (frames jump) */
}

void lp_http_status(lp_t *lp, int after_cmd)
{
    char buf[512];
    if (!lp->http)
        return;
    int n = lp_status_json(&lp->play, &lp->log, after_cmd, buf, sizeof buf);
    if (n > 0)
        sse_status(lp->http, buf, (size_t)n);
}
