/* rec_runner.c -- what the recorder does for the runner interface (sim_runner.c): it
 * finishes the logs when the sim says the match is over (the region's runner.finish,
 * before the shutdown flag), publishes their final names for result.json, and names the
 * logs of each episode after a (reset) apart: episode N >= 1 puts "rN-" after the date
 * prefix (or first, undated) and "-rN" after a fixed name, so episodes finished within
 * the same second never overwrite each other. */
#include <stdio.h>
#include <string.h>
#include "rec.h"

int rec_runner_finish_asked(const shm_region_sh_t *r)
{
    return atomic_load(&r->runner.finish) != 0;
}

void rec_runner_names(shm_region_sh_t *r, uint32_t episode, const char *game, const char *text)
{
    shm_runner_sh_t *u = &r->runner;
    snprintf(u->game_log, sizeof u->game_log, "%s", game ? game : "");
    snprintf(u->text_log, sizeof u->text_log, "%s", text ? text : "");
    atomic_store_explicit(&u->logs_named, episode + 1, memory_order_release);
}

int rec_runner_date(const char *date_fmt, int dated, uint32_t episode, char *fmt, size_t len)
{
    if (episode == 0) {
        snprintf(fmt, len, "%s", date_fmt);
        return dated;
    }
    snprintf(fmt, len, "%sr%u-", dated ? date_fmt : "", episode);
    return 1;
}

void rec_runner_fixed(const char *name, uint32_t episode, char *out, size_t len)
{
    if (episode == 0)
        snprintf(out, len, "%s", name);
    else
        snprintf(out, len, "%s-r%u", name, episode);
}
