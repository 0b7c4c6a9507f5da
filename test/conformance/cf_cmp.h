/* cf_cmp.h -- two runs of one scenario compared: every stream's messages (filtered by
 * the scenario's rules) line by line, timing streams as phase clusters; differences
 * printed with context, intended deviations (cf_dev.h) named and not counted. */
#ifndef RCSS_CF_CMP_H
#define RCSS_CF_CMP_H

#include <regex.h>
#include <stdio.h>

#include "cf_dev.h"
#include "cf_run.h"
#include "cf_scn.h"

/* A stream's messages after the scenario's rules: text[i] (owned) came from record
 * rec[i] of the stream (-1: made up by a rule). */
typedef struct cf_lines {
    char **text;
    int   *rec;
    int    n;
} cf_lines_t;

void cf_cmp_filter(const cf_scn_t *s, const cf_stream_t *st, cf_lines_t *out);
void cf_lines_free(cf_lines_t *l);

/* The rules' rewrites, exposed for the unit tests: "(see 12 ..." -> "(see T ..." (and a
 * trainer's "(hear referee 12 ..." -> "(hear referee T ..."); every number -> "#". Both
 * return malloc'd strings. */
char *cf_cmp_notime(const char *line);
char *cf_cmp_shape(const char *line);
/* A see message without what the reference leaves out at random: a flag, goal or ball
 * seen 20-40 m away (its velocity far lengths) loses its distance and direction changes;
 * a player 20 m or more away (unum and team far lengths), or any player in a low-quality
 * see, keeps only the word p / player and its distance and direction. */
char *cf_cmp_seecanon(const char *line);
/* A see message reduced to the names of what is seen, players as p / player only:
 * "(see 12 (f c) (b) (p) (l r))" (for Gaussian sees, whose numbers are noise). */
char *cf_cmp_seenames(const char *line);

/* 1: differences show whole lines, however long (rcss-conform --full) */
extern int cf_cmp_full_lines;

typedef struct cf_cmp_count {
    int diffs;           /* counted differences */
    int devs;            /* differences explained by a deviation */
} cf_cmp_count_t;

/* Compare run a with run b (labels from the runs), print to out (at most max_show
 * differences in full per stream), add to count. verbose also prints each timing
 * comparison. */
void cf_cmp_scenario(const cf_scn_t *s, const cf_run_t *a, const cf_run_t *b, cf_devs_t *devs,
                     FILE *out, int max_show, int verbose, cf_cmp_count_t *count);

/* t with every part that matches re (compiled without REG_NOSUB) replaced by with:
 * "#" for the rule blank, "" for strip; a new string. */
char *cf_cmp_blank(const char *t, const regex_t *re, const char *with);

#endif
