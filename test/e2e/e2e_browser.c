/* e2e_browser.c -- headless Chromium for the browser-page tests (e2e_browser.h). */
#include <stdio.h>
#include <stdlib.h>
#include "e2e_browser.h"

#define CHROMIUM_OPTS "timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic " \
                      "--no-first-run --disable-background-networking --disable-component-update " \
                      "--disable-sync "
#define CHROMIUM CHROMIUM_OPTS "--window-size=1200,900 "

int e2e_chromium_dom(const char *dir, const char *url, const char *wait, char *buf,
                     size_t len)
{
    return e2e_chromium_dom_size(dir, url, wait, 1200, 900, buf, len);
}

int e2e_chromium_dom_size(const char *dir, const char *url, const char *wait, int width,
                          int height, char *buf, size_t len)
{
    char cmd[4096], out[1024];
    snprintf(out, sizeof out, "%s/dom.html", dir);
    snprintf(cmd, sizeof cmd, CHROMIUM_OPTS "--window-size=%d,%d --user-data-dir=%s/chromium %s "
             "--dump-dom '%s' >%s 2>/dev/null", width, height, dir, wait, url, out);
    if (system(cmd) != 0)
        return -1;
    FILE *f = fopen(out, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    return 0;
}

int e2e_chromium_shot(const char *dir, const char *url, const char *png)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, CHROMIUM "--user-data-dir=%s/chromium --timeout=3000 "
             "--screenshot=%s '%s' >/dev/null 2>&1", dir, png, url);
    return system(cmd);
}
