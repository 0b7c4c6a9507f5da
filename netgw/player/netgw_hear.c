/* netgw_hear.c -- what a player hears (docs/protocol/player.md §7), as pure functions:
 * the message forms by protocol version (other players, self, coaches and the trainer,
 * the referee), the v8+ release rules (which cached message comes next: the attention
 * target's first, otherwise any, at random; full form if the capacity for the speaker's
 * team allows and complete hearing is on, else the partial form if that is on) and the
 * capacity bookkeeping. The gateway keeps the state (netgw_audio.c). */
#include <math.h>
#include "geom.h"
#include "netgw_proto.h"
#include "strbuf.h"

/* the end of a message: its length, or -1 if it did not fit */
static int hear_done(strbuf_t *o)
{
    return o->overflow ? -1 : (int)o->pos;
}

/* "(hear T " */
static void hear_head(strbuf_t *o, int time)
{
    strbuf_puts(o, "(hear ");
    strbuf_int(o, time);
    strbuf_putc(o, ' ');
}

/* MSG), quoted from v7: "MSG") */
static void hear_msg(strbuf_t *o, const char *msg, int quoted)
{
    if (quoted)
        strbuf_putc(o, '"');
    strbuf_puts(o, msg);
    strbuf_puts(o, quoted ? "\")" : ")");
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
    strbuf_t o = { buf, len, 0, 0 };
    hear_head(&o, time);
    strbuf_int(&o, hear_dir(dir_rad, version >= 7.0));
    strbuf_putc(&o, ' ');
    hear_msg(&o, msg, version >= 7.0);
    return hear_done(&o);
}

int proto_hear_say_full(int time, double dir_rad, int own, int unum, const char *msg,
                        char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    hear_head(&o, time);
    strbuf_int(&o, hear_dir(dir_rad, 0));
    if (own) {
        strbuf_puts(&o, " our ");
        strbuf_int(&o, unum);
        strbuf_putc(&o, ' ');
    } else {
        strbuf_puts(&o, " opp ");
    }
    hear_msg(&o, msg, 1);
    return hear_done(&o);
}

int proto_hear_say_partial(int time, int own, int unum, char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    hear_head(&o, time);
    if (own) {
        strbuf_puts(&o, "our ");
        strbuf_int(&o, unum);
        strbuf_putc(&o, ')');
    } else {
        strbuf_puts(&o, "opp)");
    }
    return hear_done(&o);
}

int proto_hear_self(double version, int time, const char *msg, char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    hear_head(&o, time);
    strbuf_puts(&o, "self ");
    hear_msg(&o, msg, version >= 7.0);
    return hear_done(&o);
}

/* A trainer's say (sender_side 0) or an online coach's freeform of a v<7 coach:
 * "referee" / "coach" for the trainer (before / from v7), online_coach_left/right */
int proto_hear_coach(double version, int sender_side, int time, const char *msg, char *buf,
                     size_t len)
{
    const char *name = sender_side == SHM_SIDE_LEFT ? "online_coach_left"
                     : sender_side == SHM_SIDE_RIGHT ? "online_coach_right"
                     : version >= 7.0 ? "coach" : "referee";
    strbuf_t o = { buf, len, 0, 0 };
    hear_head(&o, time);
    strbuf_puts(&o, name);
    strbuf_putc(&o, ' ');
    hear_msg(&o, msg, version >= 7.0);
    return hear_done(&o);
}

int proto_hear_referee(int time, const char *msg, char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    hear_head(&o, time);
    strbuf_puts(&o, "referee ");
    hear_msg(&o, msg, 0);
    return hear_done(&o);
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
