/* e2e_browser.h -- headless Chromium (Debian's chromium, installed by
 * scripts/install-deps.sh) for the end-to-end tests of the browser pages: the live
 * monitor, the log player's page, the 3D view, `make run`'s demo. Run with the flags this
 * machine needs (no background networking: its connections are refused here), a fresh
 * profile in DIR/chromium, at most 90 s. */
#ifndef RCSS_E2E_BROWSER_H
#define RCSS_E2E_BROWSER_H

#include <stddef.h>

/* Load url and write its DOM after the page ran (wait: "--timeout=3000",
 * "--virtual-time-budget=8000", ...) to DIR/dom.html, then into buf (NUL-terminated).
 * 0, or -1 (chromium failed, nothing written). */
int e2e_chromium_dom(const char *dir, const char *url, const char *wait, char *buf,
                     size_t len);
/* The same in a window of width x height pixels. */
int e2e_chromium_dom_size(const char *dir, const char *url, const char *wait, int width,
                          int height, char *buf, size_t len);
/* Load url in a 1200 x 900 window and save a screenshot to png. system()'s status. */
int e2e_chromium_shot(const char *dir, const char *url, const char *png);

#endif
