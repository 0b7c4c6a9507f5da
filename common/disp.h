/* disp.h -- one simulation step as the monitor protocols and game logs show it (see
 * docs/protocol/monitor.md §4; docs/protocol/logs.md §2): the input of the pure encoders
 * disp_bin.c (v1/v2 binary structs), disp_text.c (v3-v5 text) and disp_json.c (JSON). Plain
 * data, no shm types: the gateway (or the recorder) fills it from a snapshot. */
#ifndef RCSS_DISP_H
#define RCSS_DISP_H

#include <stdint.h>

#define DISP_PLAYERS     22
#define DISP_NAME_LEN    17          /* team name: up to 16 chars + NUL */
#define DISP_SCALE       16.0        /* SHOWINFO_SCALE: v1 positions, monitor commands */
#define DISP_SCALE2      65536.0     /* SHOWINFO_SCALE2: v2/v3 reals */

/* dispinfo mode values (docs/protocol/monitor.md §4) */
enum {
    DISP_NO_INFO, DISP_SHOW_MODE, DISP_MSG_MODE, DISP_DRAW_MODE, DISP_BLANK_MODE,
    DISP_PM_MODE, DISP_TEAM_MODE, DISP_PT_MODE, DISP_PARAM_MODE, DISP_PPARAM_MODE
};
#define DISP_MSG_BOARD   1
#define DISP_LOG_BOARD   2

/* counters, in the order of the text show line */
enum {
    DISP_CNT_KICK, DISP_CNT_DASH, DISP_CNT_TURN, DISP_CNT_CATCH, DISP_CNT_MOVE,
    DISP_CNT_TURN_NECK, DISP_CNT_CHANGE_VIEW, DISP_CNT_SAY, DISP_CNT_TACKLE,
    DISP_CNT_POINTTO, DISP_CNT_ATTENTIONTO, DISP_CNT_CHANGE_FOCUS, DISP_CNT_N
};

typedef struct disp_player {
    int      side;                 /* 1 left, -1 right */
    int      unum;                 /* 1..11 */
    int      enabled;              /* connected and on the field */
    int      type;                 /* heterogeneous type id (0 when disabled) */
    uint32_t state;                /* state flags (STAND 0x1, GOALIE 0x8, cards 0x40000/0x80000) */
    double   x, y, vx, vy;         /* m, m/cycle */
    double   body;                 /* rad, absolute, in [-pi, pi] */
    double   neck;                 /* rad, relative to the body */
    int      view_high;            /* 1 high quality */
    double   view_width;           /* deg: 45/90/180, or 60/120/180 in synch-see mode */
    double   stamina, effort, recovery, capacity;
    double   focus_dist;           /* m */
    double   focus_dir;            /* rad */
    int      pointing;             /* 1 while the arm points at (point_x, point_y) */
    double   point_x, point_y;     /* m, global */
    int      focus_side;           /* attentionto target: 1 left, -1 right, 0 none */
    int      focus_unum;
    uint32_t count[DISP_CNT_N];
} disp_player_t;

typedef struct disp_show {
    int    time;                   /* game cycle */
    int    stime;                  /* stoppage time, 0 if none */
    int    pmode;                  /* play-mode index (playmode.h) */
    char   team[2][DISP_NAME_LEN]; /* "" when no team */
    int    score[2];
    int    pen_score[2], pen_miss[2];
    double bx, by, bvx, bvy;       /* ball: m, m/cycle */
    disp_player_t player[DISP_PLAYERS]; /* left 1..11, then right 1..11 */
} disp_show_t;

/* the fields of a heterogeneous player type, in (player_type ...) order */
#define DISP_PTYPE_FIELDS 29
#define DISP_PTYPE_BIN_FIELDS 14   /* the ones player_type_t carries */
typedef struct disp_ptype {
    int    id;
    double v[DISP_PTYPE_FIELDS];
} disp_ptype_t;
extern const char *const disp_ptype_names[DISP_PTYPE_FIELDS];

#endif
