/* sim_resjson.c -- result.json: what a tournament runner or a trainer needs from a
 * finished match without reading logs or stdout: teams, score, penalties, the coin toss,
 * cycles, seed, the logs' final names, each client's connections and synch-mode misses,
 * and why the server stopped. Written once, at the end, through a temporary file and
 * rename(2), so a reader never sees half a file; the same object is the end event. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sim.h"
#include "log.h"
#include "logpath.h"
#include "playmode.h"

static json_t *team_json(const sim_t *s, int k)
{
    const sim_world_t *w = &s->world;
    const shm_client_sh_t *coach = &s->shm.r->client[k == 0 ? SHM_COACH_LEFT : SHM_COACH_RIGHT];
    char name[SHM_TEAM_NAME_LEN], cname[SHM_TEAM_NAME_LEN];
    memcpy(name, w->team[k], sizeof name);
    memcpy(cname, coach->coach_name, sizeof cname);
    name[sizeof name - 1] = cname[sizeof cname - 1] = '\0';
    int players = 0;
    for (int i = 0; i < SHM_TEAM_SIZE; i++)
        players += w->pl[k * SHM_TEAM_SIZE + i].sh.enabled != 0;
    return json_pack("{s:s, s:o, s:o, s:i, s:i, s:{s:i, s:i}}", "side", k == 0 ? "l" : "r",
                     "name", name[0] ? json_string(name) : json_null(),
                     "coach", cname[0] ? json_string(cname) : json_null(),
                     "score", w->score[k], "players_on_field", players, "penalties",
                     "goals", w->pen_score[k], "taken", w->pen_score[k] + w->pen_miss[k]);
}

/* "l", "r" or null: the score, then the shoot-out, then the coin */
static json_t *winner_json(const sim_world_t *w)
{
    int d = w->score[0] - w->score[1];
    if (d == 0)
        d = w->pen_score[0] - w->pen_score[1];
    if (d == 0 && w->ref.pen_coin != 0)
        d = w->ref.pen_coin == SHM_SIDE_LEFT ? 1 : -1;
    return d > 0 ? json_string("l") : d < 0 ? json_string("r") : json_null();
}

static json_t *log_json(const shm_runner_sh_t *u, const char *name, int on)
{
    char path[SHM_RUNNER_PATH_LEN], abs[PATH_MAX];
    if (!on || atomic_load(&u->logs_named) != u->episode + 1)
        return json_null();
    memcpy(path, name, sizeof path);
    path[sizeof path - 1] = '\0';
    if (!path[0])
        return json_null();
    return json_string(realpath(path, abs) ? abs : path);
}

static json_t *clients_json(const sim_t *s)
{
    const shm_region_sh_t *r = s->shm.r;
    json_t *a = json_array();
    for (int i = 0; a && i < SHM_MAX_CLIENTS; i++) {
        const shm_client_stat_sh_t *st = &r->runner.client[i];
        if (st->connects == 0)
            continue;
        json_t *o = sim_events_client(s, i);
        if (!o)
            continue;
        int on = atomic_load(&r->client[i].state) == CLIENT_ST_ACTIVE;
        json_object_set_new(o, "connected", json_boolean(on));
        json_object_set_new(o, "connections", json_integer(st->connects));
        json_object_set_new(o, "misses", json_integer((json_int_t)st->misses));
        json_object_set_new(o, "max_consecutive_misses", json_integer(st->miss_run_max));
        json_array_append_new(a, o);
    }
    return a;
}

json_t *sim_resjson_build(const sim_t *s)
{
    const sim_world_t *w = &s->world;
    const shm_region_sh_t *r = s->shm.r;
    const conf_t *c = &s->conf;
    char when[32];
    struct tm tm;
    gmtime_r(&s->start_time, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    json_t *o = json_pack(
        "{s:s, s:s, s:i, s:[o,o], s:[i,i], s:o, s:o, s:s, s:i, s:I, s:i, s:I, s:s, s:I}",
        "server", SIM_VERSION_BANNER "-shm", "exit_reason", s->runner.why ? s->runner.why : "",
        "exit_code", s->runner.exit_code, "teams", team_json(s, 0), team_json(s, 1), "score",
        w->score[0], w->score[1], "winner", winner_json(w), "coin_toss",
        w->ref.pen_coin == SHM_SIDE_LEFT ? json_string("l")
        : w->ref.pen_coin == SHM_SIDE_RIGHT ? json_string("r") : json_null(),
        "play_mode", playmode_name(w->play_mode), "time", w->time, "steps",
        (json_int_t)atomic_load(&r->hdr.published), "episode", (int)w->episode, "seed",
        (json_int_t)s->seed, "start_time", when, "start_unix", (json_int_t)s->start_time);
    if (!o)
        return NULL;
    json_object_set_new(o, "sim_restarts",
                        json_integer((json_int_t)atomic_load(&r->hdr.sim_restarts)));
    json_object_set_new(o, "forfeit", s->runner.forfeit_side
                                      ? json_string(s->runner.forfeit_side == SHM_SIDE_LEFT ? "l" : "r")
                                      : json_null());
    json_object_set_new(o, "logs",
                        json_pack("{s:o, s:o}", "game",
                                  log_json(&r->runner, r->runner.game_log, conf_bool(c, SP_game_logging)),
                                  "text",
                                  log_json(&r->runner, r->runner.text_log, conf_bool(c, SP_text_logging))));
    json_object_set_new(o, "clients", clients_json(s));
    json_object_set_new(o, "synch", json_pack("{s:b, s:s, s:I}", "mode",
                                              conf_bool(c, SP_synch_mode), "miss_policy",
                                              conf_str(c, SP_synch_miss_policy), "misses",
                                              (json_int_t)r->runner.misses));
    return o;
}

/* where server::result_file goes: as given when absolute, else in the game log's
 * directory (the text log's, the working directory) */
static int result_path(const sim_t *s, char *out, size_t len)
{
    const conf_t *c = &s->conf;
    const char *f = conf_str(c, SP_result_file);
    char dir[LOGPATH_MAX], err[LOGPATH_MAX + 64];
    if (f[0] == '/')
        return snprintf(out, len, "%s", f) < (int)len ? 0 : -1;
    const char *d = conf_bool(c, SP_game_logging) ? conf_str(c, SP_game_log_dir)
                  : conf_bool(c, SP_text_logging) ? conf_str(c, SP_text_log_dir) : "./";
    if (logpath_dir(d, dir, sizeof dir, err, sizeof err) < 0) {
        log_err("result file: %s", err);
        return -1;
    }
    return snprintf(out, len, "%s%s", dir, f) < (int)len ? 0 : -1;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int sim_resjson_write(const sim_t *s, json_t *res, char *path, size_t len)
{
    char final[LOGPATH_MAX + 256], tmp[LOGPATH_MAX + 300];
    if (!conf_str(&s->conf, SP_result_file)[0] || !res)
        return 0;
    if (result_path(s, final, sizeof final) < 0)
        return -1;
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", final, (int)getpid());
    char *text = json_dumps(res, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    int fd = text ? open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
    int ok = fd >= 0 && write_all(fd, text, strlen(text)) == 0 && write_all(fd, "\n", 1) == 0
             && fsync(fd) == 0;
    if (fd >= 0 && close(fd) < 0)
        ok = 0;
    free(text);
    if (!ok || rename(tmp, final) < 0) {
        log_err("cannot write %s: %s", final, strerror(errno));
        unlink(tmp);
        return -1;
    }
    char abs[PATH_MAX];
    if (path) /* the name runners are given: absolute */
        snprintf(path, len, "%s", realpath(final, abs) ? abs : final);
    log_info("result: %s", final);
    return 0;
}
