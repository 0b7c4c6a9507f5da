/* dt.h -- the demo team (rcss-demoteam): eleven players and an online coach that play
 * over the normal client protocol (version 19, UDP). Each player keeps its own world
 * model built only from what its own socket told it (see, sense_body, hear); the players
 * share one process but never each other's memory. Files: dt_parse.c (server messages
 * into structs, pure), dt_world.c (localisation, ball and players, play mode),
 * dt_skills.c (turn, dash, kick, intercept, dribble), dt_formation.c (where each role
 * stands), dt_play.c (what to do in each play mode), dt_coach.c (the online coach),
 * dt_main.c (sockets and the loop).
 *
 * Frames: the world model works in the team's own frame, the one `move` uses: the team
 * attacks +x, y as the server's for the left side and mirrored (x and y negated) for
 * the right side. Angles in radians there; degrees on the wire. */
#ifndef RCSS_DT_H
#define RCSS_DT_H

#include <netinet/in.h>
#include <stddef.h>
#include "geom.h"
#include "pitch.h"

#define DT_PLAYERS   11
#define DT_TYPES_MAX 32
#define DT_SEE_MAX   128
#define DT_UNKNOWN   1000 /* the age of something never seen */

#define DT_PENALTY_X    (PITCH_HALF_L - PITCH_PENALTY_L) /* penalty area front line, |x| */
#define DT_PENALTY_Y    (PITCH_PENALTY_W / 2.0)          /* penalty area half width */

/* ---- parameters (server_param, player_param, player_type) ------------------------- */
typedef struct dt_ptype {
    double speed_max, stamina_inc_max, decay, inertia, dash_rate, size, kick_margin,
           kick_rand, extra_stamina, effort_max, effort_min, kick_power_rate,
           catch_stretch;
} dt_ptype_t;

typedef struct dt_params {
    double ball_decay, ball_speed_max, ball_accel_max, ball_size, player_size;
    double kick_power_rate, max_power, min_power, catch_l, catch_w, goal_width;
    double stamina_max, visible_distance, max_moment, min_moment;
    double max_neck_ang, min_neck_ang, max_neck_moment, min_neck_moment;
    double catch_ban_cycle, goalie_max_moves, half_time, extra_stamina;
    double synch_mode;        /* server_param synch_mode: 1 lock-step (think/done) */
    int    ntypes, pt_max, subs_max;
    dt_ptype_t type[DT_TYPES_MAX];
} dt_params_t;

/* v19 defaults (docs/protocol/physics.md §10, §9) until the server's messages arrive */
void dt_params_defaults(dt_params_t *p);

/* ---- parsed server messages ------------------------------------------------------- */
enum { DT_OBJ_FLAG, DT_OBJ_BALL, DT_OBJ_PLAYER, DT_OBJ_LINE };

typedef struct dt_seen {
    int    kind;          /* DT_OBJ_* */
    vec2_t at;            /* a landmark's position, own frame */
    double dist, dir;     /* m, degrees relative to the face */
    double dchg, dirchg;  /* m/cycle, degrees/cycle */
    int    has_chg;
    int    team;          /* players: 1 ours, -1 theirs, 0 not told */
    int    unum;          /* players: 0 not told */
    int    goalie;
    int    close;         /* felt, not seen: (B) (F) (G) (P), direction only trusted */
} dt_seen_t;

typedef struct dt_see {
    int       time;
    int       n;
    dt_seen_t obj[DT_SEE_MAX];
} dt_see_t;

typedef struct dt_body {
    int    time;
    int    narrow, wide;      /* view width */
    double stamina, effort, capacity;
    double speed, speed_dir;  /* m/cycle, degrees relative to the face */
    double head_angle;        /* degrees, neck relative to body */
    int    kick, dash, turn, catch_, move, turn_neck, change_view;
} dt_body_t;

/* play modes, by kind; the side letter is kept apart */
typedef enum dt_pm {
    DT_PM_UNKNOWN, DT_PM_BEFORE_KICK_OFF, DT_PM_TIME_OVER, DT_PM_PLAY_ON, DT_PM_KICK_OFF,
    DT_PM_KICK_IN, DT_PM_FREE_KICK, DT_PM_CORNER_KICK, DT_PM_GOAL_KICK, DT_PM_GOAL,
    DT_PM_DROP_BALL, DT_PM_OFFSIDE, DT_PM_FOUL, DT_PM_BACK_PASS, DT_PM_FREE_KICK_FAULT,
    DT_PM_CATCH_FAULT, DT_PM_INDIRECT_FREE_KICK, DT_PM_ILLEGAL_DEFENSE,
    DT_PM_PENALTY_SETUP, DT_PM_PENALTY_READY, DT_PM_PENALTY_TAKEN, DT_PM_PENALTY_OVER,
    DT_PM_OTHER
} dt_pm_t;

/* Parse a play-mode name ("kick_in_l"); *side gets 'l', 'r' or 0. */
dt_pm_t dt_parse_playmode(const char *name, char *side);

/* Parse one message. Each returns 0 when the message is of that kind and was read,
 * -1 otherwise. side: 1 left, -1 right (landmarks are turned into the own frame). */
int dt_parse_see(const char *msg, size_t len, int side, const char *our_team, dt_see_t *out);
int dt_parse_sense_body(const char *msg, size_t len, dt_body_t *out);
/* (server_param ...), (player_param ...), (player_type ...): fill p */
int dt_parse_params(const char *msg, size_t len, dt_params_t *p);
/* (hear T referee MSG): the referee's text into msg; 0 when it was the referee */
int dt_parse_referee(const char *msg, size_t len, int *time, char *text, size_t textlen);
/* own team (change_player_type UNUM TYPE): 0 with unum/type; opponents give type -1 */
int dt_parse_change_type(const char *msg, size_t len, int *unum, int *type);

/* Landmark name tokens ("f","t","r","10") -> position in the server frame; 0 if known. */
int dt_landmark(const char *const *tok, int ntok, vec2_t *out);

/* ---- world model (one per player) ------------------------------------------------- */
typedef struct dt_obj {
    vec2_t pos, vel;
    int    age;        /* cycles since seen; DT_UNKNOWN: never */
    int    goalie;
} dt_obj_t;

typedef struct dt_world {
    const dt_params_t *prm;
    const char *team;
    int     side;             /* 1 left, -1 right */
    int     unum, goalie, type;
    int     tick;             /* sense_body count: one per server cycle */
    int     time;             /* the server's cycle number */
    int     prematch;         /* 1 until the first kick-off (synch mode: dt_play.c) */
    int     prematch_set;     /* synch mode: its move and narrow view were sent */
    int     view_back;        /* synch mode: the first kick-off came, normal view again */
    dt_pm_t pm;
    char    pm_side;          /* 'l', 'r' or 0 */
    int     pm_ours;          /* we take the next kick (or we kick off) */
    int     pm_tick;          /* tick at which the mode began */
    int     score_ours, score_theirs;
    /* self */
    vec2_t  pos, vel;
    double  body, neck;       /* radians; neck relative to body */
    int     pos_age;          /* cycles since the last localisation */
    dt_body_t sb;
    /* the others */
    dt_obj_t ball;
    dt_obj_t mate[DT_PLAYERS + 1], opp[DT_PLAYERS + 1]; /* by unum */
    int      nanon;
    dt_obj_t anon[2 * DT_PLAYERS];    /* players of the last see without a number */
    /* what was sent this cycle, for the prediction of the next */
    double  cmd_dash, cmd_dash_dir, cmd_turn, cmd_neck;
    vec2_t  cmd_kick;         /* ball acceleration expected from our kick */
    int     cmd_kicked, cmd_caught, cmd_moved;
    vec2_t  cmd_move;
    /* goalie and set-play memory */
    int     catch_ban;        /* cycles before the next catch may be tried */
    int     holding;          /* the goalie holds the ball (since our catch) */
    int     setplay_kicked;   /* tick of our last kick in a set play (free kick fault) */
    int     sent_tick;        /* tick of our last kick that sent the ball on its way */
    int     last_mate_touch;  /* tick a teammate was last seen at the ball */
    int     last_opp_touch;   /* tick an opponent was last seen at the ball */
    int     kicked_tick;      /* tick a change of the ball's course was last seen */
    int     other_touch;      /* tick another player was last seen at the ball */
    int     stop_tick;        /* tick the last mode other than play_on began */
    int     kicker;           /* the teammate seen at the ball then (0 none) */
    int     moved_tick;       /* tick of our last (move) */
    double  pen_goal_x;       /* penalty shoot-out: x of the goal in use (own frame) */
    int     scan;             /* neck scan phase */
} dt_world_t;

void dt_world_init(dt_world_t *w, const dt_params_t *prm, const char *team, int side,
                   int unum, int goalie);
const dt_ptype_t *dt_world_type(const dt_world_t *w);
/* The cycle's sense_body: advance the clock, predict self and ball. */
void dt_world_on_body(dt_world_t *w, const dt_body_t *b);
/* A see: localise, then correct ball and players. */
void dt_world_on_see(dt_world_t *w, const dt_see_t *s);
/* A referee message: play mode, score. */
void dt_world_on_referee(dt_world_t *w, const char *text);
/* our kickable distance and whether the ball is within it */
double dt_world_kickable(const dt_world_t *w);
int    dt_world_ball_kickable(const dt_world_t *w);
/* 0 while our own set-play kick has not been touched by anyone else: a second touch
 * after a dash would be a free kick fault (docs/protocol/referee.md §6) */
int    dt_world_may_touch(const dt_world_t *w);
double dt_world_face(const dt_world_t *w);

/* ---- commands (dt_skills.c) -------------------------------------------------------- */
typedef struct dt_cmd {
    char   text[256];
    size_t len;
    int    body;              /* a body command is in text */
    const char *why;          /* the decision, for --verbose */
} dt_cmd_t;

void dt_cmd_reset(dt_cmd_t *c);
void dt_cmd_turn(dt_world_t *w, dt_cmd_t *c, double moment_deg);
void dt_cmd_dash(dt_world_t *w, dt_cmd_t *c, double power, double dir_deg);
void dt_cmd_kick(dt_world_t *w, dt_cmd_t *c, double power, double dir_deg);
void dt_cmd_catch(dt_world_t *w, dt_cmd_t *c, double dir_deg);
void dt_cmd_move(dt_world_t *w, dt_cmd_t *c, vec2_t at);
void dt_cmd_neck(dt_world_t *w, dt_cmd_t *c, double angle_deg);
void dt_cmd_text(dt_cmd_t *c, const char *text);

/* skills: each adds one body command */
void dt_skill_turn_to(dt_world_t *w, dt_cmd_t *c, vec2_t at);
/* go towards at; returns 1 once within tolerance (nothing sent then) */
int  dt_skill_go_to(dt_world_t *w, dt_cmd_t *c, vec2_t at, double tolerance, double power);
/* cycles until we could reach the ball, and where; big when unknown */
int  dt_skill_intercept(const dt_world_t *w, vec2_t *where);
/* cycles a player at `from` needs to reach the ball (rough, for teammates) */
int  dt_skill_intercept_from(const dt_world_t *w, vec2_t from, double speed);
void dt_skill_chase(dt_world_t *w, dt_cmd_t *c);
/* kick so that the ball leaves at speed towards target; 1 if the kick goes there
 * directly, 0 if this kick only brings the ball into a better place */
int  dt_skill_kick_to(dt_world_t *w, dt_cmd_t *c, vec2_t target, double speed);
/* the same in one kick only: 1 if kicked, 0 (nothing sent) if one kick cannot */
int  dt_skill_kick_direct(dt_world_t *w, dt_cmd_t *c, vec2_t target, double speed);
/* the first speed a pass needs to arrive at dist with end_speed */
double dt_skill_pass_speed(const dt_world_t *w, double dist, double end_speed);
void dt_skill_dribble(dt_world_t *w, dt_cmd_t *c, vec2_t towards, int free);
/* keep the face on the ball (or scan for it) with the neck */
void dt_skill_look(dt_world_t *w, dt_cmd_t *c);
double dt_skill_dash_power(const dt_world_t *w, double wanted);

/* ---- formation and decisions (dt_formation.c, dt_play.c) --------------------------- */
vec2_t dt_formation_kickoff(int unum, int ours);
vec2_t dt_formation_home(const dt_world_t *w, int unum);
double dt_formation_offside_x(const dt_world_t *w);

/* one player's decision for this cycle: fills c (body, neck, view commands) */
void dt_play_decide(dt_world_t *w, dt_cmd_t *c);

/* ---- UDP (dt_net.c) ------------------------------------------------------------------ */

/* resolve host:port into addr; 0 ok */
int  dt_net_addr(const char *host, int port, struct sockaddr_in *addr);
/* a UDP socket (close-on-exec); -1 on error */
int  dt_net_socket(void);
/* send msg with its NUL; 0 ok */
int  dt_net_send(int fd, const struct sockaddr_in *to, const char *msg);
/* receive one datagram within timeout_ms (NUL-terminated); length, 0 timeout, -1 error */
int  dt_net_recv(int fd, char *buf, size_t len, int timeout_ms, struct sockaddr_in *from);
double dt_net_now_ms(void);

/* ---- the online coach (dt_coach.c) --------------------------------------------------- */
typedef struct dt_coach {
    int    fd;
    struct sockaddr_in srv;
    const char *team;
    dt_params_t prm;
    int    ntypes_seen;      /* player_type messages received */
    int    assigned;         /* change_player_type commands sent */
    int    acked;            /* (ok change_player_type ...) received */
    int    errors, warnings;
    int    connected;
    int    time_over;
    int    type_of[DT_PLAYERS + 1];
} dt_coach_t;

/* connect to the online-coach port; 0 ok (message on stderr otherwise) */
int  dt_coach_connect(dt_coach_t *co, const struct sockaddr_in *port, const char *team);
/* one datagram from the server */
void dt_coach_on_message(dt_coach_t *co, const char *msg, size_t len);
/* the player types chosen (or none could be): the team may kick off */
int  dt_coach_ready(const dt_coach_t *co);
/* choose a type for each role within pt_max (pure; exposed for tests): out[1..11] */
void dt_coach_choose(const dt_params_t *p, int out[DT_PLAYERS + 1]);

#endif
