/* playmode.h -- play-mode indices and names (monitor protocol table;
 * docs/protocol/monitor.md §8) and the number formatting every text protocol uses. */
#ifndef RCSS_PLAYMODE_H
#define RCSS_PLAYMODE_H

#include <stddef.h>

enum {
    PM_NULL, PM_BEFORE_KICK_OFF, PM_TIME_OVER, PM_PLAY_ON,
    PM_KICK_OFF_L, PM_KICK_OFF_R, PM_KICK_IN_L, PM_KICK_IN_R,
    PM_FREE_KICK_L, PM_FREE_KICK_R, PM_CORNER_KICK_L, PM_CORNER_KICK_R,
    PM_GOAL_KICK_L, PM_GOAL_KICK_R, PM_GOAL_L, PM_GOAL_R,
    PM_DROP_BALL, PM_OFFSIDE_L, PM_OFFSIDE_R, PM_PENALTY_KICK_L, PM_PENALTY_KICK_R,
    PM_FIRST_HALF_OVER, PM_PAUSE, PM_HUMAN_JUDGE,
    PM_FOUL_CHARGE_L, PM_FOUL_CHARGE_R, PM_FOUL_PUSH_L, PM_FOUL_PUSH_R,
    PM_FOUL_MULTIPLE_ATTACK_L, PM_FOUL_MULTIPLE_ATTACK_R, PM_FOUL_BALLOUT_L, PM_FOUL_BALLOUT_R,
    PM_BACK_PASS_L, PM_BACK_PASS_R, PM_FREE_KICK_FAULT_L, PM_FREE_KICK_FAULT_R,
    PM_CATCH_FAULT_L, PM_CATCH_FAULT_R, PM_INDIRECT_FREE_KICK_L, PM_INDIRECT_FREE_KICK_R,
    PM_PENALTY_SETUP_L, PM_PENALTY_SETUP_R, PM_PENALTY_READY_L, PM_PENALTY_READY_R,
    PM_PENALTY_TAKEN_L, PM_PENALTY_TAKEN_R, PM_PENALTY_MISS_L, PM_PENALTY_MISS_R,
    PM_PENALTY_SCORE_L, PM_PENALTY_SCORE_R, PM_ILLEGAL_DEFENSE_L, PM_ILLEGAL_DEFENSE_R,
    PM_MAX
};

/* name of a play mode ("" for PM_NULL or out of range) */
const char *playmode_name(int pm);
/* index of a name, -1 if unknown */
int playmode_lookup(const char *name);

/* A real as C++ ostream prints it by default: %g with 6 significant digits, no trailing
 * zeros, "-0" printed as "0". Returns chars written (snprintf semantics). */
int fmt_real(char *buf, size_t len, double v);

#endif
