/* netgw_landmarks.c -- the default landmark layout of the pitch (docs/protocol/player.md §5.7):
 * 55 flags and goals in see-message order, then the four touch/goal lines. Items 1-19
 * (object version 3) are visible to every client, the outer flags (version 4) only to
 * v4+ clients. */
#include "netgw_landmarks.h"

#define PL 52.5     /* half pitch length */
#define PW 34.0     /* half pitch width */
#define GW 7.01     /* half goal width */
#define PX 36.0     /* penalty area line x */
#define PY 20.16    /* half penalty area width */
#define OT 39.0     /* outer flags above/below the touchlines (pitch margin 5) */
#define OG 57.5     /* outer flags behind the goal lines */

const netgw_landmark_t netgw_landmarks[NETGW_LANDMARK_COUNT] = {
    { 'f', "c", 0.0, 0.0, 3 },
    { 'f', "c t", 0.0, -PW, 3 },
    { 'f', "c b", 0.0, PW, 3 },
    { 'f', "r t", PL, -PW, 3 },
    { 'f', "r b", PL, PW, 3 },
    { 'f', "l t", -PL, -PW, 3 },
    { 'f', "l b", -PL, PW, 3 },
    { 'f', "g r b", PL, GW, 3 },
    { 'g', "r", PL, 0.0, 3 },
    { 'f', "g r t", PL, -GW, 3 },
    { 'f', "g l b", -PL, GW, 3 },
    { 'g', "l", -PL, 0.0, 3 },
    { 'f', "g l t", -PL, -GW, 3 },
    { 'f', "p r b", PX, PY, 3 },
    { 'f', "p r c", PX, 0.0, 3 },
    { 'f', "p r t", PX, -PY, 3 },
    { 'f', "p l b", -PX, PY, 3 },
    { 'f', "p l c", -PX, 0.0, 3 },
    { 'f', "p l t", -PX, -PY, 3 },
    /* outer flags: version 4 */
    { 'f', "t 0", 0.0, -OT, 4 },
    { 'f', "t r 10", 10.0, -OT, 4 },
    { 'f', "t r 20", 20.0, -OT, 4 },
    { 'f', "t r 30", 30.0, -OT, 4 },
    { 'f', "t r 40", 40.0, -OT, 4 },
    { 'f', "t r 50", 50.0, -OT, 4 },
    { 'f', "t l 10", -10.0, -OT, 4 },
    { 'f', "t l 20", -20.0, -OT, 4 },
    { 'f', "t l 30", -30.0, -OT, 4 },
    { 'f', "t l 40", -40.0, -OT, 4 },
    { 'f', "t l 50", -50.0, -OT, 4 },
    { 'f', "b 0", 0.0, OT, 4 },
    { 'f', "b r 10", 10.0, OT, 4 },
    { 'f', "b r 20", 20.0, OT, 4 },
    { 'f', "b r 30", 30.0, OT, 4 },
    { 'f', "b r 40", 40.0, OT, 4 },
    { 'f', "b r 50", 50.0, OT, 4 },
    { 'f', "b l 10", -10.0, OT, 4 },
    { 'f', "b l 20", -20.0, OT, 4 },
    { 'f', "b l 30", -30.0, OT, 4 },
    { 'f', "b l 40", -40.0, OT, 4 },
    { 'f', "b l 50", -50.0, OT, 4 },
    { 'f', "r 0", OG, 0.0, 4 },
    { 'f', "r t 10", OG, -10.0, 4 },
    { 'f', "r t 20", OG, -20.0, 4 },
    { 'f', "r t 30", OG, -30.0, 4 },
    { 'f', "r b 10", OG, 10.0, 4 },
    { 'f', "r b 20", OG, 20.0, 4 },
    { 'f', "r b 30", OG, 30.0, 4 },
    { 'f', "l 0", -OG, 0.0, 4 },
    { 'f', "l t 10", -OG, -10.0, 4 },
    { 'f', "l t 20", -OG, -20.0, 4 },
    { 'f', "l t 30", -OG, -30.0, 4 },
    { 'f', "l b 10", -OG, 10.0, 4 },
    { 'f', "l b 20", -OG, 20.0, 4 },
    { 'f', "l b 30", -OG, 30.0, 4 },
};

/* order of the line test: l, r, t, b (the first hit wins inside the pitch) */
const netgw_line_t netgw_lines[NETGW_LINE_COUNT] = {
    { 'l', 1, -PL },
    { 'r', 1, PL },
    { 't', 0, -PW },
    { 'b', 0, PW },
};
