/* e2e_tourn.h -- helpers for the tournament tests (test_180, test_181): run
 * $RCSS_BIN_DIR/rcss-tournament as a user would, write a quick variant of
 * conf/tournament/demo.json, and check a tournament's folder on its own terms (its own
 * reading of every result.json, not the runner's code): every match played with its
 * seed and its teams on their sides, standings.json equal to a recount, in order. */
#ifndef RCSS_E2E_TOURN_H
#define RCSS_E2E_TOURN_H

#include <stddef.h>

/* Run rcss-tournament with args (NULL-terminated, without the program) in its own
 * process group, stdout and stderr into out; extra environment "NAME=value" entries in
 * env (NULL-terminated, or NULL). The exit status, -1 on a timeout (the group is killed). */
int  e2e_tourn_cmd(const char *const *args, const char *const *env, char *out, size_t len,
                   int timeout_s);
/* conf/tournament/demo.json with halves of half_time s, bound to 127.0.0.1, as path. */
int  e2e_tourn_quick_file(const char *path, double half_time);
/* Check dir after a run: n_matches matches, each with match.json, a result.json that
 * ended normally with the match's seed and teams on their sides, the game log, each
 * team's output, no running.json; standings.json equal to a recount and ordered by
 * points, goal difference, goals for, name; index.html naming every match. 0, or -1
 * with why. */
int  e2e_tourn_check(const char *dir, int n_matches, char *why, size_t len);
/* "id seed left right" per match, sorted, one a line (what must not depend on the
 * backend), and the standings as "name played won drawn lost gf ga points" lines. */
int  e2e_tourn_schedule_of(const char *dir, char *out, size_t len);
int  e2e_tourn_standings_of(const char *dir, char *out, size_t len);
/* The scores, "id l-r" per match, sorted. */
int  e2e_tourn_scores_of(const char *dir, char *out, size_t len);
/* Every match of dir a played the same game as in dir b: the same matches, and game logs
 * the same from the first show on (e2e_rcg_play). 0, or -1 with the first match that
 * differs and where in why. */
int  e2e_tourn_same_games(const char *a, const char *b, char *why, size_t len);
/* Total attempts in dir/jobs.json, -1 if unreadable. */
int  e2e_tourn_attempts(const char *dir);

#endif
