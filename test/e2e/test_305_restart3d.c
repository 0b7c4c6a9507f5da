/* test_305_restart3d.c -- the 3D gateways are restarted like the 2D ones: an agent
 * gateway killed with SIGKILL takes its pipe agents along (PR_SET_PDEATHSIG), and its
 * successor frees their slots and starts the agent list again; a killed monitor
 * gateway's successor serves new monitors and goes on with the log, a complete Info
 * first. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "e2e.h"
#include "e2e3d.h"

static char rbuf[1 << 16];

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* no such process, or a zombie (an orphan waits for whoever adopted it to reap it) */
static int gone(pid_t pid)
{
    char path[64], st[256];
    for (int i = 0; i < 100; i++) {
        if (kill(pid, 0) < 0 && errno == ESRCH)
            return 1;
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(st, 1, sizeof st - 1, f) : 0;
        if (f)
            fclose(f);
        st[n] = '\0';
        const char *p = strrchr(st, ')');
        if (p && p[1] == ' ' && p[2] == 'Z')
            return 1;
        usleep(20000);
    }
    return 0;
}

/* an Info with n robots on a new monitor connection within ms */
static int robots_seen(const e2e3d_server_t *s, int n, int ms)
{
    int fd = e2e3d_monitor(s->monitor_port);
    if (fd < 0)
        return 0;
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    int ok = 0;
    double end = e2e_now_ms() + ms;
    while (!ok && e2e_now_ms() < end && e2e3d_recv_prefix(fd, &r, "(Info ", 1000, &m) == 1)
        ok = count(m, "(P ") == n;
    close(fd);
    return ok;
}

Test(restart3d, gateways_come_back, .timeout = 60)
{
    char path[64], body[512], arg[128];
    const char *bin = getenv("RCSS_BIN_DIR") ? getenv("RCSS_BIN_DIR") : "build/bin";
    snprintf(path, sizeof path, "/tmp/rcss3d-list-%d", (int)getpid());
    snprintf(body, sizeof body, "%s/rcss3d-agent --team P\n%s/rcss3d-agent --team Q\n", bin, bin);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(body, f);
    fclose(f);
    snprintf(arg, sizeof arg, "server::agent_list=%s", path);
    const char *args[] = { arg, "soccer::WaitBeforeKickOff=-1", NULL };
    e2e3d_server_t s;
    cr_assert_eq(e2e3d_start(&s, args), 0);
    cr_assert(robots_seen(&s, 2, 5000));
    pid_t agw, mgw, old[4], now[4];
    cr_assert_eq(e2e3d_region_pids(&s, &agw, &mgw, old, 4), 2);
    cr_assert_eq(kill(agw, SIGKILL), 0);
    pid_t agw2 = 0, mgw2;
    int n = 0, fresh = 0;
    for (int i = 0; i < 100 && !(agw2 > 0 && agw2 != agw && n == 2 && fresh); i++) {
        usleep(50000);
        n = e2e3d_region_pids(&s, &agw2, &mgw2, now, 4);
        /* the new gateway frees its predecessor's slots, then starts the list again */
        fresh = n == 2 && now[0] != old[0] && now[0] != old[1] && now[1] != old[0]
                && now[1] != old[1];
    }
    cr_expect(agw2 > 0 && agw2 != agw, "a new agent gateway");
    cr_expect_eq(n, 2, "its pipe agents");
    for (int i = 0; i < 2; i++) {
        cr_expect(gone(old[i]), "old agent %d gone", (int)old[i]);
        cr_expect(now[i] != old[0] && now[i] != old[1], "new agent processes");
    }
    cr_expect(robots_seen(&s, 2, 5000), "two robots again");
    cr_assert_eq(kill(mgw, SIGKILL), 0);
    pid_t mgw3 = mgw;
    for (int i = 0; i < 100 && (mgw3 == mgw || mgw3 <= 0); i++) {
        usleep(50000);
        e2e3d_region_pids(&s, NULL, &mgw3, now, 4);
    }
    cr_expect(mgw3 > 0 && mgw3 != mgw, "a new monitor gateway");
    int ok = 0;
    for (int i = 0; i < 50 && !ok; i++) { /* until it listens again */
        ok = robots_seen(&s, 2, 1000);
        if (!ok)
            usleep(50000);
    }
    cr_expect(ok, "monitors are served again");
    cr_expect_eq(e2e3d_stop(&s), 0);
    char *log = e2e3d_read_file(&s, "Logfiles/monitor.log");
    cr_assert(log);
    cr_expect_eq(count(log, "(Init "), 1, "one Init");
    cr_expect_eq(count(log, "(F (id 1_l)"), 2, "a complete Info after the restart");
    cr_expect(strstr(log, "(Die)") != NULL);
    free(log);
    log = e2e3d_read_file(&s, "server.log");
    cr_expect(strstr(log, "restarted rcss3d-agentgw") && strstr(log, "restarted rcss3d-monitorgw"));
    free(log);
    unlink(path);
    e2e3d_cleanup(&s);
}
