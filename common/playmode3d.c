/* playmode3d.c -- 3D play-mode names (playmode3d.h). */
#include <string.h>
#include "playmode3d.h"

static const char *const pm3d_names[PM3D_COUNT] = {
    "BeforeKickOff", "KickOff_Left", "KickOff_Right", "PlayOn",
    "KickIn_Left", "KickIn_Right", "corner_kick_left", "corner_kick_right",
    "goal_kick_left", "goal_kick_right", "offside_left", "offside_right",
    "GameOver", "Goal_Left", "Goal_Right", "free_kick_left",
    "free_kick_right",
};

const char *playmode3d_name(int pm)
{
    return pm >= 0 && pm < PM3D_COUNT ? pm3d_names[pm] : "unknown";
}

int playmode3d_lookup(const char *name, unsigned long len)
{
    for (int i = 0; i < PM3D_COUNT; i++) {
        if (strlen(pm3d_names[i]) == len && memcmp(pm3d_names[i], name, len) == 0)
            return i;
    }
    return -1;
}

int playmode3d_side(int pm)
{
    /* -1 none, 0 left, 1 right, in the order of the enum */
    static const signed char side[PM3D_COUNT] = {
        -1, 0, 1, -1,   /* BeforeKickOff, KickOff_Left/Right, PlayOn */
        0, 1, 0, 1,     /* KickIn, corner_kick */
        0, 1, 0, 1,     /* goal_kick, offside */
        -1, 0, 1, 0,    /* GameOver, Goal_Left/Right, free_kick_left */
        1,              /* free_kick_right */
    };
    return pm >= 0 && pm < PM3D_COUNT ? side[pm] : -1;
}
