/* tn_result.c -- a match's result.json (written by the server, README "Tournament runners
 * and trainers") read into what the tournament counts: the score, the shoot-out, the
 * winner, a forfeit, the logs' names. A result counts (valid) when the match ended
 * normally (exit_reason game_over, or forfeit) with the expected team on each side;
 * anything else (a team missing, a signal, the wrong sides) is a failed attempt. */
#include <stdio.h>
#include <string.h>

#include "tn.h"

static void base_name(char *out, size_t len, json_t *path)
{
    const char *p = json_string_value(path);
    if (!p) {
        out[0] = '\0';
        return;
    }
    const char *slash = strrchr(p, '/');
    snprintf(out, len, "%s", slash ? slash + 1 : p);
}

static int side_of(json_t *v)
{
    const char *s = json_string_value(v);
    return !s ? -1 : s[0] == 'l' ? 0 : s[0] == 'r' ? 1 : -1;
}

int tn_outcome_read(const char *path, const char *lname, const char *rname, tn_outcome_t *o)
{
    memset(o, 0, sizeof *o);
    o->winner = o->forfeit = -1;
    json_error_t je;
    json_t *r = json_load_file(path, 0, &je);
    if (!r) {
        snprintf(o->why, sizeof o->why, "no result.json");
        return -1;
    }
    const char *reason = json_string_value(json_object_get(r, "exit_reason"));
    snprintf(o->reason, sizeof o->reason, "%s", reason ? reason : "?");
    json_t *teams = json_object_get(r, "teams");
    const char *names[2];
    for (int k = 0; k < 2; k++) {
        json_t *t = json_array_get(teams, (size_t)k);
        names[k] = json_string_value(json_object_get(t, "name"));
        o->score[k] = (int)json_integer_value(json_object_get(t, "score"));
        o->pen[k] = (int)json_integer_value(json_object_get(json_object_get(t, "penalties"), "goals"));
    }
    o->winner = side_of(json_object_get(r, "winner"));
    o->forfeit = side_of(json_object_get(r, "forfeit"));
    if (o->forfeit >= 0)
        o->winner = 1 - o->forfeit;
    json_t *logs = json_object_get(r, "logs");
    base_name(o->rcg, sizeof o->rcg, json_object_get(logs, "game"));
    base_name(o->rcl, sizeof o->rcl, json_object_get(logs, "text"));
    if (strcmp(o->reason, "game_over") != 0 && strcmp(o->reason, "forfeit") != 0)
        snprintf(o->why, sizeof o->why, "the match did not end normally (exit_reason %s)", o->reason);
    else if (lname && (!names[0] || strcmp(names[0], lname) != 0))
        snprintf(o->why, sizeof o->why, "%s expected on the left, found %s", lname,
                 names[0] ? names[0] : "nobody");
    else if (rname && (!names[1] || strcmp(names[1], rname) != 0))
        snprintf(o->why, sizeof o->why, "%s expected on the right, found %s", rname,
                 names[1] ? names[1] : "nobody");
    else
        o->valid = 1;
    json_decref(r);
    return 0;
}
