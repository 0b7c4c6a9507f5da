/* netgw_coachhear.c -- the hear messages and notices of coach traffic (see
 * docs/protocol/coach.md §6; docs/protocol/clang.md §3): what the trainer (with its ear
 * on), an online coach and players hear of the referee, of the trainer's say, of a v<7
 * coach's freeform, of released coach-language messages and of players' says, and the
 * substitution and goalie notices. Names: referee, coach (the trainer to v7+ players),
 * online_coach_left / online_coach_right. Pure. */
#include <stdio.h>
#include "netgw_coach.h"

static int done(int n, size_t len)
{
    return n < 0 || (size_t)n >= len ? -1 : n;
}

static const char *coach_name(int side)
{
    return side == SHM_SIDE_LEFT ? "online_coach_left"
         : side == SHM_SIDE_RIGHT ? "online_coach_right" : "referee";
}

int coach_hear_referee(int listener, double version, int time, const char *msg,
                       char *buf, size_t len)
{
    (void)version;
    if (listener == COACH_TRAINER) /* every trainer version: name before time */
        return done(snprintf(buf, len, "(hear referee %d %s)", time, msg), len);
    return done(snprintf(buf, len, "(hear %d referee %s)", time, msg), len);
}

int coach_hear_coach_say(int listener, double version, int sender_side, int time,
                         const char *msg, char *buf, size_t len)
{
    if (listener == COACH_ONLINE) {
        /* online coaches hear the trainer (as the referee), never each other */
        if (sender_side != SHM_SIDE_NONE)
            return 0;
        return done(snprintf(buf, len, "(hear %d referee %s)", time, msg), len);
    }
    const char *name = coach_name(sender_side);
    if (version >= 7.0)
        return done(snprintf(buf, len, "(hear %d %s \"%s\")", time, name, msg), len);
    return done(snprintf(buf, len, "(hear %s %d %s)", name, time, msg), len);
}

int coach_hear_coach_say_player(double version, int sender_side, int time, const char *msg,
                                char *buf, size_t len)
{
    if (version >= 7.0) {
        const char *name = sender_side == SHM_SIDE_NONE ? "coach" : coach_name(sender_side);
        return done(snprintf(buf, len, "(hear %d %s \"%s\")", time, name, msg), len);
    }
    return done(snprintf(buf, len, "(hear %d %s %s)", time, coach_name(sender_side), msg),
                len);
}

int coach_hear_clang_player(int sender_side, int time, const char *msg, int supported,
                            char *buf, size_t len)
{
    return done(snprintf(buf, len, "(hear %d %s %s)", time, coach_name(sender_side),
                         supported ? msg : "(unsupported_clang)"), len);
}

int coach_hear_clang_trainer(double version, int sender_side, int time, const char *msg,
                             char *buf, size_t len)
{
    const char *name = coach_name(sender_side);
    if (version >= 7.0)
        return done(snprintf(buf, len, "(hear %d %s \"%s\")", time, name, msg), len);
    return done(snprintf(buf, len, "(hear %s %d %s)", name, time, msg), len);
}

int coach_hear_player(int listener, double version, int time, const char *name,
                      const char *msg, char *buf, size_t len)
{
    if (version >= 7.0)
        return done(snprintf(buf, len, "(hear %d %s \"%s\")", time, name, msg), len);
    if (listener == COACH_TRAINER)
        return done(snprintf(buf, len, "(hear %s %d %s)", name, time, msg), len);
    return done(snprintf(buf, len, "(hear %d %s %s)", time, name, msg), len);
}

int coach_notice_type(int own, int unum, int type, char *buf, size_t len)
{
    if (own)
        return done(snprintf(buf, len, "(change_player_type %d %d)", unum, type), len);
    return done(snprintf(buf, len, "(change_player_type %d)", unum), len);
}

int coach_notice_goalie(int side, int unum, char *buf, size_t len)
{
    return done(snprintf(buf, len, "(change_player_type %c %d goalie)",
                         side == SHM_SIDE_LEFT ? 'l' : 'r', unum), len);
}
