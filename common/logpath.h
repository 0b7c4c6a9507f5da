/* logpath.h -- where game and text logs go and what they are called, as the reference
 * names them (docs/protocol/logs.md §4, §6): the log directory (~ expanded, created
 * with its parents), the running name (incomplete.rcg or FIXED.rcg, ".gz" when
 * compressed) and the final name "DIR/[DATE]LEFT-vs-RIGHT.rcg[.gz]" with
 * TEAMINFO = name_[coach_]score[_penscore[w]]. Client-chosen text (team and coach names)
 * never becomes a path component: everything but [A-Za-z0-9_.+-] is replaced by '_'.
 * Pure functions filling caller buffers and err; used by the sim (directory check at
 * start) and rcss-recorder. */
#ifndef RCSS_LOGPATH_H
#define RCSS_LOGPATH_H

#include <stddef.h>
#include <time.h>

#define LOGPATH_MAX 4096

/* What the final name says about one team. */
typedef struct logpath_team {
    const char *name;      /* "" if the team never connected ("null") */
    const char *coach;     /* online coach name, "" if none */
    int         score;
    int         pen_score; /* penalty goals */
    int         pen_taken; /* penalties taken */
    int         pen_won;   /* 1 if it won the shoot-out's coin toss ("w") */
} logpath_team_t;

/* dir with a leading "~/" (or "~") replaced by $HOME and a trailing '/' added, into out.
 * 0, or -1 with err if it does not fit or HOME is unset for a "~" path. */
int  logpath_dir(const char *dir, char *out, size_t len, char *err, size_t errlen);
/* Create dir (as logpath_dir gives it) and its missing parents, then check it can be
 * written. 0, or -1 with err naming the failing call. */
int  logpath_mkdirs(const char *dir, char *err, size_t errlen);
/* Replace in s every character outside [A-Za-z0-9_.+-] by '_' (so no '/' or control
 * character survives), in place. */
void logpath_sanitize(char *s);
/* "LEFT-vs-RIGHT" (team infos as above, sanitised). The penalty part appears on both
 * sides only when the regular score is tied and both teams took penalties. Returns the
 * length or -1 if it does not fit. */
int  logpath_teaminfo(const logpath_team_t *l, const logpath_team_t *r, char *out, size_t len);
/* The running name: dir (as logpath_dir gives it) + (fixed ? fixed_name : "incomplete")
 * + suffix (".rcg", ".rcl") + (gz ? ".gz" : ""). -1 if it does not fit. */
int  logpath_running(const char *dir, int fixed, const char *fixed_name, const char *suffix,
                     int gz, char *out, size_t len);
/* The final name: dir + (dated ? strftime(date_fmt, localtime(start)) : "") + teaminfo
 * + suffix + (gz ? ".gz" : ""); a '/' or control character the date format produced
 * becomes '_' (it is configuration, not client text, but must not make a path either).
 * -1 if it does not fit. */
int  logpath_final(const char *dir, int dated, const char *date_fmt, time_t start,
                   const char *teaminfo, const char *suffix, int gz, char *out, size_t len);

#endif
