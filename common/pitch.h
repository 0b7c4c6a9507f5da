/* pitch.h -- the 2D pitch as the reference hard-codes it (docs/protocol/physics.md §6):
 * one definition for every program (sim, gateways, demo team). The goal width is a
 * parameter (server::goal_width), so it is not here. */
#ifndef RCSS_PITCH_H
#define RCSS_PITCH_H

#define PITCH_LENGTH        105.0
#define PITCH_WIDTH         68.0
#define PITCH_HALF_L        (PITCH_LENGTH / 2.0)   /* 52.5: the goal lines */
#define PITCH_HALF_W        (PITCH_WIDTH / 2.0)    /* 34: the touch lines */
#define PITCH_MARGIN        5.0     /* around the lines: where moves are kept */
#define PITCH_PENALTY_L     16.5    /* penalty area depth */
#define PITCH_PENALTY_W     40.32   /* penalty area width */
#define PITCH_GOAL_AREA_L   5.5
#define PITCH_GOAL_AREA_W   18.32
#define PITCH_CIRCLE_R      9.15    /* centre circle and set-play clearance */
#define PITCH_GOAL_DEPTH    2.44
#define PITCH_POST_R        0.06    /* goal post radius */

#endif
