/* test_304_logplayer3d.c -- the monitor log replayed: a short 3D game (a trainer moves
 * the ball around) leaves Logfiles/monitor.log; rcss3d-logplayer serves it on the
 * monitor protocol, and a monitor receives exactly the log's expressions in order,
 * Init first and (Die) last. Also the configuration refusals of rcssserver3d. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "e2e.h"
#include "e2e3d.h"

static char rbuf[1 << 16];

static int free_port(void)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    socklen_t l = sizeof a;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    bind(fd, (struct sockaddr *)&a, sizeof a);
    getsockname(fd, (struct sockaddr *)&a, &l);
    close(fd);
    return ntohs(a.sin_port);
}

static pid_t run(const char *exe, const char *const *argv, const char *out)
{
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

Test(logplayer3d, replays_the_log, .timeout = 60)
{
    e2e3d_server_t s;
    cr_assert_eq(e2e3d_start(&s, NULL), 0);
    int t = e2e3d_monitor(s.monitor_port);
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    for (int i = 0; i < 5; i++) {
        char cmd[96], ack[32];
        snprintf(cmd, sizeof cmd, "((ball (pos %d %d 1))(getAck b%d))", i * 3, -i, i);
        snprintf(ack, sizeof ack, "(Info (ack b%d))", i);
        e2e3d_send(t, cmd);
        cr_assert_eq(e2e3d_recv_prefix(t, &r, ack, 3000, &m), 1);
        cr_assert_eq(e2e3d_recv_prefix(t, &r, "(Info (time", 3000, &m), 1);
    }
    close(t);
    cr_assert_eq(e2e3d_stop(&s), 0);
    char *log = e2e3d_read_file(&s, "Logfiles/monitor.log");
    cr_assert(log);
    char path[600], out[600], port[16], exe[512];
    snprintf(path, sizeof path, "%s/Logfiles/monitor.log", s.dir);
    snprintf(out, sizeof out, "%s/player.out", s.dir);
    snprintf(exe, sizeof exe, "%s/rcss3d-logplayer",
             getenv("RCSS_BIN_DIR") ? getenv("RCSS_BIN_DIR") : "build/bin");
    int p = free_port();
    snprintf(port, sizeof port, "%d", p);
    const char *argv[] = { exe, "--port", port, "--speed", "0", "--once", path, NULL };
    pid_t pl = run(exe, argv, out);
    int fd = -1;
    for (int i = 0; i < 100 && fd < 0; i++) {
        fd = e2e3d_connect(p);
        if (fd < 0)
            usleep(20000);
    }
    cr_assert_geq(fd, 0, "the log player listens");
    frame_reader_init(&r, rbuf, sizeof rbuf);
    int lines = 0, same = 1;
    char *save = NULL;
    for (char *line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lines++;
        if (e2e3d_recv(fd, &r, 3000, &m) != 1 || strcmp(m, line) != 0) {
            same = 0;
            break;
        }
    }
    cr_expect(same, "expression %d differs", lines);
    cr_expect_gt(lines, 5);
    cr_expect_lt(e2e3d_recv(fd, &r, 3000, &m), 0, "closed after the last");
    close(fd);
    int st;
    cr_expect_eq(waitpid(pl, &st, 0), pl);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "--once: leaves after one replay");
    free(log);
    e2e3d_cleanup(&s);
}

Test(logplayer3d, refusals, .timeout = 30)
{
    char exe[512], out[64] = "/tmp/rcss3d-refusal.out";
    snprintf(exe, sizeof exe, "%s/rcssserver3d",
             getenv("RCSS_BIN_DIR") ? getenv("RCSS_BIN_DIR") : "build/bin");
    setenv("RCSS3D_CONF_DIR", "/nonexistent-conf-dir/x", 1); /* no file there: defaults */
    const char *bad[] = { exe, "soccer::FieldLength=120", NULL };
    pid_t pid = run(exe, bad, out);
    int st;
    waitpid(pid, &st, 0);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    char dir[] = "/tmp/rcss3d-conf-XXXXXX", conf[64];
    cr_assert(mkdtemp(dir));
    setenv("RCSS3D_CONF_DIR", dir, 1);
    pid = run(exe, bad, out);
    waitpid(pid, &st, 0);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    FILE *f = fopen(out, "r");
    char line[256] = "";
    cr_assert(f);
    cr_expect(fgets(line, sizeof line, f) != NULL);
    fclose(f);
    cr_expect_str_eq(line, "command line: 'soccer::FieldLength' must be between 100 and 110, got '120'\n");
    snprintf(conf, sizeof conf, "%s/rcssserver3d.conf", dir);
    cr_expect_eq(access(conf, F_OK), -1, "no configuration file written into the directory");
    const char *lp[] = { exe, "/nonexistent.log", NULL };
    snprintf(exe, sizeof exe, "%s/rcss3d-logplayer",
             getenv("RCSS_BIN_DIR") ? getenv("RCSS_BIN_DIR") : "build/bin");
    pid = run(exe, lp, out);
    waitpid(pid, &st, 0);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1, "a missing log is refused");
    unlink(out);
    rmdir(dir);
}
