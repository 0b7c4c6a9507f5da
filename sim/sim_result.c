/* sim_result.c -- what the process prints when a match ends (docs/protocol/logs.md §7,
 * §8): the closing line ("Game Over. Exiting..." and the like) and the result block the
 * reference's savers print to stdout: team names, online coach names, the score, the
 * shoot-out and the coin toss. This server saves no CSV file, so that saver reports
 * itself disabled, as the reference's does by default. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "sim.h"

static void team_line(FILE *out, const char *l, const char *r)
{
    if (l[0])
        fprintf(out, "'%s' vs ", l);
    else
        fputs("null vs ", out);
    if (r[0])
        fprintf(out, "'%s'\n", r);
    else
        fputs("null\n", out);
}

static void coach_line(FILE *out, const char *which, const shm_client_sh_t *c)
{
    char name[SHM_TEAM_NAME_LEN];
    memcpy(name, c->coach_name, sizeof name);
    name[sizeof name - 1] = '\0';
    if (name[0])
        fprintf(out, "\t%s Coach: '%s'\n", which, name);
}

static void game_results(FILE *out, const sim_world_t *w, const shm_region_sh_t *r,
                         time_t start)
{
    char when[64];
    struct tm tm;
    localtime_r(&start, &tm);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    fprintf(out, "\nGame Results:\n\t%s\n\t", when);
    team_line(out, w->team[0], w->team[1]);
    if (r) {
        coach_line(out, "Left", &r->client[SHM_COACH_LEFT]);
        coach_line(out, "Right", &r->client[SHM_COACH_RIGHT]);
    }
    fprintf(out, "\tScore: %d - %d\n ", w->score[0], w->score[1]);
    int taken_l = w->pen_score[0] + w->pen_miss[0], taken_r = w->pen_score[1] + w->pen_miss[1];
    if (taken_l || taken_r)
        fprintf(out, "\tPenalties: %d (%d) - %d (%d)\n", w->pen_score[0], taken_l,
                w->pen_score[1], taken_r);
    if (w->ref.pen_coin == SHM_SIDE_LEFT)
        fputs("\tCoin Toss Winner: Left Team\n", out);
    else if (w->ref.pen_coin == SHM_SIDE_RIGHT)
        fputs("\tCoin Toss Winner: Right Team\n", out);
    fputs("\n", out);
}

void sim_result_print(FILE *out, const char *why, const sim_world_t *w,
                      const shm_region_sh_t *r, time_t start)
{
    fprintf(out, "\n%s\n", why);
    fputs("\nSaving Results:\n", out);
    fputs("\tCSVSaver: saving...\n\tCSVSaver: ...disabled\n", out);
    fputs("\tSTDOutSaver: saving...\n", out);
    game_results(out, w, r, start);
    fputs("\tSTDOutSaver: ...saved\n\nSaving Results Complete\n", out);
    fflush(out);
}
