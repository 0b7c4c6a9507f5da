/* netgw_landmarks.h -- the fixed flags, goals and lines a player can see (see
 * docs/protocol/player.md §5.7), in the order they appear in a see message. Private to the see
 * builder (netgw_see.c) and its tests. */
#ifndef RCSS_NETGW_LANDMARKS_H
#define RCSS_NETGW_LANDMARKS_H

#define NETGW_LANDMARK_COUNT 55
#define NETGW_LINE_COUNT     4

typedef struct netgw_landmark {
    char        kind;          /* 'f' flag or 'g' goal */
    const char *name;          /* name after the kind: "c t", "r", "t l 10" */
    double      x, y;          /* m, absolute frame */
    int         version;       /* lowest protocol version that sees it (3 or 4) */
} netgw_landmark_t;

typedef struct netgw_line {
    char   name;               /* 'l', 'r', 't', 'b' */
    int    vertical;           /* 1: x = pos, 0: y = pos */
    double pos;                /* m */
} netgw_line_t;

extern const netgw_landmark_t netgw_landmarks[NETGW_LANDMARK_COUNT];
extern const netgw_line_t     netgw_lines[NETGW_LINE_COUNT];

#endif
