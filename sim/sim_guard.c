/* sim_guard.c -- what the sim checks before it creates anything: that no live server
 * (or other process) has its region name or its ports. The name and every port get an
 * instance lock (shm_lock_take: abstract unix sockets, released by the kernel however
 * the sim dies), so two servers started at the same moment cannot both pass; then each
 * UDP port (players, trainer, online coaches) and the http port is bound once without
 * any reuse option, which fails if any socket of anyone holds it. A conflict is one
 * line and exit status 2 (SIM_EXIT_BIND); nothing has been started by then. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "sim.h"
#include "log.h"

#define GUARD_LOCK_WAIT_MS  200   /* a dead sim's gateway may hold the name's lock while
                                     it removes the old region */
#define GUARD_PORT_WAIT_MS  1000  /* the gateways of a sim killed just before us are
                                     still closing their sockets */

/* one probe bind of port; 0 free, or errno */
static int guard_probe(const char *addr, int port, int type)
{
    struct sockaddr_storage ss;
    socklen_t sl;
    memset(&ss, 0, sizeof ss);
    struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
    if (!addr[0] || inet_pton(AF_INET, addr, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        if (!addr[0])
            a4->sin_addr.s_addr = htonl(INADDR_ANY);
        a4->sin_port = htons((uint16_t)port);
        sl = sizeof *a4;
    } else if (inet_pton(AF_INET6, addr, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        sl = sizeof *a6;
    } else {
        return EINVAL;
    }
    int fd = socket(ss.ss_family, type | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return errno;
    if (type == SOCK_STREAM) { /* only a listener conflicts, not old TIME_WAIT pairs */
        int on = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    }
    int rc = bind(fd, (struct sockaddr *)&ss, sl) < 0 ? errno : 0;
    close(fd);
    return rc;
}

static int guard_lock(sim_guard_t *g, const char *key, const char *what, char *err,
                      size_t errlen)
{
    int fd = shm_lock_take_wait(key, GUARD_LOCK_WAIT_MS);
    if (fd < 0) {
        if (errno == EADDRINUSE)
            snprintf(err, errlen, "%s is in use by another running server", what);
        else
            snprintf(err, errlen, "cannot lock %s: %s", what, strerror(errno));
        return SIM_EXIT_BIND;
    }
    g->lock[g->nlocks++] = fd;
    return 0;
}

/* the lock and the probe of one port; 0 or SIM_EXIT_BIND with err */
static int guard_port(sim_guard_t *g, const char *addr, int port, int type, const char *what,
                      char *err, size_t errlen)
{
    char key[128], desc[160];
    const char *proto = type == SOCK_STREAM ? "TCP" : "UDP";
    if (port <= 0) /* 0: the port is chosen when it is bound */
        return 0;
    snprintf(desc, sizeof desc, "%s port %d (%s) on %s", proto, port, what,
             addr[0] ? addr : "all interfaces");
    snprintf(key, sizeof key, "%s:%s:%d", proto, addr, port);
    if (guard_lock(g, key, desc, err, errlen) != 0)
        return SIM_EXIT_BIND;
    int e = 0;
    for (int waited = 0; waited <= GUARD_PORT_WAIT_MS; waited += 20) {
        e = guard_probe(addr, port, type);
        if (e != EADDRINUSE)
            break;
        struct timespec ts = { 0, 20000000L };
        nanosleep(&ts, NULL);
    }
    if (e == EINVAL)
        snprintf(err, errlen, "server::bind_address '%s' is not an IPv4 or IPv6 address", addr);
    else if (e == EADDRINUSE)
        snprintf(err, errlen, "%s is already in use (another server?)", desc);
    else if (e != 0)
        snprintf(err, errlen, "cannot bind %s: %s", desc, strerror(e));
    return e == 0 ? 0 : e == EADDRINUSE || e == EACCES ? SIM_EXIT_BIND : 1;
}

int sim_guard_take(sim_guard_t *g, const conf_t *c, const char *shm_name, unsigned held,
                   char *err, size_t errlen)
{
    char key[SHM_NAME_LEN + 8], what[SHM_NAME_LEN + 16];
    const char *addr = conf_str(c, SP_bind_address);
    memset(g, 0, sizeof *g);
    shm_lock_key_region(shm_name, key, sizeof key);
    snprintf(what, sizeof what, "shm %s", shm_name);
    int rc = guard_lock(g, key, what, err, errlen);
    /* held: bit k set when port k (players, trainer, online coaches, http) was chosen
     * free and is already bound by this process (server::port=0 and the like,
     * sim_runner.c), or is bound by the gateways of a match taken over (sim_resume.c) */
    if (rc == 0 && !(held & 1u))
        rc = guard_port(g, addr, conf_int(c, SP_port), SOCK_DGRAM, "players", err, errlen);
    if (rc == 0 && !(held & 2u))
        rc = guard_port(g, addr, conf_int(c, SP_coach_port), SOCK_DGRAM, "trainer", err, errlen);
    if (rc == 0 && !(held & 4u))
        rc = guard_port(g, addr, conf_int(c, SP_olcoach_port), SOCK_DGRAM, "online coaches",
                        err, errlen);
    if (rc == 0 && !(held & 8u))
        rc = guard_port(g, addr, conf_int(c, SP_http_port), SOCK_STREAM, "browser monitor",
                        err, errlen);

    if (rc != 0)
        sim_guard_release(g);
    return rc;
}

void sim_guard_release(sim_guard_t *g)
{
    for (int i = 0; i < g->nlocks; i++)
        close(g->lock[i]);
    g->nlocks = 0;
}
