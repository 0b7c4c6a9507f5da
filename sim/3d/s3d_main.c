/* s3d_main.c -- rcssserver3d: the 3D server's single entry point. Reads the
 * configuration, creates the 3D shm region, fills the parameters, starts the agent and
 * monitor gateways, then runs the clock / commands / step / publish loop until
 * SIGINT/SIGTERM/SIGHUP or the end of the game; removes the region on the way out. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "log.h"
#include "playmode3d.h"
#include "proc.h"
#include "s3d.h"
#include "shm.h"

_Static_assert(P3_COUNT <= SHM3D_MAX_PARAMS, "parameter table larger than the region's");
_Static_assert(CONF_STR_LEN == SHM3D_PARAM_STR_LEN, "string parameter sizes differ");

static int s3d_conf(s3d_t *s, int argc, char **argv)
{
    static char err[CONF_HELP_LEN];
    char note[PATH_MAX + 64];
    err[0] = '\0';
    int rc = conf3d_load(&s->conf, argc, argv, err, sizeof err, note, sizeof note);
    if (rc < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (rc == 1) {
        fputs(err, stdout);
        return -1;
    }
    if (note[0])
        log_info("%s", note);
    if (conf3d_bool(&s->conf, P3_verbose))
        log_level = LOG_DEBUG;
    s->synch = conf3d_bool(&s->conf, P3_synch_mode);
    return 0;
}

static void s3d_banner(s3d_t *s)
{
    int64_t seed = conf3d_int(&s->conf, P3_random_seed);
    s->seed = seed >= 0 ? (uint64_t)seed : rng_fresh_seed() & 0x7fffffffu;
    printf("%s\n\nSimulator Random Seed: %llu\n", S3D_VERSION_BANNER,
           (unsigned long long)s->seed);
    fflush(stdout);
}

static void fill_region(s3d_t *s)
{
    shm3d_region_sh_t *r = s->shm.r;
    r->params.count = P3_COUNT;
    for (int i = 0; i < P3_COUNT; i++) {
        r->params.num[i] = s->conf.num[i];
        memcpy(r->params.str[i], s->conf.str[i], SHM3D_PARAM_STR_LEN);
        r->params.str[i][SHM3D_PARAM_STR_LEN - 1] = '\0';
    }
    s->step_ns = (int64_t)(conf3d_real(&s->conf, P3_StepLength) * 1e9 + 0.5);
    r->hdr.step_ns = s->step_ns;
    r->hdr.random_seed = s->seed;
    r->hdr.synch_mode = (uint32_t)s->synch;
}

static int s3d_region(s3d_t *s)
{
    char name[SHM3D_NAME_LEN], err[256];
    const char *cn = conf3d_str(&s->conf, P3_shm_name);
    if (strlen(cn) >= sizeof name) {
        fprintf(stderr, "server::shm_name is longer than %d characters\n", SHM3D_NAME_LEN - 1);
        return -1;
    }
    if (cn[0])
        snprintf(name, sizeof name, "%s", cn);
    else
        shm3d_default_name(conf3d_int(&s->conf, P3_agent_port), name, sizeof name);
    if (shm3d_region_create(&s->shm, name, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    fill_region(s);
    s3d_world_init(&s->world, &s->conf, s->seed);
    s->world.emit = s3d_publish_emit;
    s->world.emit_ctx = s->shm.r;
    s->shm.r->hdr.epoch_ns = shm_now_ns();
    s->last_step_ns = s->shm.r->hdr.epoch_ns;
    s3d_publish(&s->world, s->shm.r); /* publish 1: the world before any step */
    atomic_store(&s->shm.r->hdr.ready, 1);
    return 0;
}

/* A fresh monitor log for this run (its directory made if missing); the monitor
 * gateway appends to it. */
static int s3d_log_prepare(const s3d_t *s)
{
    const char *path = conf3d_str(&s->conf, P3_monitor_log);
    char dir[CONF_STR_LEN];
    if (!path[0])
        return 0;
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "cannot create %s for server::monitor_log: %s\n", dir, strerror(errno));
            return -1;
        }
        *p = '/';
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "cannot create the monitor log %s: %s (server::monitor_log=\"\" "
                        "runs without one)\n", path, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
}

static int s3d_gateways(s3d_t *s)
{
    char err[PATH_MAX + 64];
    if (s3d_proc_init(&s->proc, s->shm.r, &s->conf, s->shm.name, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (s3d_proc_start(&s->proc) < 0) {
        fprintf(stderr, "cannot start the gateways\n");
        return -1;
    }
    return 0;
}

/* "NAME 1 : 2 NAME" with the name of a team that is not there left out, as the 2004
 * server kept it: empty ("Alone 0 : 0", "0 : 0") */
static const char *score_text(const s3d_world_t *w, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%d : %d%s%s", w->team[0], w->team[0][0] ? " " : "", w->score[0],
             w->score[1], w->team[1][0] ? " " : "", w->team[1]);
    return buf;
}

static void log_changes(const s3d_world_t *w, int pm, const int score[2])
{
    char sc[96];
    if (w->score[0] != score[0] || w->score[1] != score[1])
        log_info("time %.2f: goal, %s", w->game_time, score_text(w, sc, sizeof sc));
    if (w->play_mode != pm)
        log_info("time %.2f: %s", w->game_time, playmode3d_name(w->play_mode));
}

/* one step: connections, records, step, publish */
static void s3d_turn(s3d_t *s)
{
    shm3d_region_sh_t *r = s->shm.r;
    int pm = s->world.play_mode, score[2] = { s->world.score[0], s->world.score[1] };
    s3d_cmd_sync(&s->world, r);
    s3d_cmd_drain(&s->world, r);
    s3d_world_step(&s->world);
    log_changes(&s->world, pm, score);
    s->wait_agents = s3d_publish(&s->world, r);
    s->last_step_ns = shm_now_ns();
}

static void s3d_run(s3d_t *s)
{
    log_info("running: shm %s, agents on TCP %d, monitors on TCP %d, step %g s%s",
             s->shm.name, conf3d_int(&s->conf, P3_agent_port),
             conf3d_int(&s->conf, P3_monitor_port), conf3d_real(&s->conf, P3_StepLength),
             s->synch ? ", synch mode" : "");
    while (!s3d_stop_flag && !s->world.shutdown) {
        s3d_clock_wait_next(s);
        if (s3d_stop_flag)
            break;
        s3d_turn(s);
    }
}

static void s3d_shutdown(s3d_t *s)
{
    shm3d_region_sh_t *r = s->shm.r;
    char sc[96];
    log_info("shutting down at time %.2f (%s)", s->world.game_time,
             score_text(&s->world, sc, sizeof sc));
    atomic_store(&r->hdr.shutdown, 1);
    for (int g = 0; g < SHM3D_N_GATEWAYS; g++)
        shm_sem_post(&r->proc[g].cycle_sem);
    s3d_proc_stop(&s->proc);
    shm3d_region_destroy(&s->shm);
}

int main(int argc, char **argv)
{
    static s3d_t s3d; /* large: not on the stack */
    log_init("rcssserver3d", LOG_INFO);
    if (s3d_conf(&s3d, argc, argv) < 0)
        return 1;
    s3d_banner(&s3d);
    proc_stop_signals(&s3d_stop_flag);
    if (s3d_log_prepare(&s3d) < 0)
        return 1;
    if (s3d_region(&s3d) < 0)
        return 1;
    if (s3d_gateways(&s3d) < 0) {
        s3d_proc_stop(&s3d.proc);
        shm3d_region_destroy(&s3d.shm);
        return 1;
    }
    s3d_run(&s3d);
    s3d_shutdown(&s3d);
    return 0;
}
