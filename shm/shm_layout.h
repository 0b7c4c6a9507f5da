/* shm_layout.h -- the whole contract between the processes of one match.
 * Writer of each part is named on it: sim owns the world (snapshots, events, params);
 * netgw owns its clients' entries and fills command rings; monitorgw owns the monitor
 * table and its control ring. Types and constants only; code is in shm_*.c.
 * Bump SHM_LAYOUT_VERSION on any change to a _sh_t below (test/shm/test_layout.c pins
 * every size and offset, so a change without a bump fails the tests). */
#ifndef RCSS_SHM_LAYOUT_H
#define RCSS_SHM_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>
#include <pthread.h>
#include <semaphore.h>

#define SHM_MAGIC           0x52435357u     /* "RCSW" */
#define SHM_LAYOUT_VERSION  11u

/* ---- sizes ---------------------------------------------------------------------- */
#define SHM_MAX_GATEWAYS    16      /* netgw processes (server::netgw_processes) */
#define SHM_TEAM_SIZE       11
#define SHM_MAX_PLAYERS     22      /* index = side_index * 11 + unum - 1 */
#define SHM_COACH_TRAINER   22      /* client index of the trainer (offline coach) */
#define SHM_COACH_LEFT      23      /* client index of the left online coach */
#define SHM_COACH_RIGHT     24      /* client index of the right online coach */
#define SHM_MAX_CLIENTS     25      /* 22 players + trainer + 2 online coaches */
#define SHM_MAX_MONITORS    8192    /* monitor table entries (takeover after a monitorgw
                                       restart); monitorgw serves more without an entry */
#define SHM_SNAP_SLOTS      64      /* snapshot ring: last K published steps */
#define SHM_EVENT_SLOTS     4096    /* event ring (power of two) */
#define SHM_CMD_SLOTS       64      /* per-client command ring (power of two) */
#define SHM_CTRL_SLOTS      256     /* control ring per producer (power of two) */
#define SHM_MONREQ_SLOTS    512     /* monitor-init hand-over ring per netgw (power of two) */
#define SHM_MAX_PTYPES      32      /* heterogeneous player types (player::player_types <= 32) */
#define SHM_MAX_PARAMS      320     /* parameter slots, indexed by param_id_t */
#define SHM_PARAM_STR_LEN   256     /* string parameter value, NUL-terminated */
#define SHM_TEAM_NAME_LEN   16      /* 15 chars + NUL */
#define SHM_CMD_TEXT_LEN    216     /* text carried by one command record */
#define SHM_EVENT_TEXT_LEN  232     /* text carried by one event */
#define SHM_NAME_LEN        64      /* shm object name "/rcssserver-6000" */
#define SHM_TEXT_MAX        16384   /* longest text carried in parts (records or events) */
#define SHM_STATE_BYTES     (640 * 1024) /* one copy of the sim's match state (resume) */
#define SHM_RESUME_PROGRESS 20      /* steps a new sim must publish before it counts as
                                       having taken the match over for good */

/* ---- header: offsets 0 and 4 never move ----------------------------------------- */
typedef struct shm_header_sh {
    uint32_t          magic;            /* SHM_MAGIC; offset 0 forever */
    uint32_t          layout_version;   /* SHM_LAYOUT_VERSION; offset 4 forever */
    uint64_t          region_size;      /* bytes; attach refuses another size */
    uint32_t          header_size;      /* sizeof(shm_header_sh_t) */
    uint32_t          params_hash;      /* param_table_hash() of the writer */
    int32_t           sim_pid;          /* pid of the sim that created the region */
    uint32_t          n_gateways;       /* netgw processes configured */
    _Atomic uint32_t  ready;            /* 1 once sim filled params and types */
    _Atomic uint32_t  shutdown;         /* 1: every process exits */
    _Atomic uint64_t  published;        /* snapshots published; newest slot (published-1) % K */
    int64_t           epoch_ns;         /* CLOCK_MONOTONIC ns of step 0 */
    int64_t           step_ns;          /* real-time step length (simulator_step * slow_down) */
    uint64_t          random_seed;      /* seed the sim runs with */
    sem_t             done_sem;         /* the sim's wake-up: posted on a (done) it waits
                                           for, a join, and a command to apply at once */
    pthread_mutex_t   table_lock;       /* robust, process-shared: teams + client table */
    _Atomic int32_t   table_lock_owner; /* pid holding table_lock, 0 if free */
    _Atomic uint32_t  players_now;      /* 1: a player joined, left, or said what someone
                                           hears at once (a coach, the trainer, a v1-v7
                                           player): the sim takes the client table and the
                                           players' rings before the step (netgw sets it
                                           and posts done_sem) */
    char              name[SHM_NAME_LEN]; /* the shm object name */
    uint64_t          instance_id;      /* random id of this sim run; gateways it spawns
                                           are given it and refuse a region without it */
    uint64_t          sim_start;        /* the sim's start time (field 22 of
                                           /proc/PID/stat, clock ticks after boot): with
                                           sim_pid it names the live sim (pid reuse) */
    _Atomic uint64_t  live_pub;         /* publishes of the region's `live` world (below) */
    /* a sim that dies is replaced and the match goes on (docs/ARCHITECTURE.md "A killed
     * sim"): written by the sim that takes the match over */
    _Atomic uint32_t  sim_restarts;     /* sims that took this match over from a dead one */
    _Atomic uint32_t  resume_tries;     /* sims started on this match since the last one
                                           that got SHM_RESUME_PROGRESS steps done */
    uint32_t          resume_wait_ms;   /* server::resume_wait_ms, 0 with resume off: how
                                           long a gateway waits for a new sim */
    int32_t           super_pid;        /* the supervisor that restarts the sim (the
                                           rcssserver started by hand), 0 none (systemd) */
    uint64_t          super_start;      /* its start time (as sim_start) */
} shm_header_sh_t;

/* ---- parameters: written once by sim before ready=1 ------------------------------ */
typedef struct shm_params_sh {
    uint32_t count;                                    /* PARAM_COUNT of the writer */
    uint32_t _pad0;
    double   num[SHM_MAX_PARAMS];                      /* conf_t.num */
    char     str[SHM_MAX_PARAMS][SHM_PARAM_STR_LEN];   /* conf_t.str */
} shm_params_sh_t;

typedef struct shm_ptype_sh {
    double player_speed_max;       /* m/cycle */
    double stamina_inc_max;
    double player_decay;
    double inertia_moment;
    double dash_power_rate;
    double player_size;            /* m */
    double kickable_margin;        /* m */
    double kick_rand;
    double extra_stamina;
    double effort_max;
    double effort_min;
    double kick_power_rate;
    double foul_detect_probability;
    double catchable_area_l_stretch;
    double unum_far_length;        /* m; v18 observation fields from here */
    double unum_too_far_length;
    double team_far_length;
    double team_too_far_length;
    double player_max_observation_length;
    double ball_vel_far_length;
    double ball_vel_too_far_length;
    double ball_max_observation_length;
    double flag_chg_far_length;
    double flag_chg_too_far_length;
    double flag_max_observation_length;
    double dist_noise_rate;        /* v19 gaussian noise rates */
    double focus_dist_noise_rate;
    double land_dist_noise_rate;
    double land_focus_dist_noise_rate;
    double _spare[3];
} shm_ptype_sh_t;

typedef struct shm_ptypes_sh {
    uint32_t       count;                       /* player::player_types */
    uint32_t       _pad0;
    shm_ptype_sh_t type[SHM_MAX_PTYPES];
} shm_ptypes_sh_t;

/* ---- world snapshot: written by sim, one per step -------------------------------- */
#define SHM_SIDE_NONE   0
#define SHM_SIDE_LEFT   1
#define SHM_SIDE_RIGHT  (-1)

/* counters in the order of the monitor show line */
enum {
    SHM_CNT_KICK, SHM_CNT_DASH, SHM_CNT_TURN, SHM_CNT_CATCH, SHM_CNT_MOVE,
    SHM_CNT_TURN_NECK, SHM_CNT_CHANGE_VIEW, SHM_CNT_SAY, SHM_CNT_TACKLE,
    SHM_CNT_POINTTO, SHM_CNT_ATTENTIONTO, SHM_CNT_CHANGE_FOCUS, SHM_CNT_N
};

/* collision flags (sense_body v12+) */
#define SHM_COLL_BALL    0x1u
#define SHM_COLL_PLAYER  0x2u
#define SHM_COLL_POST    0x4u

/* view width codes (client table and snapshot) */
#define SHM_VIEW_NARROW  0
#define SHM_VIEW_NORMAL  1
#define SHM_VIEW_WIDE    2

typedef struct shm_ball_sh {
    double x, y;                   /* m */
    double vx, vy;                 /* m/cycle */
} shm_ball_sh_t;

typedef struct shm_player_sh {
    int8_t   enabled;              /* 1 connected and on the field */
    int8_t   side;                 /* SHM_SIDE_LEFT / SHM_SIDE_RIGHT */
    int8_t   unum;                 /* 1..11 */
    int8_t   goalie;               /* 1 goalie */
    int8_t   view_width;           /* SHM_VIEW_* */
    int8_t   view_high;            /* 1 high quality, 0 low */
    int8_t   synch_see;            /* 1 in synch-see mode */
    int8_t   card;                 /* 0 none, 1 yellow, 2 red */
    int32_t  type;                 /* heterogeneous type id */
    uint32_t state;                /* monitor state flags (STAND 0x1, KICK 0x2, ...) */
    uint32_t collision;            /* SHM_COLL_* since previous sense_body */
    double   x, y;                 /* m */
    double   vx, vy;               /* m/cycle */
    double   body;                 /* rad, absolute */
    double   neck;                 /* rad, relative to body */
    double   stamina, effort, recovery, capacity;
    double   focus_dist;           /* m */
    double   focus_dir;            /* rad, relative to face */
    double   point_x, point_y;     /* m, global pointto target (valid if arm_expires > 0) */
    int32_t  arm_movable;          /* cycles until pointto allowed */
    int32_t  arm_expires;          /* cycles until pointing stops */
    int8_t   focus_side;           /* attentionto target side, 0 none */
    int8_t   focus_unum;           /* attentionto target unum */
    int8_t   kicked;               /* issued a kick in the previous cycle (see flag k) */
    int8_t   _pad0;
    int32_t  tackle_expires;       /* cycles of tackle freeze left */
    int32_t  foul_charged;         /* cycles of foul freeze left */
    uint32_t count[SHM_CNT_N];     /* command counters */
} shm_player_sh_t;

typedef struct shm_snapshot_sh {
    _Atomic uint64_t seq;          /* seqlock: odd while sim writes, even when stable */
    uint64_t step;                 /* sim steps since start (1-based publish number) */
    int64_t  publish_ns;           /* CLOCK_MONOTONIC ns when published */
    int32_t  time;                 /* game cycle shown to clients */
    int32_t  stoppage;             /* stoppage-time counter */
    int32_t  play_mode;            /* PM_* index (monitor protocol table) */
    int32_t  score[2];             /* left, right */
    int32_t  pen_score[2];
    int32_t  pen_miss[2];
    int32_t  catcher;              /* player index + 1 of the goalie holding the ball, 0 none */
    char     team[2][SHM_TEAM_NAME_LEN]; /* "" if no team */
    uint64_t event_head;           /* events up to (excluding) this seq belong to <= this step */
    shm_ball_sh_t   ball;
    shm_player_sh_t player[SHM_MAX_PLAYERS];
    uint32_t episode;              /* trainer/admin resets before this step (0: the
                                      match as started); a change starts a new episode */
    int32_t  pen_coin;             /* side that won the shoot-out's coin toss, 0 none (the
                                      "w" of the log names, docs/protocol/logs.md §4) */
    int64_t  grid_ns;              /* CLOCK_MONOTONIC ns this step was due on the sim's
                                      timer grid (real time; late steps move the grid) */
    uint64_t poll;                 /* the timer poll of this step (common/tgrid.h): the
                                      step was due at poll * 10 ms on the sim's clock */
} shm_snapshot_sh_t;

/* ---- event ring: single producer sim, many readers ------------------------------- */
enum {
    SHM_EV_NONE,
    SHM_EV_REFEREE,       /* text = referee message; everyone hears it */
    SHM_EV_SAY,           /* player say: side, unum, x, y; text = message */
    SHM_EV_COACH_SAY,     /* online coach freeform: side; text */
    SHM_EV_TRAINER_SAY,   /* trainer say: text */
    SHM_EV_CLANG,         /* online coach clang released: side; text */
    SHM_EV_CHANGE_TYPE,   /* side, unum, arg = type (-1 = made goalie) */
    SHM_EV_TEXTLOG,       /* a line for the text log: text; side/unum of the sender
                             (unum 0: the online coach of side, side 0 too: the trainer) */
    SHM_EV_MSG,           /* message for monitors/game log: arg = board; text */
    SHM_EV_CONT,          /* the next part of the following event's text (see below) */
    SHM_EV_COACH_REPLY,   /* a reply decided by the sim for a coach: side (0 trainer); text */
    SHM_EV_TEAM_GRAPHIC,  /* online coach tile: side; text = "X Y \"xpm\" \"xpm\" ..." */
    SHM_EV_PLAYER_REPLY,  /* a reply decided by the sim for one player: side, unum; text
                             ("(error too_many_moves)", "(warning moving_to_opponent_field)") */
    SHM_EV_RUNNER,        /* a runner event: text = one JSON object (the NDJSON line without
                             its newline; may come in parts); for the /match/events stream */
    SHM_EV_ACK,           /* the sim applied a coach's or a control ring's record: side 0 =
                             client ring (unum = client index), 1 = control ring (unum =
                             netgw index, SHM_MAX_GATEWAYS = monitorgw); arg = the ring
                             position after the record (its producer's head once pushed) */
    SHM_EV_KEEPAWAY       /* keepaway training, for the .kwy log: arg 0 = the first play_on
                             (x keepers, y takers); arg N >= 1 = episode N ended (x its start
                             cycle, y its end cycle; text "o" ball out, "t" taken) */
};
/* SHM_EV_CLANG: side; arg = min_ver | max_ver << 8 | type << 16 (clang.h); x = the
 * receive time; text = the canonical message. Texts longer than one event travel as
 * SHM_EV_CONT events (each the next part) followed by the event itself with the last
 * part; the sim writes them consecutively (shm_text_feed assembles them). */

typedef struct shm_event_sh {
    _Atomic uint64_t seq;          /* ring position + 1 once complete; 0 empty */
    int32_t  kind;                 /* SHM_EV_* */
    int32_t  time;                 /* game cycle when emitted */
    int8_t   side;                 /* SHM_SIDE_* of the sender, 0 if none */
    int8_t   unum;
    int16_t  len;                  /* bytes of text used */
    int32_t  arg;
    double   x, y;                 /* m, sender position (say) */
    char     text[SHM_EVENT_TEXT_LEN];
    int32_t  stoppage;             /* stoppage-time counter when emitted (text log) */
    int32_t  _pad1;
} shm_event_sh_t;

typedef struct shm_event_ring_sh {
    _Atomic uint64_t head;         /* next sequence to write (sim only) */
    uint64_t         _pad0;
    shm_event_sh_t   ev[SHM_EVENT_SLOTS];
} shm_event_ring_sh_t;

/* ---- command records: gateway -> sim ---------------------------------------------- */
enum {
    SHM_CMD_NONE,
    SHM_CMD_DASH,         /* d[0] power, d[1] dir deg; i = 1 plain; bipedal: i = 2,
                             d[0..1] left power/dir, d[2..3] right power/dir, flags bit0 l, bit1 r */
    SHM_CMD_TURN,         /* d[0] moment deg */
    SHM_CMD_TURN_NECK,    /* d[0] angle deg */
    SHM_CMD_MOVE,         /* d[0] x, d[1] y (side-relative) */
    SHM_CMD_KICK,         /* d[0] power, d[1] dir deg */
    SHM_CMD_CATCH,        /* d[0] dir deg */
    SHM_CMD_TACKLE,       /* d[0] power-or-dir, i = foul flag */
    SHM_CMD_SAY,          /* text */
    SHM_CMD_POINTTO,      /* d[0] dist, d[1] dir deg; i = 1 for off */
    SHM_CMD_ATTENTIONTO,  /* i = side (0 off), flags = unum */
    SHM_CMD_CHANGE_FOCUS, /* d[0] ddist, d[1] ddir deg */
    SHM_CMD_CHANGE_VIEW,  /* i = width; flags bit0 low asked, bit1 one-argument form (the
                             focus kept within the width); the view is in the client table */
    SHM_CMD_BYE,          /* player/coach left */
    SHM_CMD_RAW,          /* raw received text for the text log (text, may be cut) */
    /* control ring: monitors and trainer */
    SHM_CMD_START,        /* kick-off / next half */
    SHM_CMD_CHANGE_MODE,  /* i = play mode */
    SHM_CMD_MOVE_BALL,    /* d[0..3] x y vx vy, flags bit0 has velocity */
    SHM_CMD_MOVE_PLAYER,  /* i = side, flags = unum, d[0..4] x y ang vx vy, flags>>8 bits what given;
                             flag bit 13: keep the velocity when none is given (trainer) */
    SHM_CMD_FOUL,         /* d[0..1] x y, i = side (0 drop ball) */
    SHM_CMD_DISCARD,      /* i = side, flags = unum */
    SHM_CMD_CARD,         /* i = side, flags = unum | card << 8 */
    SHM_CMD_RECOVER,
    SHM_CMD_CHANGE_TYPE,  /* i = side, flags = unum, d[0] = type */
    SHM_CMD_COACH_SAY,    /* text */
    SHM_CMD_SHUTDOWN,
    /* coach rings */
    SHM_CMD_CONT,         /* the next part of the following record's text (see below) */
    SHM_CMD_CLANG,        /* online coach say: i = min_ver | max_ver << 8, flags = type; text */
    SHM_CMD_GOALIE,       /* online coach: make flags = unum the goalie */
    SHM_CMD_TEAM_GRAPHIC, /* online coach tile: text = "X Y \"xpm\" ..." */
    SHM_CMD_RESET         /* trainer / operator: the match back to its start (clock,
                             score, positions, stamina, seed); a new episode */
};
/* A text longer than one record travels as SHM_CMD_CONT records (each the next part)
 * followed by the record itself with the last part, pushed consecutively and all or
 * nothing (shm_cmd_push_text). Coach rings: SHM_CMD_CHANGE_TYPE from an online coach
 * applies the substitution rules (flags = unum, d[0] = type). */

typedef struct shm_cmd_sh {
    uint16_t kind;                 /* SHM_CMD_* */
    uint16_t len;                  /* bytes of text used */
    int32_t  i;                    /* integer argument */
    uint32_t flags;                /* small extra arguments */
    uint32_t recv_time;            /* game cycle when received */
    double   d[5];                 /* real arguments */
    char     text[SHM_CMD_TEXT_LEN];
} shm_cmd_sh_t;

/* single producer (owning gateway) / single consumer (sim) */
typedef struct shm_cmd_ring_sh {
    _Atomic uint32_t head;         /* next slot to write (producer) */
    uint32_t         _pad0[15];    /* keep head and tail on their own cache lines */
    _Atomic uint32_t tail;         /* next slot to read (consumer) */
    uint32_t         dropped;      /* records refused because the ring was full (producer) */
    uint32_t         _pad1[14];
    shm_cmd_sh_t     slot[SHM_CMD_SLOTS];
} shm_cmd_ring_sh_t;

typedef struct shm_ctrl_ring_sh {
    _Atomic uint32_t head;
    uint32_t         _pad0[15];
    _Atomic uint32_t tail;
    uint32_t         dropped;
    uint32_t         _pad1[14];
    shm_cmd_sh_t     slot[SHM_CTRL_SLOTS];
} shm_ctrl_ring_sh_t;

/* ---- clients: players and coaches; written by the owning netgw under table_lock --- */
#define CLIENT_ST_FREE     0u
#define CLIENT_ST_ACTIVE   1u
#define CLIENT_ST_CLOSING  2u

#define CLIENT_KIND_PLAYER   1
#define CLIENT_KIND_TRAINER  2
#define CLIENT_KIND_OLCOACH  3

typedef struct shm_client_sh {
    _Atomic uint32_t state;        /* CLIENT_ST_* */
    int32_t  kind;                 /* CLIENT_KIND_* */
    int32_t  owner_gw;             /* netgw index that serves it */
    uint32_t generation;           /* bumped at every (re)connection */
    uint8_t  addr[16];             /* client IPv4 (first 4 bytes) or IPv6, network order */
    int32_t  family;               /* AF_INET / AF_INET6 */
    uint16_t port;                 /* client UDP port, host order */
    uint16_t local_port;           /* our per-client socket port, host order */
    double   version;              /* protocol version as sent (9.0, 19.0) */
    int32_t  side;                 /* SHM_SIDE_* */
    int32_t  unum;                 /* 1..11 for players, 0 coaches */
    int32_t  goalie;               /* 1 goalie */
    int32_t  view_width;           /* SHM_VIEW_* */
    int32_t  view_high;            /* 1 high, 0 low */
    int32_t  synch_see;            /* 1 synch-see mode */
    int32_t  gaussian_see;         /* 1 gaussian noise mode */
    int32_t  compression;          /* zlib level + 1 (1..10) while compressed, 0 plain text */
    int32_t  ear_on[2];            /* complete hearing of our/opp team */
    int32_t  ear_partial[2];       /* partial hearing of our/opp team */
    int32_t  clang_min, clang_max; /* supported CLang versions (0 unknown) */
    int32_t  eye_on;               /* coaches: periodic see_global */
    int32_t  trainer_ear;          /* trainer: hear everything */
    _Atomic uint64_t done_step;    /* synch mode: step for which (done) was last sent */
    int64_t  last_recv_ns;         /* CLOCK_MONOTONIC ns of the last datagram */
    char     coach_name[SHM_TEAM_NAME_LEN]; /* online coach name, "" if none */
    uint8_t  reconnect_token[16];  /* players with server::reconnect_token: the secret
                                      the init reply carried (hex); all zero: none */
} shm_client_sh_t;

typedef struct shm_team_sh {
    int32_t used;                  /* 1 once a player of the team connected */
    int32_t joined;                /* players that joined with (init): the next one is
                                      number joined + 1 (a reconnect does not count) */
    char    name[SHM_TEAM_NAME_LEN];
} shm_team_sh_t;

/* ---- monitors: written by monitorgw ----------------------------------------------- */
typedef struct shm_monitor_sh {
    _Atomic uint32_t state;        /* CLIENT_ST_* */
    int32_t  version;              /* monitor protocol: 1..5, -1 JSON */
    uint8_t  addr[16];
    int32_t  family;
    uint16_t port;                 /* monitor's port */
    uint16_t local_port;           /* our per-monitor socket port */
    uint64_t skipped;              /* frames dropped because the monitor was slow */
    int32_t  zlevel;               /* (compression N) level in force, -1 plain */
    uint32_t _pad0;
} shm_monitor_sh_t;

/* where the monitor table is in use; written by monitorgw, read by netgw */
typedef struct shm_montab_sh {
    _Atomic uint32_t hwm;          /* entries [0, hwm) may be ACTIVE; the rest are FREE */
    _Atomic uint32_t count;        /* monitors served, with or without a table entry */
    _Atomic int64_t  oldest_recv_ns; /* while the table is full (server::max_monitors): the
                                      last datagram (CLOCK_MONOTONIC ns) of the monitor
                                      silent for longest, else 0; netgw hands a new
                                      dispinit over only if that one may be replaced */
} shm_montab_sh_t;

/* netgw hands a (dispinit ...) that reached the player port over to monitorgw */
typedef struct shm_monreq_sh {
    uint8_t  addr[16];
    int32_t  family;
    uint16_t port;
    uint16_t _pad0;
    char     text[120];            /* the datagram as received, NUL-terminated */
} shm_monreq_sh_t;

typedef struct shm_monreq_ring_sh {
    _Atomic uint32_t head;
    uint32_t         _pad0[15];
    _Atomic uint32_t tail;
    uint32_t         dropped;
    uint32_t         _pad1[14];
    shm_monreq_sh_t  slot[SHM_MONREQ_SLOTS];
} shm_monreq_ring_sh_t;

/* ---- processes ---------------------------------------------------------------------- */
#define PROC_ST_EMPTY    0u
#define PROC_ST_RUNNING  1u
#define PROC_ST_EXITED   2u

typedef struct shm_proc_sh {
    _Atomic int32_t  pid;          /* current process, 0 if none */
    _Atomic uint32_t state;        /* PROC_ST_* */
    _Atomic uint32_t restarts;     /* times the sim restarted it */
    uint32_t         _pad0;
    _Atomic int64_t  heartbeat_ns; /* CLOCK_MONOTONIC ns of its last loop turn */
    _Atomic uint64_t last_step;    /* last snapshot step it handled */
    _Atomic uint64_t resets;       /* times it skipped snapshots or events (fell behind) */
    sem_t            cycle_sem;    /* posted by sim once per published snapshot; monitorgw's
                                      also by a netgw after each monreq push (wakes it) */
    shm_ctrl_ring_sh_t   ctrl;     /* trainer / monitor commands to sim */
    shm_monreq_ring_sh_t monreq;   /* netgw: monitor inits for monitorgw */
} shm_proc_sh_t;

/* ---- online coaches' allowances: written by the netgw serving that team's coach, kept
 * over reconnects and gateway restarts (the reference keeps them per team) ---------- */
typedef struct shm_coach_sh {
    int32_t  clang_window;         /* coach-language window the allowances belong to + 1;
                                      0 none yet */
    int32_t  freeform_said;        /* freeform messages said this game */
    int32_t  clang_left[8];        /* coach-language messages left in the window, by
                                      message type - 1 (netgw/clang/clang.h) */
} shm_coach_sh_t;

/* ---- recorder: written by rcss-recorder ------------------------------------------------ */
/* Where the log files on disk end, in the writer's terms: a restarted recorder truncates
 * the files to these sizes and goes on from these positions with this writer state. The
 * recorder fills the copy cur does not name after each flush and then flips cur, so a
 * recorder killed at any moment leaves one consistent copy. */
typedef struct shm_rec_state_sh {
    uint64_t snap_next;            /* next snapshot (publish number) to handle */
    uint64_t ev_next;              /* next event sequence to handle */
    uint64_t game_bytes;           /* game log bytes on disk in this state */
    uint64_t text_bytes;           /* text log bytes on disk in this state */
    int32_t  valid;                /* 1 once the files exist with their headers */
    int32_t  pm;                   /* play mode of the last (playmode) written, -1 none */
    int32_t  prev_pm;              /* play mode of the last snapshot handled */
    int32_t  time_over_shown;      /* the single time_over show was written */
    int32_t  score[2];             /* the last (team) line written: scores, */
    int32_t  pen_taken[2];         /* penalties taken, */
    char     team[2][SHM_TEAM_NAME_LEN];  /* names */
    char     coach[2][SHM_TEAM_NAME_LEN]; /* online coach names seen (final file names) */
    uint32_t episode;              /* episode of the snapshots these files hold */
    int32_t  prev_time;            /* game time of the last snapshot handled */
} shm_rec_state_sh_t;

typedef struct shm_recorder_sh {
    int64_t           start_time;  /* wall-clock s (time_t) of the match start, 0 before */
    _Atomic uint32_t  cur;         /* index of the consistent state[] */
    uint32_t          _pad0;
    _Atomic uint64_t  read_ev;     /* events before this sequence were read (the sim's
                                      synch-mode wait looks at state[cur], what is on disk) */
    _Atomic uint64_t  lost_snaps;  /* snapshots overwritten before the recorder read them */
    _Atomic uint64_t  lost_events; /* events overwritten before the recorder read them */
    shm_rec_state_sh_t state[2];
} shm_recorder_sh_t;

/* ---- runner interface: what programs driving the server read (rcssserver's /status,
 * /metrics and result.json, docs/ARCHITECTURE.md "Runner interface"). Written by the sim
 * unless a field names another writer; metrics are plain stores read without a lock
 * (a reader may see a field of the previous cycle next to one of this cycle). -------- */
#define SHM_RUNNER_PATH_LEN 1024   /* a log file's final path (longer ones are cut) */
#define SHM_RUNNER_WHY_LEN  32     /* exit reason word */

typedef struct shm_client_stat_sh {
    uint64_t misses;               /* synch mode: cycles that went on (or were waited
                                      for again) without its (done) */
    uint32_t miss_run;             /* consecutive misses now (0 after an on-time (done)) */
    uint32_t miss_run_max;         /* the longest run so far */
    uint32_t connects;             /* (re)connections the sim saw (client generations) */
    uint32_t _pad0;
} shm_client_stat_sh_t;

typedef struct shm_runner_sh {
    int32_t  port;                 /* UDP ports the gateways bind (server::port=0 resolved) */
    int32_t  coach_port;
    int32_t  olcoach_port;
    _Atomic int32_t http_port;     /* monitorgw: the HTTP port it listens on, 0 none */
    _Atomic uint32_t ready;        /* 1 once every gateway is up and the ready line printed */
    _Atomic uint32_t finish;       /* 1: the match is over; the recorder finishes the logs
                                      now (before the shutdown flag) */
    uint32_t episode;              /* resets so far (= newest snapshot's episode) */
    int32_t  exit_code;            /* set when the loop ends (0, 3; -1 while running) */
    char     exit_reason[SHM_RUNNER_WHY_LEN]; /* "game_over", "signal", ... "" running */
    uint64_t cycles;               /* turns timed (each ends with a publish) */
    int64_t  period_ns;            /* time between the last two publishes */
    int64_t  period_sum_ns;        /* sum over cycles - 1 periods */
    int64_t  period_max_ns;
    int64_t  jitter_ns;            /* smoothed |period - previous period| (RFC 3550 style,
                                      gain 1/16) */
    int64_t  publish_ns;           /* last turn: drain, step, publish (the sim's work) */
    int64_t  publish_sum_ns;
    int64_t  publish_max_ns;
    uint64_t misses;               /* every client's misses */
    uint64_t late_steps;           /* real time: steps more than a poll late (the grid moved) */
    uint64_t event_drops;          /* NDJSON lines the event sink could not take */
    shm_client_stat_sh_t client[SHM_MAX_CLIENTS]; /* indexed like client[] */
    _Atomic uint64_t mgw_event_read; /* monitorgw: runner events before this sequence were
                                      handed to its /match/events viewers */
    _Atomic uint32_t logs_named;   /* recorder: episode + 1 of the final names below, 0 none */
    uint32_t _pad0;
    char     game_log[SHM_RUNNER_PATH_LEN]; /* recorder: final path of the game log, "" */
    char     text_log[SHM_RUNNER_PATH_LEN]; /* recorder: final path of the text log, "" */
} shm_runner_sh_t;

/* ---- the sim's match state: everything the next step needs, so that a new sim can take
 * the match over from a dead one (sim/sim_resume.c). Written by the sim only, read by the
 * sim only: the body is the sim's own structure (its layout named by body_version and
 * body_size, which a new sim checks before it adopts it). Two copies: the sim fills the
 * one `cur` does not name, then flips cur, so a sim killed at any moment leaves one
 * consistent copy; each commit is made before the snapshot it leads to is published. */
typedef struct shm_state_sh {
    _Atomic uint32_t cur;          /* index of the consistent copy */
    uint32_t         body_version; /* the sim's state layout (SIM_STATE_VERSION) */
    uint64_t         body_size;    /* bytes of one body (sizeof the sim's structure) */
    _Atomic uint64_t commits;      /* commits made (0: no state yet) */
    uint64_t         _pad0[5];
    unsigned char    body[2][SHM_STATE_BYTES];
} shm_state_sh_t;

/* ---- the region ---------------------------------------------------------------------- */
typedef struct shm_region_sh {
    shm_header_sh_t      hdr;
    shm_params_sh_t      params;
    shm_ptypes_sh_t      ptypes;
    shm_team_sh_t        team[2];                      /* 0 left, 1 right */
    shm_proc_sh_t        netgw[SHM_MAX_GATEWAYS];
    shm_proc_sh_t        monitorgw;
    shm_client_sh_t      client[SHM_MAX_CLIENTS];
    shm_cmd_ring_sh_t    cmd[SHM_MAX_CLIENTS];         /* indexed like client[] */
    shm_monitor_sh_t     monitor[SHM_MAX_MONITORS];
    shm_snapshot_sh_t    snap[SHM_SNAP_SLOTS];
    shm_event_ring_sh_t  events;
    shm_coach_sh_t       coach[2];                     /* online coaches, 0 left */
    shm_proc_sh_t        recorder;                     /* rcss-recorder (last_step: newest
                                                          snapshot it read) */
    shm_recorder_sh_t    rec;
    shm_montab_sh_t      montab;                       /* monitor table use (monitorgw) */
    shm_runner_sh_t      runner;                       /* runner interface (sim; see above) */
    shm_snapshot_sh_t    live;                         /* the world between two steps, after
                                                          commands applied at once (trainer,
                                                          online coach, operators): step =
                                                          the step it follows, event_head =
                                                          the events released so far; seq is
                                                          a seqlock, hdr.live_pub counts */
    shm_state_sh_t       state;                        /* the sim's match state (resume) */
} shm_region_sh_t;

_Static_assert(offsetof(shm_header_sh_t, magic) == 0, "magic must stay at offset 0");
_Static_assert(offsetof(shm_header_sh_t, layout_version) == 4, "version must stay at offset 4");
_Static_assert(offsetof(shm_region_sh_t, hdr) == 0, "header first");
_Static_assert((SHM_EVENT_SLOTS & (SHM_EVENT_SLOTS - 1)) == 0, "power of two");
_Static_assert((SHM_CMD_SLOTS & (SHM_CMD_SLOTS - 1)) == 0, "power of two");
_Static_assert((SHM_CTRL_SLOTS & (SHM_CTRL_SLOTS - 1)) == 0, "power of two");
_Static_assert((SHM_MONREQ_SLOTS & (SHM_MONREQ_SLOTS - 1)) == 0, "power of two");
_Static_assert(sizeof(shm_cmd_sh_t) == 272, "command record size");
_Static_assert(sizeof(shm_event_sh_t) == 280, "event size");

/* player index helpers */
static inline int shm_player_index(int side, int unum)
{
    return (side == SHM_SIDE_LEFT ? 0 : SHM_TEAM_SIZE) + unum - 1;
}

#endif
