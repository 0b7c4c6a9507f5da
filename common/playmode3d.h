/* playmode3d.h -- the play modes of the 3D server (docs/protocol/3d.md §3.2 and section 3): their
 * order is the monitor protocol's play_modes list, so an index is what (play_mode N)
 * in an Info expression means; the names are what GameState and (playMode NAME) use. */
#ifndef RCSS_PLAYMODE3D_H
#define RCSS_PLAYMODE3D_H

enum {
    PM3D_BEFORE_KICK_OFF, PM3D_KICK_OFF_LEFT, PM3D_KICK_OFF_RIGHT, PM3D_PLAY_ON,
    PM3D_KICK_IN_LEFT, PM3D_KICK_IN_RIGHT, PM3D_CORNER_KICK_LEFT, PM3D_CORNER_KICK_RIGHT,
    PM3D_GOAL_KICK_LEFT, PM3D_GOAL_KICK_RIGHT, PM3D_OFFSIDE_LEFT, PM3D_OFFSIDE_RIGHT,
    PM3D_GAME_OVER, PM3D_GOAL_LEFT, PM3D_GOAL_RIGHT, PM3D_FREE_KICK_LEFT,
    PM3D_FREE_KICK_RIGHT,
    PM3D_COUNT
};

/* "BeforeKickOff", ...; "unknown" out of range */
const char *playmode3d_name(int pm);
/* index of a name (exact spelling), -1 if unknown */
int playmode3d_lookup(const char *name, unsigned long len);
/* The side a mode favours: 0 left, 1 right, -1 none (BeforeKickOff, PlayOn, GameOver).
 * For offside_X it is the side that was offside; for Goal_X the side that scored. */
int playmode3d_side(int pm);
/* The set-play mode of a kind for a side: kind is PM3D_KICK_OFF_LEFT, PM3D_KICK_IN_LEFT,
 * ... (the _LEFT member of the pair); side 0 left, 1 right. */
static inline int playmode3d_for(int kind_left, int side) { return kind_left + (side ? 1 : 0); }

#endif
