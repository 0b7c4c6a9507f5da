/* cf_run.h -- one scenario against one server: the server started in its own process
 * group on free ports with a private directory, the scripted clients on 127.0.0.1, every
 * datagram each client receives recorded with its arrival time, then the server's
 * stdout and log files. The recorded streams are what cf_cmp.c compares. */
#ifndef RCSS_CF_RUN_H
#define RCSS_CF_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "cf_scn.h"

#define CF_MAX_STALLS 64

typedef struct cf_rec {
    int64_t t_us;        /* arrival (kernel timestamp), µs on CLOCK_MONOTONIC since start */
    int     sent;        /* 1: sent by the client (shown as context, not compared) */
    int     zlib;        /* 1: arrived zlib-compressed; text is the inflated message */
    int     note;        /* 1: the runner's own note ("#timeout ..."), compared */
    char   *text;        /* printable form: trailing NULs cut, other bytes as \xHH */
} cf_rec_t;

typedef struct cf_stream {
    char      name[CF_NAME_LEN];
    cf_rec_t *rec;
    int       n, cap;
} cf_stream_t;

typedef struct cf_server {
    const char *exe;     /* path of rcssserver */
    int         is_ref;  /* the reference: ref options, no options of this server */
    const char *label;   /* "ours", "ref", "run1", "run2" */
} cf_server_t;

typedef struct cf_run {
    const char  *label;
    cf_stream_t *st;
    int          nst;
    int64_t      stall[2 * CF_MAX_STALLS];  /* start, end of each stall (µs, as t_us) */
    int          nstall;
    int          port;                       /* player port; trainer +1, coach +2 */
    char         dir[256];                   /* private working directory */
    double       secs;                       /* wall time of the run */
    char         problem[512];               /* set when the run could not be done */
} cf_run_t;

/* Run scenario s against srv. 0 when the scenario ran to its end (differences or not),
 * -1 when the server could not be started (problem says why). keep: leave the
 * working directory (logs, stdout, stderr) in place. verbose: print progress. */
int  cf_run_scenario(const cf_scn_t *s, const cf_server_t *srv, cf_run_t *run, int keep,
                     int verbose);
void cf_run_free(cf_run_t *run);

/* The stream of that name, NULL if none; cf_run_stream_add creates it if missing. */
cf_stream_t *cf_run_stream(const cf_run_t *run, const char *name);
cf_stream_t *cf_run_stream_add(cf_run_t *run, const char *name);
/* Append a record (text copied). */
void cf_stream_add(cf_stream_t *st, int64_t t_us, int sent, int zlib, int note, const char *text);
/* Printable form of a datagram or a file line: trailing NULs and one trailing newline
 * cut, bytes below 0x20 and from 0x7f as \xHH (keep_tab: a tab stays, as in the text
 * log's lines). Returns a malloc'd string. */
char *cf_printable(const unsigned char *data, size_t len, int keep_tab);
/* Write every stream as text files DIR/LABEL.STREAM.txt ("+T.TTTTTT <text>", "> " for
 * sent). 0 or -1. */
int  cf_run_dump(const cf_run_t *run, const char *dir);

#endif
