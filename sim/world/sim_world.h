/* sim_world.h -- the sim's world: play state, ball and the 22 players (the part the
 * snapshot publishes plus sim-only state: command slots, pending dash, hear capacity),
 * the state the layers above keep in it (the referee's, the coaches', keepaway's), the
 * hooks through which the physics tells the referee (sim_rules_t), and the functions of
 * sim/world/ that work on it. Pure data and pure functions: unit tests build a world from
 * a conf_t and drive it without any shm region. */
#ifndef RCSS_SIM_WORLD_H
#define RCSS_SIM_WORLD_H

#include <stdint.h>
#include <stdio.h>
#include "conf.h"
#include "pitch.h"
#include "rng.h"
#include "shm.h"
#include "sim_ref_state.h"

/* monitor player state flags (docs/protocol/monitor.md §8) */
#define SIM_ST_STAND           0x1u
#define SIM_ST_KICK            0x2u
#define SIM_ST_KICK_FAULT      0x4u
#define SIM_ST_GOALIE          0x8u
#define SIM_ST_CATCH           0x10u
#define SIM_ST_CATCH_FAULT     0x20u
#define SIM_ST_BALL_TO_PLAYER  0x40u
#define SIM_ST_DISCARD         0x100u
#define SIM_ST_BALL_COLLIDE    0x400u
#define SIM_ST_PLAYER_COLLIDE  0x800u
#define SIM_ST_TACKLE          0x1000u
#define SIM_ST_TACKLE_FAULT    0x2000u
#define SIM_ST_POST_COLLIDE    0x10000u
#define SIM_ST_YELLOW_CARD     0x40000u
#define SIM_ST_RED_CARD        0x80000u
#define SIM_ST_BACK_PASS       0x4000u
#define SIM_ST_FREE_KICK_FAULT 0x8000u
#define SIM_ST_FOUL_CHARGED    0x20000u
#define SIM_ST_ILLEGAL_DEFENSE 0x100000u

#define SIM_PENALTY_L      16.5
#define SIM_PENALTY_HALF_W 20.16
#define SIM_GOAL_WAIT      50      /* steps in goal_l/r before the kick-off */
/* a command that places an object (player move, trainer move, monitor dispplayer and
 * dispfoul) keeps it on the pitch plus the reference's 5 m margin */
#define SIM_PLACE_MAX_X    (PITCH_HALF_L + 5.0)
#define SIM_PLACE_MAX_Y    (PITCH_HALF_W + 5.0)

typedef struct sim_ball {
    double x, y, vx, vy;            /* m, m/cycle */
    double ax, ay;                  /* accumulated kick acceleration this cycle */
} sim_ball_t;

typedef struct sim_player {
    shm_player_sh_t sh;             /* published part */
    uint32_t generation;            /* client generation this slot was enabled for */
    int      seen;                  /* 1 once some generation was taken */
    int      body_used;             /* body slot used this cycle */
    int      neck_used;             /* neck slot used this cycle */
    int      leg[2];                /* SIM_LEG_* command of the left, right leg */
    double   dash_pow[2];           /* per leg power (leg SIM_LEG_DASH) */
    double   dash_dir[2];           /* per leg direction, deg */
    double   ax, ay;                /* acceleration for the next integration */
    double   body_next;             /* body angle committed at the step, rad */
    double   neck_next;             /* neck after the step, rad */
    uint32_t cycle_state;           /* SIM_ST_* flags raised this cycle */
    int      hear_cap[2];           /* hear capacity: teammates, opponents */
    int      catch_ban;             /* cycles until catch allowed */
    int      goalie_moves;          /* moves since the last catch */
    double   version;               /* client protocol version (tackle argument meaning) */
} sim_player_t;

/* what a leg was told this cycle (the bipedal dash uses the legs' own slots) */
enum { SIM_LEG_NONE, SIM_LEG_DASH, SIM_LEG_TURN, SIM_LEG_MOVE, SIM_LEG_TACKLE };

typedef void (*sim_emit_fn)(void *ctx, const shm_event_sh_t *ev);

/* What the physics tells the referee, at the moment it happens (docs/protocol/referee.md;
 * offside marks, set plays switching to play_on, last toucher, back pass, catch fault,
 * fouls): one table of hooks that the referee sets (sim_referee_init), so the world calls
 * nothing above it. The physics (sim_kick.c, sim_collide.c) decides whether an action
 * succeeded; the referee decides what it means for the play mode. A world without a
 * referee (rules NULL) tells nobody. */
struct sim_world;
typedef struct sim_rules {
    void (*on_kick)(struct sim_world *w, int idx);            /* successful kick */
    void (*on_tackle)(struct sim_world *w, int idx, int foul); /* successful tackle; foul:
                                                                 the foul flag was given */
    void (*on_failed)(struct sim_world *w, int idx);          /* kick or tackle that missed */
    void (*on_collide)(struct sim_world *w, int idx);         /* player idx hit the ball */
    void (*on_catch)(struct sim_world *w, int idx);           /* goalie idx caught the ball
                                                                 (w->catcher == idx: the
                                                                 referee keeps it held only
                                                                 for the free kick it awards) */
    void (*on_punch)(struct sim_world *w, int idx);           /* catch failed by probability:
                                                                 the ball was punched */
} sim_rules_t;

/* ---- coaches (sim_coach.c): coach-language queue, substitution bookkeeping --------- */
#define SIM_CLANG_QUEUE  64        /* messages waiting per online coach */
#define SIM_CLANG_POOL   65536     /* bytes of their texts per online coach */

typedef struct sim_clang_msg {
    int32_t  recv_time;            /* game cycle the coach said it */
    uint32_t span;                 /* min_ver | max_ver << 8 | type << 16 */
    uint32_t len;                  /* bytes in the pool (messages lie in queue order) */
} sim_clang_msg_t;

typedef struct sim_coach {
    shm_text_t      part[3];       /* long records being assembled: trainer, left, right */
    sim_clang_msg_t q[2][SIM_CLANG_QUEUE]; /* per side, oldest first */
    int             nq[2];
    uint32_t        pool_used[2];
    char            pool[2][SIM_CLANG_POOL];
    uint32_t        dropped;       /* messages refused for lack of room */
    int             subs[2];       /* substitutions counted (after the first kick-off) */
    /* the reference's team bookkeeping, index type + 1 (0: not substituted yet) */
    int             count[2][SHM_MAX_PTYPES + 1]; /* players counted under each type */
    int             used[2][SHM_MAX_PTYPES + 1];  /* how often each type was used */
    int8_t          substituted[SHM_MAX_PLAYERS]; /* type set by a substitution */
    int8_t          joined[SHM_MAX_PLAYERS];      /* counted as a member of its team */
} sim_coach_t;

/* ---- keepaway (sim_keepaway.c) ---------------------------------------------------- */
typedef struct sim_keepaway {
    int      episode;              /* 0 until the first play_on */
    int      keepers, takers;      /* players counted then */
    int      take_time;            /* cycles a taker has had the ball */
    int      start;                /* cycle the running episode began (0 for the first) */
    double   start_s;              /* monotonic seconds of the first step (keepaway_start) */
} sim_keepaway_t;

#define SIM_NOTES_LEN 4096         /* stdout lines of one turn (22 players leaving: ~800 B) */

typedef struct sim_world {
    const conf_t   *conf;
    shm_ptypes_sh_t types;          /* heterogeneous types (copy of the region's) */
    rng_t           rng_move;       /* movement: noise, wind, shuffle, collision angles */
    rng_t           rng_act;        /* actions: turn, dash rotation, kick/tackle noise,
                                       catch and tackle outcomes */
    rng_t           rng_ref;        /* the referee's draws (foul detection, cards, ...) */
    int             play_mode;      /* PM_* */
    int             time;           /* game cycle */
    int             stoppage;       /* stoppage-time counter */
    int             mode_wait;      /* steps spent in the current waiting mode */
    int             score[2], pen_score[2], pen_miss[2];
    char            team[2][SHM_TEAM_NAME_LEN];
    sim_ball_t      ball;
    double          ball_px, ball_py; /* ball position before the last integration */
    sim_player_t    pl[SHM_MAX_PLAYERS];
    int             catcher;        /* index of the goalie holding the ball, -1 none */
    int             last_toucher;   /* index of the last kicker/toucher, -1 none */
    double          action_accel;   /* |acceleration| of the kick or tackle being told to
                                       the referee (on_kick/on_tackle): its rule that the
                                       largest of one cycle's kicks is the last touch */
    double          wind_x, wind_y; /* wind (docs/protocol/physics.md §2), reversed at half time */
    double          wind_rand;      /* its random part; 0: no wind */
    int             n_movable;      /* objects in movable[] */
    int8_t          movable[SHM_MAX_PLAYERS + 1]; /* ball (-1) and every player that ever
                                       joined, in the order the last shuffle left them */
    int             half_cycles;    /* half_time in cycles */
    int             shutdown;       /* a SHUTDOWN command was received */
    uint64_t        steps;          /* sim steps done */
    sim_coach_t     coach;          /* online coaches and substitutions (sim_coach.c) */
    sim_keepaway_t  keepaway;       /* keepaway training (sim_keepaway.c) */
    sim_emit_fn     emit;           /* event sink (shm event ring, or a test's) */
    void           *emit_ctx;
    sim_ref_t       ref;            /* the referee's state (sim_ref_state.h) */
    const sim_rules_t *rules;       /* the referee's hooks (set by sim_referee_init) */
    uint64_t        seed;           /* the seed the world was started with (resets) */
    uint32_t        episode;        /* resets so far (published with each snapshot) */
    int             reset_req;      /* a (reset) was received: the process resets */
    shm_text_t      pl_text[SHM_MAX_PLAYERS]; /* each player's datagram for the text log,
                                       assembled from its parts (sim_world_player_text) */
    char            notes[SIM_NOTES_LEN]; /* stdout lines not printed yet (sim_world_note) */
    size_t          notes_len;
} sim_world_t;

/* the hooks of w->rules, each called when set */
static inline void sim_rules_kick(sim_world_t *w, int idx)
{
    if (w->rules && w->rules->on_kick)
        w->rules->on_kick(w, idx);
}

static inline void sim_rules_tackle(sim_world_t *w, int idx, int foul)
{
    if (w->rules && w->rules->on_tackle)
        w->rules->on_tackle(w, idx, foul);
}

static inline void sim_rules_failed(sim_world_t *w, int idx)
{
    if (w->rules && w->rules->on_failed)
        w->rules->on_failed(w, idx);
}

static inline void sim_rules_collide(sim_world_t *w, int idx)
{
    if (w->rules && w->rules->on_collide)
        w->rules->on_collide(w, idx);
}

static inline void sim_rules_catch(sim_world_t *w, int idx)
{
    if (w->rules && w->rules->on_catch)
        w->rules->on_catch(w, idx);
}

static inline void sim_rules_punch(sim_world_t *w, int idx)
{
    if (w->rules && w->rules->on_punch)
        w->rules->on_punch(w, idx);
}

/* ---- sim_world.c ---- */
void sim_world_init(sim_world_t *w, const conf_t *c, const shm_ptypes_sh_t *types,
                    uint64_t seed);
void sim_world_emit(sim_world_t *w, int kind, int side, int unum, double x, double y,
                    int arg, const char *text, size_t len);
/* An event whose text may exceed one event: SHM_EV_CONT parts first, then kind with the
 * rest (long text-log records, coach messages, runner events). */
void sim_world_emit_text(sim_world_t *w, int kind, int side, int unum, int arg, double x,
                         const char *text, size_t len);
void sim_world_referee_say(sim_world_t *w, const char *text);
/* A line the reference prints on stdout when this happens ("A player disconnected : (T
 * 3)", "rcssserver changes (player T 3) to type 5"): kept until the process prints the
 * turn's lines with sim_world_print_notes (the world does no I/O of its own). */
void sim_world_note(sim_world_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The lines noted so far onto out, then none; out flushed. */
void sim_world_print_notes(sim_world_t *w, FILE *out);
/* A received command's raw text as a text-log event. */
void sim_world_textlog(sim_world_t *w, int side, int unum, const shm_cmd_sh_t *c);
/* A part (SHM_CMD_CONT) or the last part (SHM_CMD_RAW) of player idx's datagram: once
 * whole, the datagram as a text-log event (in parts itself when long), as the reference
 * logs a datagram whole. */
void sim_world_player_text(sim_world_t *w, int idx, const shm_cmd_sh_t *c);
void sim_player_enable(sim_world_t *w, int idx, int side, int unum, int goalie,
                       uint32_t generation);
void sim_player_disable(sim_world_t *w, int idx);
/* Full recovery (docs/protocol/physics.md §3): stamina, recovery 1, effort_max of the type,
 * capacity, hear capacities. */
void sim_player_reset_stamina(sim_world_t *w, sim_player_t *p);
/* Only the stamina capacity (the first extra half). */
void sim_player_refill_capacity(sim_world_t *w, sim_player_t *p);
void sim_player_place_off_pitch(sim_player_t *p);
/* Follow the client table: enable players whose client entry is ACTIVE with a new
 * generation, disable those whose entry is not ACTIVE. The command ring is left alone:
 * a new client's first commands may already be in it (sim_cmd_drain discards what a
 * disabled player's ring holds, so nothing stale survives a cycle). */
void sim_world_sync_clients(sim_world_t *w, const shm_client_sh_t *cl);
/* The team names from the region's team table (the first player of each side named
 * its team; a team not there yet keeps its name). */
void sim_world_sync_teams(sim_world_t *w, const shm_team_sh_t team[2]);
/* After publishing: clear per-cycle flags (kick flag, collisions). */
void sim_world_end_cycle(sim_world_t *w);
/* dst = src, copying of the large buffers (text assembly, the coaches' message pool,
 * the notes) only the part in use: what a checkpoint costs (sim_resume.c). The pointers
 * (conf, emit, rules, the referee's table) are copied as they are. */
void sim_world_copy(sim_world_t *dst, const sim_world_t *src);
/* Deterministic 64-bit digest of the world state (tests, logs). */
uint64_t sim_world_digest(const sim_world_t *w);

/* ---- sim_cmd.c ---- */
/* Apply one command record of player idx (command time: slot rules, immediate effects). */
void sim_cmd_player(sim_world_t *w, int idx, const shm_cmd_sh_t *c);

/* ---- sim_dash.c: a player's dash and stamina (docs/protocol/physics.md §3) ---- */
/* dash direction rate: 1 at 0 deg, side_dash_rate at 90, back_dash_rate at 180 */
double sim_dash_dir_rate(const conf_t *c, double dir_deg);
/* At the step: p's pending leg dashes -> stamina used and acceleration (and the body's
 * rotation with a dashing left leg). */
void   sim_dash_apply(sim_world_t *w, sim_player_t *p);
/* At the end of the step: recovery, effort, stamina and capacity of p. */
void   sim_stamina_step(sim_world_t *w, sim_player_t *p);

/* ---- sim_collide.c ---- */
/* Resolve every overlap of ball and players (docs/protocol/physics.md §8), as after each
 * integration, legal move, trainer or monitor move and successful catch. */
void   sim_collide(sim_world_t *w);

/* ---- sim_move.c ---- */
/* Set the wind from the parameters (wind_none, wind_random, wind_force/dir/rand). */
void   sim_move_wind_init(sim_world_t *w);
/* Half time: the wind vector is reversed (for the referee's half-time call). */
void   sim_move_wind_half_time(sim_world_t *w);
/* A player joins the objects the step moves (at its first enable). */
void   sim_move_add_player(sim_world_t *w, int idx);
/* Shuffle, integrate every enabled object, collide, carry a caught ball. */
void   sim_move_objects(sim_world_t *w);
/* before_kick_off: shuffle, commit angles, players stand still. */
void   sim_move_turn_objects(sim_world_t *w);

/* ---- sim_ptypes.c ---- */
/* Generate conf's player::player_types heterogeneous types (type 0 = defaults) from an
 * MT19937 seeded with seed, exactly as the reference does (docs/protocol/physics.md §9). */
void sim_ptypes_generate(const conf_t *c, uint32_t seed, shm_ptypes_sh_t *out);
/* The types seed, by the reference's rule: player::random_seed when it is >= 0, else
 * the simulator's seed (its low 32 bits, as the reference's int). */
uint32_t sim_ptypes_seed(const conf_t *c, uint64_t sim_seed);
/* 1 if type t lies in the windows and ranges of docs/protocol/physics.md §9. */
int  sim_ptype_valid(const conf_t *c, const shm_ptype_sh_t *t);
/* p's type (type 0 for a number out of the table) */
const shm_ptype_sh_t *sim_player_ptype(const sim_world_t *w, const sim_player_t *p);

/* server::reproducible in synch mode: the same seed and the same commands play the same
 * match whenever the clients' datagrams arrive (sim_cmd_drain, sim_world_first_kick_off) */
int sim_world_reproducible(const sim_world_t *w);

/* With sim_world_reproducible, the first kick-off of the match (time 0): rng_move, rng_act and rng_ref start again
 * from the seed and the movable objects are put back in slot order (the ball first).
 * Before it the sim steps as long as the clients take to join (in synch mode every
 * 50 ms, the wall clock), shuffling the objects and drawing at every step; this way
 * none of that reaches the match, and the same seed plays the same match. */
void sim_world_first_kick_off(sim_world_t *w);

#endif
