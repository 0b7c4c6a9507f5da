/* shm3d_layout.h -- the whole contract between the processes of one 3D match
 * (rcssserver3d, rcss3d-agentgw, rcss3d-monitorgw): one POSIX shm region per server,
 * /rcssserver3d-<agent_port>. Writer of each part is named on it: the sim owns the world
 * (snapshots, events, parameters); the agent gateway owns the agent table and fills the
 * agents' command rings; each gateway fills its control ring. Types and constants only;
 * code is in shm3d_*.c. This contract is independent of the 2D one (shm_layout.h): its
 * own magic and version. Bump SHM3D_LAYOUT_VERSION on any change to a _sh_t below
 * (test/shm/test_layout3d.c pins every size and offset). */
#ifndef RCSS_SHM3D_LAYOUT_H
#define RCSS_SHM3D_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>
#include <semaphore.h>

#define SHM3D_MAGIC           0x52433344u   /* "RC3D" */
#define SHM3D_LAYOUT_VERSION  2u

/* ---- sizes ---------------------------------------------------------------------- */
#define SHM3D_TEAM_SIZE       11
#define SHM3D_MAX_AGENTS      22    /* agent connections; each holds at most one robot */
#define SHM3D_MAX_SEEN        32    /* vision entries per robot: 8 markers, ball, 21 robots */
#define SHM3D_N_GATEWAYS      2     /* proc[0] the agent gateway, proc[1] the monitor gateway */
#define SHM3D_GW_AGENT        0
#define SHM3D_GW_MONITOR      1
#define SHM3D_SNAP_SLOTS      64    /* snapshot ring */
#define SHM3D_EVENT_SLOTS     1024  /* event ring (power of two) */
#define SHM3D_CMD_SLOTS       64    /* per-agent command ring (power of two) */
#define SHM3D_CTRL_SLOTS      256   /* control ring per gateway (power of two) */
#define SHM3D_MAX_PARAMS      96    /* parameter slots, indexed by conf3d_id_t */
#define SHM3D_PARAM_STR_LEN   256
#define SHM3D_TEAM_NAME_LEN   32    /* 31 chars + NUL */
#define SHM3D_CMD_TEXT_LEN    64    /* text of one record: team name, ack cookie */
#define SHM3D_EVENT_TEXT_LEN  96
#define SHM3D_NAME_LEN        64

/* ---- header: offsets 0 and 4 never move ----------------------------------------- */
typedef struct shm3d_header_sh {
    uint32_t          magic;            /* SHM3D_MAGIC; offset 0 forever */
    uint32_t          layout_version;   /* SHM3D_LAYOUT_VERSION; offset 4 forever */
    uint64_t          region_size;      /* bytes; attach refuses another size */
    uint32_t          header_size;      /* sizeof(shm3d_header_sh_t) */
    uint32_t          params_hash;      /* conf3d_hash() of the writer */
    int32_t           sim_pid;          /* the sim that created the region */
    uint32_t          synch_mode;       /* 1: the sim waits for (syn) and for the gateways */
    _Atomic uint32_t  ready;            /* 1 once the sim filled the parameters */
    _Atomic uint32_t  shutdown;         /* 1: every process exits */
    _Atomic uint64_t  published;        /* snapshots published; newest slot (published-1) % K */
    int64_t           epoch_ns;         /* CLOCK_MONOTONIC ns of step 0 */
    int64_t           step_ns;          /* real-time step length, ns */
    uint64_t          random_seed;      /* seed the sim runs with */
    sem_t             done_sem;         /* posted on every (syn) and by gateways after a batch */
    char              name[SHM3D_NAME_LEN]; /* the shm object name */
} shm3d_header_sh_t;

/* ---- parameters: written once by the sim before ready = 1 ----------------------- */
typedef struct shm3d_params_sh {
    uint32_t count;                                      /* P3_COUNT of the writer */
    uint32_t _pad0;
    double   num[SHM3D_MAX_PARAMS];                      /* conf3d_t.num */
    char     str[SHM3D_MAX_PARAMS][SHM3D_PARAM_STR_LEN]; /* conf3d_t.str */
} shm3d_params_sh_t;

/* ---- command records: gateway -> sim ------------------------------------------------ */
enum {
    SHM3D_CMD_NONE,
    /* agent rings (agent gateway); generation = the connection's */
    SHM3D_CMD_CREATE,       /* (create) */
    SHM3D_CMD_INIT,         /* i = unum (0: the next free), text = team name */
    SHM3D_CMD_BEAM,         /* d[0..2] x y z, team frame */
    SHM3D_CMD_DRIVE,        /* d[0..2] force vector, team frame, drive units */
    SHM3D_CMD_KICK,         /* d[0] latitude deg, d[1] power */
    SHM3D_CMD_BYE,          /* the connection closed */
    /* control ring (monitor gateway); generation = the monitor's id for acks */
    SHM3D_CMD_KICKOFF,      /* (kickOff) */
    SHM3D_CMD_PLAYMODE,     /* i = PM3D_* */
    SHM3D_CMD_AGENT,        /* i = side (0 L, 1 R), j = unum, d[0..2] pos, d[3..5] vel;
                               flags bit0 pos given, bit1 vel given */
    SHM3D_CMD_BALL,         /* d[0..2] pos, d[3..5] vel; flags bit0 pos, bit1 vel */
    SHM3D_CMD_DROPBALL,     /* (dropBall) */
    SHM3D_CMD_ACK           /* text = cookie; answered with SHM3D_EV_ACK once carried out */
};
#define SHM3D_CMDF_POS  0x1u
#define SHM3D_CMDF_VEL  0x2u
#define SHM3D_CMDF_BATTERY 0x4u     /* SHM3D_CMD_AGENT: d[0] battery; no pos or vel then */
#define SHM3D_CMDF_TEMP    0x8u     /* SHM3D_CMD_AGENT: d[1] temperature; no pos or vel then */

typedef struct shm3d_cmd_sh {
    uint16_t kind;                 /* SHM3D_CMD_* */
    uint16_t len;                  /* bytes of text used */
    uint16_t flags;                /* SHM3D_CMDF_* */
    int16_t  i;                    /* small integer argument */
    int16_t  j;                    /* second small integer argument */
    uint16_t _pad0;
    uint32_t generation;           /* connection generation (agents) / monitor id (acks) */
    double   d[6];                 /* real arguments */
    char     text[SHM3D_CMD_TEXT_LEN];
} shm3d_cmd_sh_t;

/* single producer / single consumer (sim) */
typedef struct shm3d_cmd_ring_sh {
    _Atomic uint32_t head;         /* next slot to write (producer) */
    uint32_t         _pad0[15];    /* head and tail on their own cache lines */
    _Atomic uint32_t tail;         /* next slot to read (consumer) */
    uint32_t         dropped;      /* records refused because the ring was full */
    uint32_t         _pad1[14];
    shm3d_cmd_sh_t   slot[SHM3D_CMD_SLOTS];
} shm3d_cmd_ring_sh_t;

typedef struct shm3d_ctrl_ring_sh {
    _Atomic uint32_t head;
    uint32_t         _pad0[15];
    _Atomic uint32_t tail;
    uint32_t         dropped;
    uint32_t         _pad1[14];
    shm3d_cmd_sh_t   slot[SHM3D_CTRL_SLOTS];
} shm3d_ctrl_ring_sh_t;

/* ---- processes: the gateways ------------------------------------------------------ */
#define SHM3D_PROC_EMPTY    0u
#define SHM3D_PROC_RUNNING  1u
#define SHM3D_PROC_EXITED   2u

typedef struct shm3d_proc_sh {
    _Atomic int32_t  pid;          /* current process, 0 if none (sim) */
    _Atomic uint32_t state;        /* SHM3D_PROC_* (sim) */
    _Atomic uint32_t restarts;     /* times the sim restarted it */
    uint32_t         _pad0;
    _Atomic int64_t  heartbeat_ns; /* CLOCK_MONOTONIC ns of its last loop turn (gateway) */
    _Atomic uint64_t last_step;    /* last snapshot it handled (gateway) */
    _Atomic uint64_t resets;       /* times it skipped snapshots or events (gateway) */
    sem_t            cycle_sem;    /* posted by the sim once per published snapshot */
    shm3d_ctrl_ring_sh_t ctrl;     /* gateway -> sim: monitor and trainer commands */
} shm3d_proc_sh_t;

/* ---- agent connections: written by the agent gateway ------------------------------- */
#define SHM3D_AGENT_FREE    0u
#define SHM3D_AGENT_ACTIVE  1u

#define SHM3D_KIND_TCP      1
#define SHM3D_KIND_PIPE     2

typedef struct shm3d_agent_sh {
    _Atomic uint32_t state;        /* SHM3D_AGENT_* */
    _Atomic uint32_t generation;   /* bumped before every new connection in this slot */
    int32_t  kind;                 /* SHM3D_KIND_* */
    int32_t  pid;                  /* the agent process of a pipe agent, 0 for TCP */
    uint8_t  addr[16];             /* TCP peer IPv4 (first 4 bytes) or IPv6, network order */
    int32_t  family;               /* AF_INET / AF_INET6, 0 for pipes */
    uint16_t port;                 /* TCP peer port, host order */
    uint16_t _pad0;
    _Atomic uint64_t done_step;    /* synch mode: snapshot step answered with (syn) */
    int64_t  last_recv_ns;         /* CLOCK_MONOTONIC ns of its last message */
} shm3d_agent_sh_t;

/* ---- world snapshot: written by the sim, one per step -------------------------------- */
#define SHM3D_SEEN_FLAG     1      /* id 0..3: 1_l 2_l 1_r 2_r */
#define SHM3D_SEEN_GOAL     2      /* id 0..3: 1_l 2_l 1_r 2_r */
#define SHM3D_SEEN_BALL     3
#define SHM3D_SEEN_PLAYER   4      /* id = unum, side = 0 left / 1 right */

typedef struct shm3d_seen_sh {
    int8_t   kind;                 /* SHM3D_SEEN_* */
    int8_t   id;
    int8_t   side;
    int8_t   _pad0;
    float    dist;                 /* m, noise included */
    float    theta;                /* deg, horizontal; 0 towards the opponent goal */
    float    phi;                  /* deg, latitude; 0 horizontal */
} shm3d_seen_sh_t;

typedef struct shm3d_robot_sh {
    int8_t   present;              /* 1: the connection has a robot on the field */
    int8_t   side;                 /* 0 left, 1 right */
    int8_t   unum;                 /* 1..11 */
    int8_t   touching;             /* 1: touching the ground */
    int8_t   last_touch;           /* 1: the last robot to touch the ball */
    int8_t   _pad0[3];
    uint32_t generation;           /* the connection generation the robot belongs to */
    uint32_t _pad1;
    double   pos[3];               /* m, centre of the sphere */
    double   vel[3];               /* m/s */
    double   battery;              /* % */
    double   temp;                 /* deg C */
    int32_t  nseen;                /* entries of seen[] (sense steps only) */
    int32_t  _pad2;
    shm3d_seen_sh_t seen[SHM3D_MAX_SEEN];
} shm3d_robot_sh_t;

typedef struct shm3d_snapshot_sh {
    _Atomic uint64_t seq;          /* seqlock: odd while the sim writes */
    uint64_t step;                 /* publish number, 1-based */
    int64_t  publish_ns;           /* CLOCK_MONOTONIC ns when published */
    uint64_t sim_step;             /* steps simulated so far */
    double   sim_time;             /* s, sim_step * StepLength */
    double   game_time;            /* s, stands still before kick-off and after the game */
    int32_t  half;                 /* 1 first, 2 second */
    int32_t  play_mode;            /* PM3D_* */
    int32_t  score[2];             /* left, right */
    int32_t  sense;                /* 1: robots sense at this step (seen[] filled) */
    int32_t  info;                 /* 1: monitors get an Info at this step */
    char     team[2][SHM3D_TEAM_NAME_LEN]; /* "" until a robot of the side exists */
    uint64_t event_head;           /* events before this position belong to <= this step */
    double   ball_pos[3];          /* m */
    double   ball_vel[3];          /* m/s */
    shm3d_robot_sh_t robot[SHM3D_MAX_AGENTS]; /* indexed like agent[] */
} shm3d_snapshot_sh_t;

/* ---- event ring: single producer sim, many readers ----------------------------- */
enum {
    SHM3D_EV_NONE,
    SHM3D_EV_AGENT_ERROR,          /* slot = agent, generation; text = "(error ...)" */
    SHM3D_EV_ACK,                  /* generation = monitor id; text = cookie */
    SHM3D_EV_PLAYMODE,             /* arg = new PM3D_*, for logs; no text */
    SHM3D_EV_MONITOR_ERROR         /* generation = monitor id; text = "(error ...)" */
};

typedef struct shm3d_event_sh {
    _Atomic uint64_t seq;          /* ring position + 1 once complete */
    int32_t  kind;                 /* SHM3D_EV_* */
    int32_t  slot;                 /* agent slot, -1 if none */
    uint32_t generation;
    int32_t  arg;
    int32_t  len;                  /* bytes of text used */
    int32_t  _pad0;
    double   time;                 /* s, game time when emitted */
    char     text[SHM3D_EVENT_TEXT_LEN];
} shm3d_event_sh_t;

typedef struct shm3d_event_ring_sh {
    _Atomic uint64_t head;         /* next position to write (sim) */
    uint64_t         _pad0;
    shm3d_event_sh_t ev[SHM3D_EVENT_SLOTS];
} shm3d_event_ring_sh_t;

/* ---- the region ---------------------------------------------------------------------- */
typedef struct shm3d_region_sh {
    shm3d_header_sh_t     hdr;
    shm3d_params_sh_t     params;
    shm3d_proc_sh_t       proc[SHM3D_N_GATEWAYS];
    shm3d_agent_sh_t      agent[SHM3D_MAX_AGENTS];
    shm3d_cmd_ring_sh_t   cmd[SHM3D_MAX_AGENTS];      /* indexed like agent[] */
    shm3d_snapshot_sh_t   snap[SHM3D_SNAP_SLOTS];
    shm3d_event_ring_sh_t events;
} shm3d_region_sh_t;

_Static_assert(offsetof(shm3d_header_sh_t, magic) == 0, "magic must stay at offset 0");
_Static_assert(offsetof(shm3d_header_sh_t, layout_version) == 4, "version must stay at offset 4");
_Static_assert(offsetof(shm3d_region_sh_t, hdr) == 0, "header first");
_Static_assert((SHM3D_EVENT_SLOTS & (SHM3D_EVENT_SLOTS - 1)) == 0, "power of two");
_Static_assert((SHM3D_CMD_SLOTS & (SHM3D_CMD_SLOTS - 1)) == 0, "power of two");
_Static_assert((SHM3D_CTRL_SLOTS & (SHM3D_CTRL_SLOTS - 1)) == 0, "power of two");
_Static_assert(sizeof(shm3d_cmd_sh_t) == 128, "command record size");
_Static_assert(sizeof(shm3d_seen_sh_t) == 16, "seen entry size");

#endif
