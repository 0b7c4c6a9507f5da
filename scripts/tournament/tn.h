/* tn.h -- rcss-tournament: tournaments and sweeps of whole matches, each match run by
 * one command (`rcss-tournament match DIR ID`) that a backend starts on this machine
 * (local), as a Slurm job (slurm) or as a pod of a Kubernetes Indexed Job (k8s). The
 * types shared by its files: the tournament file (tn_spec.c), the schedule and its seeds
 * (tn_sched.c), a match's result (tn_result.c), the standings (tn_standings.c), the plan
 * written into DIR (tn_plan.c), the state file jobs.json (tn_state.c), index.html
 * (tn_html.c), the match runner (tn_match.c), the backends (tn_local.c, tn_slurm.c), the
 * loop that drives them (tn_run.c), the Kubernetes manifests (tn_k8s.c) and small
 * helpers (tn_util.c). scripts/tournament/README.md says how they fit. */
#ifndef RCSS_TN_H
#define RCSS_TN_H

#include <stddef.h>
#include <sys/types.h>
#include <jansson.h>

#define TN_NAME_LEN  16     /* team names: at most 15 characters, as the server takes */
#define TN_ID_LEN    32
#define TN_PATH_LEN  4096
#define TN_DIR_LEN   3072   /* a folder: room left for a file name in TN_PATH_LEN */

/* ---- the tournament file (tn_spec.c) -------------------------------------------------- */
typedef enum {
    TN_FMT_RR,        /* round robin: every pair once */
    TN_FMT_DRR,       /* double round robin: every pair twice, both sides */
    TN_FMT_RR_KO,     /* a round robin, then a knock-out of its best N */
    TN_FMT_SWEEP      /* N matches of A vs B, each with its own seed */
} tn_format_t;

typedef struct tn_team {
    char  name[TN_NAME_LEN];
    char *command;     /* the start command template: {host} {port} {team} {side} ... */
    int   cores;       /* CPUs the team needs (Slurm --cpus-per-task, k8s requests) */
} tn_team_t;

typedef struct tn_spec {
    char        name[64];
    int         nteams;
    tn_team_t  *teams;
    tn_format_t format;
    int         ko_top;          /* TN_FMT_RR_KO: the best N of the round robin (2^k) */
    int         sweep_l, sweep_r, sweep_n;   /* TN_FMT_SWEEP: team indices, matches */
    long long  *sweep_seeds;     /* TN_FMT_SWEEP: given seeds (sweep_n), NULL: derived */
    unsigned long long seed;     /* the base every match's seed is derived from */
    int         synch;           /* server::synch_mode */
    double      half_time;       /* server::half_time (s; 10 cycles a second) */
    int         halves;          /* server::nr_normal_halfs */
    int         extra_halves;    /* knock-out matches: server::nr_extra_halfs */
    int         game_log, text_log;
    char        bind[64];        /* server::bind_address ("" all interfaces) */
    char      **params;          /* more server arguments, "server::name=value" */
    int         nparams;
    int         timeout_s;       /* a match still running after this is stopped */
    int         retries;         /* resubmissions of a failed match */
    char        k8s_image[256], k8s_claim[128], k8s_namespace[64];
    char       *text;            /* the file as read */
} tn_spec_t;

/* Parse a tournament file. 0, or -1 with a one-line reason in err. */
int  tn_spec_load(const char *path, tn_spec_t *s, char *err, size_t errlen);
int  tn_spec_parse(const char *text, tn_spec_t *s, char *err, size_t errlen);
void tn_spec_free(tn_spec_t *s);
int  tn_spec_team(const tn_spec_t *s, const char *name);   /* index or -1 */
const char *tn_format_name(tn_format_t f);

/* ---- the schedule (tn_sched.c) ---------------------------------------------------------- */
typedef struct tn_match {
    char id[TN_ID_LEN];      /* r01-m02 (round robin), ko1-m1 (knock-out), s0001 (sweep) */
    int  round;              /* 1.. over the whole tournament */
    int  index;              /* 0.. within its round (the k8s completion index) */
    int  ko;                 /* 0 round robin or sweep, k: knock-out round k */
    int  left, right;        /* team indices, -1 while not known (knock-out) */
    char from_l[32], from_r[32];  /* knock-out: "seed 1", "winner of ko1-m2" */
    int  seed;               /* server::random_seed */
} tn_match_t;

typedef struct tn_sched {
    tn_match_t *m;
    int         n;
    int         rounds;       /* all rounds */
    int         group_rounds; /* rounds of the round robin (or the sweep's 1) */
} tn_sched_t;

/* Every match of the tournament, knock-out ones with unknown teams. 0 or -1. */
int  tn_sched_build(const tn_spec_t *s, tn_sched_t *out);
void tn_sched_free(tn_sched_t *t);
tn_match_t *tn_sched_find(tn_sched_t *t, const char *id);
tn_match_t *tn_sched_at(tn_sched_t *t, int round, int index);
/* The seed of match id under a base seed: 1..2^31-1, the same on any machine. */
int  tn_seed(unsigned long long base, const char *id);
/* Seed order of a knock-out bracket of n (2^k) teams: order[2j] meets order[2j+1]. */
void tn_bracket_order(int n, int *order);

/* ---- a match's result (tn_result.c) ----------------------------------------------------- */
typedef struct tn_outcome {
    int  valid;              /* ended normally with the expected teams on their sides */
    char why[160];           /* not valid: why */
    int  score[2], pen[2];
    int  winner;             /* 0 left, 1 right, -1 none (a draw) */
    int  forfeit;            /* side that forfeited, -1 none */
    char reason[32];         /* exit_reason */
    char rcg[256], rcl[256]; /* the logs' file names (in the match's directory) */
} tn_outcome_t;

/* Read DIR/matches/ID/result.json, expecting lname on the left, rname on the right
 * (NULL: any). 0 read (o->valid says whether it counts), -1 missing or unreadable. */
int  tn_outcome_read(const char *path, const char *lname, const char *rname, tn_outcome_t *o);

/* ---- standings (tn_standings.c) --------------------------------------------------------- */
typedef struct tn_row {
    char name[TN_NAME_LEN];
    int  played, won, drawn, lost, goals_for, goals_against, points;
} tn_row_t;

/* Count one match into rows (indices l and r). */
void tn_standings_add(tn_row_t *rows, int l, int r, const tn_outcome_t *o);
/* Points, then goal difference, then goals for, then name. */
void tn_standings_sort(tn_row_t *rows, int n);
/* The standings of the round robin (or sweep) from the result.json files in dir. */
void tn_standings_compute(const tn_spec_t *s, const tn_sched_t *t, const char *dir, tn_row_t *rows);

/* ---- the plan in DIR (tn_plan.c) -------------------------------------------------------- */
/* Fill in the knock-out matches whose teams are known from the results in dir. */
void tn_plan_resolve(const tn_spec_t *s, tn_sched_t *t, const char *dir);
/* The match's outcome from dir (1 valid result, 0 none yet or not valid). */
int  tn_plan_outcome(const tn_spec_t *s, const tn_match_t *m, const char *dir, tn_outcome_t *o);
/* DIR/matches/ID/match.json: everything `rcss-tournament match` needs. 0 or -1. */
int  tn_plan_write_match(const tn_spec_t *s, const tn_match_t *m, const char *dir);
/* CPUs the match needs: 1 for the server plus each team's cores. */
int  tn_plan_cpus(const tn_spec_t *s, const tn_match_t *m);
/* The knock-out's winner (team index) once its final is played, else -1. */
int  tn_plan_champion(const tn_spec_t *s, const tn_sched_t *t, const char *dir);
/* DIR/standings.json. 0 or -1. */
int  tn_plan_write_standings(const tn_spec_t *s, const tn_sched_t *t, const char *dir);

/* ---- the state file DIR/jobs.json (tn_state.c) ------------------------------------------ */
typedef struct tn_job {
    char id[TN_ID_LEN];
    char job[32];            /* backend's handle: Slurm job id, local pid; "" none */
    char backend[8];         /* "local" or "slurm" */
    int  attempts;           /* starts so far */
    int  active;             /* started and not yet seen finished */
    char reasons[512];       /* why earlier attempts failed, "; "-separated */
} tn_job_t;

typedef struct tn_state {
    tn_job_t *j;
    int       n, cap;
} tn_state_t;

int       tn_state_load(const char *path, tn_state_t *st);   /* missing file: empty, 0 */
int       tn_state_save(const char *path, const tn_state_t *st);
tn_job_t *tn_state_get(tn_state_t *st, const char *id, int create);
void      tn_state_free(tn_state_t *st);
void      tn_job_fail(tn_job_t *j, const char *reason);      /* append a reason */

/* ---- index.html (tn_html.c) ------------------------------------------------------------- */
int  tn_html_write(const tn_spec_t *s, const tn_sched_t *t, const tn_state_t *st, const char *dir);

/* ---- the match runner (tn_match.c) ------------------------------------------------------ */
/* Run DIR/matches/ID per its match.json: the server, both teams, until the server ends.
 * The server's exit status (or 128+signal, 124 on the timeout, 1 on a setup error). */
int  tn_match_run(const char *dir, const char *id);
/* Fill a command template: {host} {port} {coach_port} {olcoach_port} {team} {side}
 * {bindir} {seed} {dir}. vals[k] is the value of names[k]. Returns a malloc'd string. */
char *tn_fill(const char *tmpl, const char *const *names, const char *const *vals, int n);

/* ---- backends (tn_local.c, tn_slurm.c) and the loop (tn_run.c) -------------------------- */
typedef struct tn_ctx {
    const tn_spec_t *spec;
    const char      *dir;      /* absolute */
    const char      *self;     /* absolute path of rcss-tournament */
} tn_ctx_t;

typedef struct tn_backend {
    const char *name;
    int         capacity;      /* matches at once, 0 unlimited */
    /* start a match: fill j->job; 0 or -1 (reason in err) */
    int  (*start)(struct tn_backend *b, const tn_ctx_t *c, const tn_match_t *m, tn_job_t *j,
                  char *err, size_t errlen);
    /* for every active job: 1 still running, 0 finished (why, e.g. "exit 0", "CANCELLED"),
     * in running[k] / why[k] */
    int  (*poll)(struct tn_backend *b, const tn_ctx_t *c, tn_job_t **jobs, int n,
                 int *running, char (*why)[96]);
    void (*stop_all)(struct tn_backend *b, tn_job_t **jobs, int n);   /* interrupted */
    void *priv;
} tn_backend_t;

void tn_local_init(tn_backend_t *b, int parallel);
void tn_slurm_init(tn_backend_t *b, int parallel);
/* Slurm job state words, as squeue/scontrol/sacct print them: 1 if the job is over. */
int  tn_slurm_state_over(const char *state);

typedef struct tn_run_opts {
    int  retry_failed;          /* start failed matches again */
    int  quiet;
} tn_run_opts_t;

/* Run (or resume) the tournament in dir with backend b. 0 every match done, 1 some
 * failed, 2 setup error, 130 interrupted. */
int  tn_run(const tn_spec_t *s, const char *dir, tn_backend_t *b, const tn_run_opts_t *o);

/* ---- Kubernetes (tn_k8s.c) -------------------------------------------------------------- */
/* The Indexed Job of round r (1..), a new reference. */
json_t *tn_k8s_job(const tn_spec_t *s, const tn_sched_t *t, int round);
json_t *tn_k8s_configmap(const tn_spec_t *s);
/* Write every manifest into outdir (NULL: a List on stdout). 0 or -1. */
int  tn_k8s_write(const tn_spec_t *s, const char *outdir);

/* ---- helpers (tn_util.c) ---------------------------------------------------------------- */
char  *tn_read_file(const char *path, size_t *len);            /* malloc'd, NUL-ended */
int    tn_write_atomic(const char *path, const char *text);     /* tmp file + rename */
int    tn_write_json(const char *path, json_t *j);              /* the same, indented */
int    tn_mkdirs(const char *path);
int    tn_exists(const char *path);
double tn_now(void);                                           /* s, monotonic */
unsigned long long tn_fnv1a(const char *s);
/* path of a file in DIR/matches/ID ("" name: the folder) */
void   tn_match_path(char *out, size_t len, const char *dir, const char *id, const char *name);
/* Run argv, its stdout into out (NUL-ended, truncated); the exit status, -1 failure. */
int    tn_capture(const char *const *argv, char *out, size_t len);

#endif
