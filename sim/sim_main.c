/* sim_main.c -- rcssserver: the single entry point. Reads the configuration, creates the
 * shm region, fills parameters and player types, starts the gateways, then runs the
 * clock/step/publish loop until SIGINT/SIGTERM/SIGHUP or a shutdown command; removes the
 * region on the way out. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim.h"
#include "log.h"
#include "playmode.h"
#include "proc.h"

_Static_assert(PARAM_COUNT <= SHM_MAX_PARAMS, "parameter table larger than the region's");
_Static_assert(CONF_STR_LEN == SHM_PARAM_STR_LEN, "string parameter sizes differ");

/* 0 to run, 1 when help was printed (exit 0), -1 on a configuration error (exit 1).
 * The buffer holds a whole module::help listing (every parameter, one line each). */
static int sim_conf(sim_t *s, int argc, char **argv)
{
    static char err[SIM_HELP_LEN];
    err[0] = '\0';
    int rc = sim_runner_conf(&s->conf, argc, argv, err, sizeof err);
    if (rc == 2) /* --print-config: printed */
        return 1;
    if (rc < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (rc == 1) {
        fputs(err, stdout);
        if (err[0] && err[strlen(err) - 1] != '\n')
            fputc('\n', stdout);
        return 1;
    }
    if (conf_bool(&s->conf, SP_verbose))
        log_level = LOG_DEBUG;
    tgrid_param_t tp;
    tgrid_param_conf(&tp, &s->conf);
    if (tgrid_init(&s->grid, &tp, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

/* the reference's first lines: name, seed (its words for a given one), result savers */
static void sim_banner(sim_t *s)
{
    int64_t seed = (int64_t)conf_real(&s->conf, SP_random_seed);
    /* a fresh seed fits a C int, as the reference's (which is time(0)) */
    s->seed = seed >= 0 ? (uint64_t)seed : rng_fresh_seed() & 0x7fffffffu;
    printf("%s\n\n%sSimulator Random Seed: %llu\n", SIM_VERSION_BANNER,
           seed >= 0 ? "Using given " : "", (unsigned long long)s->seed);
    printf("CSVSaver: Ready\nSTDOutSaver: Ready\n");
    fflush(stdout);
}

static int clamp_gateways(const conf_t *c)
{
    int n = conf_int(c, SP_netgw_processes);
    return n < 1 ? 1 : n > SHM_MAX_GATEWAYS ? SHM_MAX_GATEWAYS : n;
}

static void fill_region(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    uint32_t pseed = sim_ptypes_seed(&s->conf, s->seed);
    if (conf_int(&s->conf, PP_player_types) > 1) { /* the reference reports the seed it used */
        printf(conf_real(&s->conf, PP_random_seed) >= 0.0 ? "Using given Hetero Player Seed: %d\n"
               : "Using simulator's random seed as Hetero Player Seed: %d\n", (int32_t)pseed);
        s->conf.num[PP_random_seed] = (int32_t)pseed;
    }
    r->params.count = PARAM_COUNT;
    for (int i = 0; i < PARAM_COUNT; i++) {
        r->params.num[i] = s->conf.num[i];
        memcpy(r->params.str[i], s->conf.str[i], SHM_PARAM_STR_LEN);
        r->params.str[i][SHM_PARAM_STR_LEN - 1] = '\0';
    }
    sim_ptypes_generate(&s->conf, pseed, &r->ptypes);
    int64_t ms = (int64_t)conf_int(&s->conf, SP_simulator_step)
                 * (conf_int(&s->conf, SP_slow_down_factor) > 0
                    ? conf_int(&s->conf, SP_slow_down_factor) : 1);
    s->step_ns = (ms > 0 ? ms : 100) * 1000000LL;
    r->hdr.step_ns = s->step_ns;
    r->hdr.random_seed = s->seed;
    r->rec.start_time = (int64_t)s->start_time; /* log names and the result block agree */
    r->hdr.n_gateways = (uint32_t)clamp_gateways(&s->conf);
    r->hdr.sim_pid = (int32_t)getpid();
    /* resume: how long the gateways wait for a new sim, and who starts it */
    int wait = conf_int(&s->conf, SP_resume_wait_ms);
    r->hdr.resume_wait_ms = conf_bool(&s->conf, SP_resume_match) && wait > 0 ? (uint32_t)wait : 0;
    if (s->resume.super_fd >= 0) {
        r->hdr.super_pid = (int32_t)getppid();
        r->hdr.super_start = shm_pid_start(getppid());
    }
    sim_state_init(r);
}

/* the region's name: server::shm_name, else /rcssserver-PORT; -1 if too long */
static int region_name(const conf_t *c, char *name, size_t len)
{
    const char *cn = conf_str(c, SP_shm_name);
    if (strlen(cn) >= len) {
        fprintf(stderr, "server::shm_name is longer than %d characters\n", (int)len - 1);
        return -1;
    }
    if (cn[0] != '\0')
        memcpy(name, cn, strlen(cn) + 1);
    else
        shm_default_name(conf_int(c, SP_port), name, len);
    return 0;
}

/* 0, or the exit status: 1 (error), SIM_EXIT_BIND (the name or a port is another
 * server's, or another user's) */
static int sim_region(sim_t *s)
{
    char name[SHM_NAME_LEN], err[SHM_ERR_LEN];
    if (region_name(&s->conf, name, sizeof name) < 0)
        return 1;
    unsigned held = 0;
    for (int i = 0; i < 3; i++)
        held |= s->runner.resv_fd[i] >= 0 ? 1u << i : 0u;
    int rc = sim_guard_take(&s->guard, &s->conf, name, held, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return rc;
    }
    rc = shm_region_create(&s->shm, name, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "%s\n", err);
        return rc == SHM_CONFLICT ? SIM_EXIT_BIND : 1;
    }
    if (s->shm.reclaimed_pid != 0)
        log_info("shm %s: replaced the region a dead server left (pid %d)", name,
                 (int)s->shm.reclaimed_pid);
    fill_region(s);
    sim_world_init(&s->world, &s->conf, &s->shm.r->ptypes, s->seed);
    sim_referee_init(&s->world, &sim_step_referees);
    printf("wind factor: rand: %f, vector: (%f, %f)\n", s->world.wind_rand, s->world.wind_x,
           s->world.wind_y);
    fflush(stdout);
    s->world.emit = sim_state_emit;
    s->world.emit_ctx = s;
    s->shm.r->hdr.epoch_ns = shm_now_ns();
    s->grid0_ns = s->shm.r->hdr.epoch_ns;
    s->poll = 0;
    s->last_step_ns = s->shm.r->hdr.epoch_ns;
    /* publish 1: the world before any step, at poll 0 (the first state committed) */
    sim_publish_step(s);
    atomic_store(&s->shm.r->hdr.ready, 1);
    s->resume.progress_left = SHM_RESUME_PROGRESS;
    char line[SHM_NAME_LEN + 2];
    snprintf(line, sizeof line, "N%s", name);
    sim_super_tell(s, line);
    return 0;
}

static int sim_gateways(sim_t *s)
{
    char err[PATH_MAX + 64];
    shm_region_sh_t *r = s->shm.r;
    if (sim_proc_init(&s->proc, r, &s->conf, s->shm.name, (int)r->hdr.n_gateways,
                      err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (sim_proc_start(&s->proc) < 0) {
        fprintf(stderr, "cannot start the gateways\n");
        return -1;
    }
    return 0;
}

/* The clock starts when the gateways are up (the ports taken), as the reference's timer
 * starts once its sockets are bound: the cycles a client finds when it connects right
 * after the start (the stoppage count before the kick-off, the timer's phase) are the
 * reference's. */
static void sim_wait_ready(sim_t *s)
{
    if (s->runner.ready) /* a match taken over: its clock goes on (sim_resume.c) */
        return;
    while (!sim_stop_flag && !s->proc.fatal && !s->runner.ready && !sim_runner_over(s)) {
        sim_runner_poll(s);
        if (s->runner.ready)
            break;
        sim_clock_wait_until(s, shm_now_ns() + 2000000LL);
    }
    s->grid0_ns = shm_now_ns();
    s->poll = 0;
    s->last_step_ns = s->grid0_ns;
}

static void sim_run(sim_t *s)
{
    log_info("running: shm %s, %u netgw, step %lld ms%s", s->shm.name,
             s->shm.r->hdr.n_gateways, (long long)(s->step_ns / 1000000),
             conf_bool(&s->conf, SP_synch_mode) ? ", synch mode" : "");
    sim_wait_ready(s);
    while (!sim_stop_flag && !s->world.shutdown && !s->game_over && !s->proc.fatal
           && !sim_runner_over(s)) {
        sim_runner_poll(s);
        sim_clock_wait_next(s);
        if (sim_stop_flag || s->proc.fatal || sim_runner_over(s))
            break;
        sim_loop_turn(s);
    }
}

/* Stadium::finalize: the team commands stopped, the result printed */
static void sim_finalize(sim_t *s)
{
    const char *why = s->game_over ? "Game Over. Exiting..."
                      : sim_stop_flag ? "Server Killed. Exiting..." : "Quit Server. Exiting...";
    sim_proc_kill_teams(&s->proc);
    sim_result_print(stdout, why, &s->world, s->shm.r, s->start_time);
}

static int sim_shutdown(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    log_info("shutting down at time %d", s->world.time);
    sim_finalize(s);
    int rc = sim_runner_finish(s);
    atomic_store(&r->hdr.shutdown, 1);
    for (uint32_t g = 0; g < SHM_MAX_GATEWAYS; g++)
        shm_sem_post(&r->netgw[g].cycle_sem);
    shm_sem_post(&r->monitorgw.cycle_sem);
    shm_sem_post(&r->recorder.cycle_sem);
    shm_sem_post(&r->hdr.done_sem);
    sim_proc_stop(&s->proc);
    shm_region_destroy(&s->shm);
    sim_runner_close(s);
    return rc;
}

static int sim_serve(sim_t *s);

/* A match taken over from a dead sim: the state from the region, then the loop. */
static int sim_serve_resumed(sim_t *s)
{
    proc_stop_signals(&sim_stop_flag);
    int rc = sim_resume_serve(s);
    if (rc == SIM_EXIT_CRASH_LOOP) { /* given up: logs, result, region, gateways ended */
        sim_shutdown(s);
        sim_runner_close(s);
        return rc;
    }
    if (rc < 0) /* the match had ended when its sim died */
        return SIM_EXIT_OK;
    if (rc != 0)
        return rc;
    sim_run(s);
    rc = sim_shutdown(s);
    return s->proc.fatal ? s->proc.fatal : rc;
}

/* server::rt_priority in real time: the sim on the real-time scheduler (its gateways set
 * their own; monitorgw, the recorder and team commands stay on the normal one) */
static void sim_realtime(sim_t *s)
{
    char err[256];
    if (!conf_bool(&s->conf, SP_synch_mode)
        && proc_realtime(conf_int(&s->conf, SP_rt_priority), err, sizeof err) < 0)
        log_warn("%s", err);
}

/* Under systemd a new sim is the same command: it takes the match over if the region
 * holds one its dead predecessor left (resume on). */
static void sim_find_match(sim_t *s)
{
    char name[SHM_NAME_LEN], why[SHM_ERR_LEN + 64];
    if (s->resume.name[0] || s->resume.super_fd >= 0 || !conf_bool(&s->conf, SP_resume_match)
        || region_name(&s->conf, name, sizeof name) < 0)
        return;
    if (sim_resume_possible(name, why, sizeof why))
        snprintf(s->resume.name, sizeof s->resume.name, "%s", name);
}

int main(int argc, char **argv)
{
    static sim_t sim; /* large (configuration, world): not on the stack */
    log_init("rcssserver", LOG_INFO);
    int rc = sim_conf(&sim, argc, argv);
    if (rc != 0)
        return rc < 0 ? SIM_EXIT_CONFIG : SIM_EXIT_OK;
    sim_super_run(&sim); /* returns in the sim (the supervisor exits by itself) */
    sim_realtime(&sim);
    sim_find_match(&sim);
    rc = sim.resume.name[0] ? sim_serve_resumed(&sim) : sim_serve(&sim);
    tgrid_free(&sim.grid);
    return rc;
}

/* everything after the configuration: the region, the gateways, the match, the end */
static int sim_serve(sim_t *s)
{
    int rc;
    if ((rc = sim_runner_init(s)) != SIM_EXIT_OK)
        return rc;
    s->start_time = time(NULL);
    sim_banner(s);
    proc_stop_signals(&sim_stop_flag);
    if ((rc = sim_region(s)) != 0)
        return rc;
    sim_runner_region(s);
    /* the reference's last line before its loop, and before any client can be served: a
     * gateway prints its clients' "connected" lines as soon as it runs */
    fputs("\nHit CTRL-C to exit\n", stdout);
    fflush(stdout);
    if (sim_gateways(s) < 0) {
        sim_proc_stop(&s->proc);
        shm_region_destroy(&s->shm);
        return 1;
    }
    sim_run(s);
    rc = sim_shutdown(s);
    return s->proc.fatal ? s->proc.fatal : rc; /* a gateway that could not run wins */
}
