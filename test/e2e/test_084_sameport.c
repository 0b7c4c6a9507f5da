/* test_084_sameport.c -- a second server on a running server's port and shm name (the
 * newcomer's `make run` while another demo still runs) refuses to start with one clear
 * line and exit status 1, and the first server keeps its region and its players; a
 * region left behind by a killed server is still taken over by the next one. Before,
 * the second server unlinked the first's region and its gateways shared the first's UDP
 * ports (SO_REUSEPORT), so datagrams went to either server. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"
#include "shm.h"

static char buf[8192];

/* rcssserver on s's ports and shm name, its output in s->dir/second.log; its pid */
static pid_t start_second(const e2e_server_t *s)
{
    const char *bindir = getenv("RCSS_BIN_DIR");
    char exe[512], a_port[64], a_cport[64], a_oport[64], a_shm[128], log[300];
    snprintf(exe, sizeof exe, "%s/rcssserver", bindir ? bindir : "build/bin");
    snprintf(a_port, sizeof a_port, "server::port=%d", s->port);
    snprintf(a_cport, sizeof a_cport, "server::coach_port=%d", s->coach_port);
    snprintf(a_oport, sizeof a_oport, "server::olcoach_port=%d", s->olcoach_port);
    snprintf(a_shm, sizeof a_shm, "server::shm_name=%s", s->shm_name);
    snprintf(log, sizeof log, "%s/second.log", s->dir);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 1);
        dup2(fd, 2);
        if (chdir(s->dir) != 0)
            _exit(126);
        char conf[300];
        snprintf(conf, sizeof conf, "%s/conf", s->dir);
        setenv("RCSS_CONF_DIR", conf, 1);
        execl(exe, exe, a_port, a_cport, a_oport, a_shm, "server::bind_address=127.0.0.1",
              "server::game_logging=false", "server::text_logging=false", (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* its exit status within timeout_ms, -1 if it still runs (then it is stopped) */
static int wait_exit(pid_t pid, int timeout_ms)
{
    double end = e2e_now_ms() + timeout_ms;
    int st;
    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (e2e_now_ms() > end) {
            kill(pid, SIGTERM);
            waitpid(pid, NULL, 0);
            return -1;
        }
        usleep(10000);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void read_log(const e2e_server_t *s, const char *file)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", s->dir, file);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
}

/* the region under s's name belongs to the sim with this pid */
static int region_of(const e2e_server_t *s, pid_t pid)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, s->shm_name, err, sizeof err) != 0)
        return 0;
    int ok = h.r->hdr.sim_pid == pid;
    shm_region_detach(&h);
    return ok;
}

Test(sameport, second_server_refuses_and_the_first_keeps_playing, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    pid_t second = start_second(&s);
    cr_expect_eq(wait_exit(second, 10000), 1, "the second server's exit status");
    read_log(&s, "second.log");
    char want[128];
    snprintf(want, sizeof want, "shm %s belongs to a running server (pid %d)", s.shm_name,
             (int)s.pid);
    cr_expect(strstr(buf, want) != NULL, "its output: %s", buf);
    cr_expect(region_of(&s, s.pid), "the first server lost its region");

    /* the first server still answers on its port: a player joins, a second one too */
    for (int k = 0; k < 2; k++) {
        int fd = e2e_udp_open();
        e2e_send(fd, s.port, "(init TeamA (version 19))");
        cr_expect_gt(e2e_recv_prefix(fd, "(init l ", buf, sizeof buf, 3000, NULL), 0,
                     "player %d got no init reply", k + 1);
        close(fd);
    }
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(sameport, region_of_a_killed_server_is_taken_over, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    pid_t gw[17];
    int ngw = e2e_netgw_pids(&s, gw, 16);
    gw[ngw++] = e2e_monitorgw_pid(&s);
    kill(s.pid, SIGKILL);               /* leaves its region behind */
    cr_assert_eq(wait_exit(s.pid, 5000), 128 + SIGKILL);
    for (int k = 0; k < ngw; k++)       /* its gateways follow it (PR_SET_PDEATHSIG) */
        for (int i = 0; i < 300 && gw[k] > 0 && kill(gw[k], 0) == 0; i++)
            usleep(10000);
    char path[128];
    snprintf(path, sizeof path, "/dev/shm%s", s.shm_name);
    cr_assert_eq(access(path, F_OK), 0, "the killed server's region is gone already");

    pid_t next = start_second(&s);
    int ready = 0;
    for (int i = 0; i < 500 && !ready; i++) {
        ready = region_of(&s, next);
        if (!ready)
            usleep(10000);
    }
    read_log(&s, "second.log");
    cr_expect(ready, "the next server did not take the region over: %s", buf);
    /* its gateway may still be starting: ask again until it answers */
    int fd = e2e_udp_open(), joined = 0;
    for (int i = 0; i < 20 && !joined; i++) {
        e2e_send(fd, s.port, "(init TeamA (version 19))");
        joined = e2e_recv_prefix(fd, "(init l ", buf, sizeof buf, 500, NULL) > 0;
    }
    cr_expect(joined, "the next server does not answer a player");
    close(fd);
    s.pid = next;                       /* stopped (and its directory removed) as the first */
    cr_expect_eq(e2e_server_stop(&s), 0);
}
