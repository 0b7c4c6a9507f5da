/* e2e_http.h -- TCP on 127.0.0.1 for the end-to-end tests of the HTTP endpoints (the
 * browser monitor, the log player's page, the runner's /status and event stream). */
#ifndef RCSS_E2E_HTTP_H
#define RCSS_E2E_HTTP_H

#include <stddef.h>

/* A blocking connection to 127.0.0.1:port; -1 if refused. */
int    e2e_tcp_connect(int port);
/* Read from fd into buf (len bytes, NUL-terminated; the first have bytes are kept)
 * until until appears in it (NULL: until the peer closes), timeout_ms pass or buf is
 * full; the bytes in buf. */
size_t e2e_read_until(int fd, char *buf, size_t len, size_t have, int timeout_ms,
                      const char *until);

#endif
