/* netgw_hear.c -- what a player hears (spec player-sim.md 1.6 and 5), as pure functions:
 * the message forms by protocol version (other players, self, coaches and the trainer,
 * the referee), the v8+ release rules (which cached message comes next: the attention
 * target's first, otherwise any, at random; full form if the capacity for the speaker's
 * team allows and complete hearing is on, else the partial form if that is on) and the
 * capacity bookkeeping. The gateway keeps the state (netgw_audio.c). */
#include <math.h>
#include <stdio.h>
#include "geom.h"
#include "netgw_proto.h"

static int hear_done(int n, size_t len)
{
    return n < 0 || (size_t)n >= len ? -1 : n;
}

/* direction of a speaker relative to the listener's body: truncated toward zero, but
 * rounded for a v7 listener of an immediate (v1-v7) message */
static int hear_dir(double dir_rad, int rounded)
{
    double d = rad2deg(angle_norm(dir_rad));
    if (!isfinite(d))
        return 0;
    return rounded ? (int)rint(d) : (int)d;
}

int proto_hear_say_now(double version, int time, double dir_rad, const char *msg,
                       char *buf, size_t len)
{
    if (version >= 7.0)
        return hear_done(snprintf(buf, len, "(hear %d %d \"%s\")", time,
                                  hear_dir(dir_rad, 1), msg), len);
    return hear_done(snprintf(buf, len, "(hear %d %d %s)", time, hear_dir(dir_rad, 0), msg),
                     len);
}

int proto_hear_say_full(int time, double dir_rad, int own, int unum, const char *msg,
                        char *buf, size_t len)
{
    int dir = hear_dir(dir_rad, 0);
    if (own)
        return hear_done(snprintf(buf, len, "(hear %d %d our %d \"%s\")", time, dir, unum, msg),
                         len);
    return hear_done(snprintf(buf, len, "(hear %d %d opp \"%s\")", time, dir, msg), len);
}

int proto_hear_say_partial(int time, int own, int unum, char *buf, size_t len)
{
    if (own)
        return hear_done(snprintf(buf, len, "(hear %d our %d)", time, unum), len);
    return hear_done(snprintf(buf, len, "(hear %d opp)", time), len);
}

int proto_hear_self(double version, int time, const char *msg, char *buf, size_t len)
{
    if (version >= 7.0)
        return hear_done(snprintf(buf, len, "(hear %d self \"%s\")", time, msg), len);
    return hear_done(snprintf(buf, len, "(hear %d self %s)", time, msg), len);
}

/* A trainer's say (sender_side 0) or an online coach's freeform of a v<7 coach:
 * "referee" / "coach" for the trainer (before / from v7), online_coach_left/right */
int proto_hear_coach(double version, int sender_side, int time, const char *msg, char *buf,
                     size_t len)
{
    const char *name = sender_side == SHM_SIDE_LEFT ? "online_coach_left"
                     : sender_side == SHM_SIDE_RIGHT ? "online_coach_right"
                     : version >= 7.0 ? "coach" : "referee";
    if (version >= 7.0)
        return hear_done(snprintf(buf, len, "(hear %d %s \"%s\")", time, name, msg), len);
    return hear_done(snprintf(buf, len, "(hear %d %s %s)", time, name, msg), len);
}

int proto_hear_referee(int time, const char *msg, char *buf, size_t len)
{
    return hear_done(snprintf(buf, len, "(hear %d referee %s)", time, msg), len);
}

int proto_hear_decide(int cap, int hear_decay, int complete, int partial)
{
    if (cap >= hear_decay)
        return complete ? PROTO_HEAR_FULL : PROTO_HEAR_NONE;
    return partial ? PROTO_HEAR_PARTIAL : PROTO_HEAR_NONE;
}

int proto_hear_pick(const int *speaker, int n, int focus, rng_t *rng)
{
    if (n <= 0)
        return -1;
    int k = 0;
    if (focus >= 0) {
        for (int i = 0; i < n; i++)
            k += speaker[i] == focus;
    }
    if (k == 0) { /* no message of the attention target: any, at random */
        if (n == 1)
            return 0;
        return (int)(rng_unit(rng) * n) % n;
    }
    int pick = k == 1 ? 0 : (int)(rng_unit(rng) * k) % k;
    for (int i = 0; i < n; i++) {
        if (speaker[i] == focus && pick-- == 0)
            return i;
    }
    return -1;
}

int proto_hear_refill(int cap, int hear_inc, int hear_max)
{
    cap += hear_inc;
    return cap > hear_max ? hear_max : cap;
}
