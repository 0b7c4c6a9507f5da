/* sim_runner.c -- the server as a component of other programs (tournament runners, RL
 * trainers): free ports for server::port=0 (and the coach ports), a ready line once every
 * gateway is up, cycle metrics in the region for monitorgw's /status and /metrics, the
 * end of a match in order (logs finished and named, result.json, the end event) and the
 * exit status. Called from sim_main.c at start, each loop turn and at the end. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim.h"
#include "bcast_url.h"
#include "conf_cli.h"
#include "log.h"
#include "logpath.h"
#include "net.h"

int sim_runner_conf(conf_t *c, int argc, char **argv, char *err, size_t errlen)
{
    conf_cli_t cli;
    int rc = conf_cli_split(argc, argv, &cli, err, errlen);
    if (rc == 0)
        rc = conf_cli_load(c, &cli, err, errlen);
    if (rc == 0 && cli.print)
        rc = conf_cli_print(c, stdout) == 0 ? 2 : -1;
    conf_cli_free(&cli);
    return rc;
}

static const param_id_t port_ids[3] = { SP_port, SP_coach_port, SP_olcoach_port };

/* Parameters of the reference that steer what this design does not have: accepted at
 * their default (a server.conf listing every parameter still loads), refused otherwise,
 * so a setting is never silently ignored (docs/ARCHITECTURE.md "Parameters"). */
static const struct {
    param_id_t  id;
    const char *why;
} unsupported[] = {
    { SP_recv_step, "datagrams are read when they arrive, not polled every recv_step ms" },
    { SP_synch_micro_sleep, "synch mode waits on the players' (done)s, it does not poll" },
    { SP_profile, "this server has no equivalent of the reference's timing points" },
};

static int refuse_unsupported(const conf_t *c)
{
    conf_t def;
    conf_defaults(&def);
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
        param_id_t id = unsupported[i].id;
        if (c->num[id] == def.num[id])
            continue;
        char val[64], dv[64];
        int words = param_defs[id].type == PARAM_BOOL; /* true/false rather than 1/0 */
        conf_format_value(c, id, words, val, sizeof val);
        conf_format_value(&def, id, words, dv, sizeof dv);
        fprintf(stderr, "server::%s=%s is not supported (%s); only %s is accepted\n",
                param_defs[id].name, val, unsupported[i].why, dv);
        return -1;
    }
    return 0;
}

int sim_runner_miss_policy(const char *name)
{
    static const char *const names[] = { "skip", "wait", "forfeit" }; /* SIM_MISS_* */
    for (int i = 0; i < 3; i++) {
        if (strcmp(name, names[i]) == 0)
            return i;
    }
    return -1;
}

static int check_params(sim_t *s)
{
    const conf_t *c = &s->conf;
    if (refuse_unsupported(c) < 0)
        return -1;
    const char *pol = conf_str(c, SP_synch_miss_policy);
    s->runner.miss_policy = sim_runner_miss_policy(pol);
    if (s->runner.miss_policy < 0) {
        fprintf(stderr, "server::synch_miss_policy must be skip, wait or forfeit, not '%s'\n", pol);
        return -1;
    }
    if (conf_int(c, SP_synch_miss_limit) < 1) {
        fprintf(stderr, "server::synch_miss_limit must be at least 1\n");
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        int p = conf_int(c, port_ids[i]);
        if (p < 0 || p > 65535) {
            fprintf(stderr, "server::%s must be 0..65535 (0: a free port)\n",
                    param_defs[port_ids[i]].name);
            return -1;
        }
    }
    int h = conf_int(c, SP_http_port);
    if (h < -1 || h > 65535) {
        fprintf(stderr, "server::http_port must be -1 (a free port), 0 (off) or 1..65535\n");
        return -1;
    }
    bcast_url_t urls[BCAST_URL_MAX];
    char err[300];
    if (bcast_url_parse(conf_str(c, SP_broadcast_url), urls, BCAST_URL_MAX, err, sizeof err) < 0) {
        fprintf(stderr, "server::broadcast_url: %s\n", err);
        return -1;
    }
    return 0;
}

/* a free port for each port parameter that is 0: bound with SO_REUSEPORT, as the
 * gateways bind it, and held until they have, so nobody else can take it meanwhile
 * (nobody knows the port before the ready line, so no datagram is lost on it) */
static int reserve_ports(sim_t *s)
{
    char err[256];
    for (int i = 0; i < 3; i++) {
        s->runner.resv_fd[i] = -1;
        if (conf_int(&s->conf, port_ids[i]) != 0)
            continue;
        int fd = net_udp_bind(conf_str(&s->conf, SP_bind_address), 0, 1, err, sizeof err);
        int port = fd >= 0 ? net_udp_local_port(fd) : 0;
        if (port <= 0) {
            fprintf(stderr, "server::%s=0: no free port: %s\n", param_defs[port_ids[i]].name,
                    fd < 0 ? err : strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        s->runner.resv_fd[i] = fd;
        s->conf.num[port_ids[i]] = port;
    }
    return 0;
}

int sim_runner_init(sim_t *s)
{
    char err[512];
    sim_runner_t *u = &s->runner;
    u->exit_code = -1;
    u->start_ns = shm_now_ns();
    u->sink.fd = -1;
    for (int i = 0; i < 3; i++)
        u->resv_fd[i] = -1;
    if (check_params(s) < 0)
        return SIM_EXIT_CONFIG;
    if (sim_events_open(&u->sink, conf_str(&s->conf, SP_event_stream), err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return SIM_EXIT_CONFIG;
    }
    if (reserve_ports(s) < 0)
        return SIM_EXIT_BIND;
    return SIM_EXIT_OK;
}

void sim_runner_region(sim_t *s)
{
    shm_runner_sh_t *u = &s->shm.r->runner;
    u->port = conf_int(&s->conf, SP_port);
    u->coach_port = conf_int(&s->conf, SP_coach_port);
    u->olcoach_port = conf_int(&s->conf, SP_olcoach_port);
    u->exit_code = -1;
    s->runner.last_pub_ns = s->last_step_ns;
}

/* every gateway has bound its ports (its first heartbeat comes after the bind) */
static int gateways_up(const shm_region_sh_t *r, int http)
{
    for (uint32_t i = 0; i < r->hdr.n_gateways && i < SHM_MAX_GATEWAYS; i++) {
        if (atomic_load(&r->netgw[i].heartbeat_ns) == 0)
            return 0;
    }
    if (atomic_load(&r->monitorgw.heartbeat_ns) == 0)
        return 0;
    return !http || atomic_load(&r->runner.http_port) > 0;
}

static void release_ports(sim_t *s)
{
    for (int i = 0; i < 3; i++) {
        if (s->runner.resv_fd[i] >= 0)
            close(s->runner.resv_fd[i]);
        s->runner.resv_fd[i] = -1;
    }
}

static void announce_ready(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    shm_runner_sh_t *u = &r->runner;
    int http = atomic_load(&u->http_port);
    release_ports(s);
    s->runner.ready = 1;
    atomic_store(&u->ready, 1);
    /* stderr: stdout has the reference's lines only */
    /* pid: the process the user started (the supervisor, when there is one) */
    int pid = r->hdr.super_pid > 0 ? (int)r->hdr.super_pid : (int)getpid();
    fprintf(stderr, "READY port=%d coach_port=%d olcoach_port=%d http_port=%d shm=%s pid=%d "
            "sim_pid=%d\n", u->port, u->coach_port, u->olcoach_port, http, s->shm.name, pid,
            (int)getpid());
    json_t *o = json_pack("{s:I, s:i, s:i, s:i, s:i, s:s, s:i, s:i, s:b, s:s, s:s}", "seed",
                          (json_int_t)s->seed, "port", u->port, "coach_port", u->coach_port,
                          "olcoach_port", u->olcoach_port, "http_port", http, "shm",
                          s->shm.name, "pid", pid, "sim_pid", (int)getpid(), "synch_mode",
                          conf_bool(&s->conf, SP_synch_mode), "miss_policy",
                          conf_str(&s->conf, SP_synch_miss_policy), "version",
                          SIM_VERSION_BANNER);
    sim_events_emit(s, "start", o);
    sim_events_base(s);
    sim_commit(s, SIM_COMMIT_QUIET); /* a sim taking over does not announce it again */
}

/* Under systemd: each configured gateway that has not attached (no heartbeat) once
 * server::gateway_timeout_ms has passed since the start, one line each, once. */
static void report_missing(sim_t *s)
{
    const shm_region_sh_t *r = s->shm.r;
    int tmo = conf_int(&s->conf, SP_gateway_timeout_ms);
    int64_t limit = (int64_t)(tmo > 0 ? tmo : 2000) * 1000000LL;
    if (s->runner.missing_said || shm_now_ns() - s->runner.start_ns < limit)
        return;
    s->runner.missing_said = 1;
    for (uint32_t i = 0; i < r->hdr.n_gateways && i < SHM_MAX_GATEWAYS; i++) {
        if (atomic_load(&r->netgw[i].heartbeat_ns) == 0)
            log_warn("rcss-netgw %u of %u (server::netgw_processes) has not attached to %s "
                     "within %d ms: start it (systemd: rcssserver-netgw@%u.service)", i,
                     r->hdr.n_gateways, r->hdr.name, tmo > 0 ? tmo : 2000, i);
    }
    if (atomic_load(&r->monitorgw.heartbeat_ns) == 0)
        log_warn("rcss-monitorgw has not attached to %s within %d ms: start it (systemd: "
                 "rcssserver-monitorgw.service)", r->hdr.name, tmo > 0 ? tmo : 2000);
    if (sim_proc_logs_on(&s->conf) && atomic_load(&r->recorder.heartbeat_ns) == 0)
        log_warn("rcss-recorder has not attached to %s within %d ms: the logs are not "
                 "written (systemd: rcssserver-recorder.service)", r->hdr.name,
                 tmo > 0 ? tmo : 2000);
}

void sim_runner_poll(sim_t *s)
{
    sim_runner_t *u = &s->runner;
    /* under systemd the gateways come when they come: the ones still missing after
     * server::gateway_timeout_ms are named once (and /status shows them "missing") */
    if (!s->proc.spawn)
        report_missing(s);
    if (u->ready || u->exit_code >= 0)
        return;
    if (gateways_up(s->shm.r, conf_int(&s->conf, SP_http_port) != 0)) {
        announce_ready(s);
        return;
    }
    if (s->proc.spawn && shm_now_ns() - u->start_ns > SIM_READY_WAIT_NS) {
        log_err("the gateways did not come up within %lld s (ports in use?)",
                SIM_READY_WAIT_NS / 1000000000LL);
        u->exit_code = SIM_EXIT_BIND;
        u->why = "gateways_not_ready";
    }
}

static void metrics(sim_t *s, int64_t t0)
{
    shm_runner_sh_t *u = &s->shm.r->runner;
    int64_t now = s->last_step_ns, work = now - t0;
    u->publish_ns = work;
    u->publish_sum_ns += work;
    if (work > u->publish_max_ns)
        u->publish_max_ns = work;
    if (u->cycles > 0) {
        int64_t period = now - s->runner.last_pub_ns;
        if (u->cycles > 1) {
            int64_t d = period - u->period_ns;
            u->jitter_ns += ((d < 0 ? -d : d) - u->jitter_ns) / 16;
        }
        u->period_ns = period;
        u->period_sum_ns += period;
        if (period > u->period_max_ns)
            u->period_max_ns = period;
    }
    s->runner.last_pub_ns = now;
    u->cycles++;
    u->late_steps = s->late_steps;
}

void sim_runner_after_turn(sim_t *s, int64_t t0)
{
    metrics(s, t0);
    if (s->runner.ready)
        sim_events_diff(s);
}

int sim_runner_over(const sim_t *s)
{
    return s->runner.forfeit_side != 0 || s->runner.exit_code >= 0;
}

/* why the loop ended, and the exit status that says it */
static void decide(sim_t *s)
{
    sim_runner_t *u = &s->runner;
    const sim_world_t *w = &s->world;
    if (u->exit_code >= 0)
        return;
    if (u->forfeit_side) {
        u->exit_code = SIM_EXIT_MISSING;
        u->why = "forfeit";
    } else if (s->game_over && (!w->team[0][0] || !w->team[1][0])) {
        u->exit_code = SIM_EXIT_MISSING; /* the referee's time_up_without_a_team */
        u->why = "team_missing";
    } else {
        u->exit_code = SIM_EXIT_OK;
        u->why = s->game_over ? "game_over" : w->shutdown ? "shutdown" : "signal";
    }
}

/* the recorder finishes and names the logs on the finish flag; wait for the names */
static void wait_logs(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    if (!sim_proc_logs_on(&s->conf))
        return;
    atomic_store(&r->runner.finish, 1);
    shm_sem_post(&r->recorder.cycle_sem);
    for (int ms = 0; ms < SIM_FINISH_WAIT_MS; ms += 5) {
        if (atomic_load(&r->runner.logs_named) == r->runner.episode + 1)
            return;
        if (s->proc.spawn)
            sim_proc_reap(&s->proc);
        else if (atomic_load(&r->recorder.pid) <= 0)
            return; /* under systemd: no recorder running */
        usleep(5000);
    }
    log_warn("the recorder did not name the logs within %d ms", SIM_FINISH_WAIT_MS);
}

/* monitorgw hands runner events to its viewers with each snapshot and on its 50 ms
 * beat: give it the end */
static void wait_viewers(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    if (conf_int(&s->conf, SP_http_port) == 0)
        return;
    uint64_t head = shm_event_head(r);
    for (int ms = 0; ms < SIM_SSE_WAIT_MS && atomic_load(&r->monitorgw.pid) > 0; ms += 2) {
        if (atomic_load(&r->runner.mgw_event_read) >= head)
            return;
        usleep(2000);
    }
}

int sim_runner_finish(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    char path[LOGPATH_MAX + 256] = "";
    if (s->runner.ready) /* what changed since the last turn (a client that came meanwhile) */
        sim_events_diff(s);
    decide(s);
    r->runner.exit_code = s->runner.exit_code;
    snprintf(r->runner.exit_reason, sizeof r->runner.exit_reason, "%s", s->runner.why);
    sim_commit(s, SIM_COMMIT_QUIET); /* the recorder and the viewers see the last events */
    if (s->runner.ready)
        wait_logs(s);
    json_t *res = sim_resjson_build(s);
    sim_resjson_write(s, res, path, sizeof path);
    json_t *o = json_pack("{s:s, s:i, s:o, s:O}", "reason", s->runner.why, "exit_code",
                          s->runner.exit_code, "result_file",
                          path[0] ? json_string(path) : json_null(), "result",
                          res ? res : json_null());
    sim_events_emit(s, "end", o);
    sim_commit(s, SIM_COMMIT_QUIET);
    json_decref(res);
    if (s->runner.ready)
        wait_viewers(s);
    return s->runner.exit_code;
}

void sim_runner_close(sim_t *s)
{
    release_ports(s);
    sim_events_close(&s->runner.sink);
}
