/* test_hear.c -- what a player hears, by protocol version (docs/protocol/player.md §7):
 * exact message bytes for another player's say (v1-v6 truncated, v7 rounded and quoted,
 * v8+ our/opp with the direction truncated), the partial forms, self, the trainer and a
 * v<7 online coach, the referee; and the v8+ release rules (capacity, complete/partial
 * hearing, the attention target first, random otherwise) and the capacity refill. */
#include <criterion/criterion.h>
#include <string.h>
#include "geom.h"
#include "netgw_proto.h"

static char buf[512];

/* a speaker at -26.6 deg from the listener's body: v1-v6 truncate to -26, v7 rounds
 * to -27, v8+ truncate to -26 */
#define DIR deg2rad(-26.6)

Test(hear, player_say_heard_at_once_v1_to_v7, .timeout = 10)
{
    cr_assert_gt(proto_hear_say_now(1.0, 12, DIR, "hello", buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "(hear 12 -26 hello)");
    proto_hear_say_now(6.0, 12, DIR, "hello", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 12 -26 hello)");
    proto_hear_say_now(7.0, 12, DIR, "hello", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 12 -27 \"hello\")");
    /* directions are normalised first: 190 deg is -170 */
    proto_hear_say_now(7.0, 3, deg2rad(190.0), "x", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 3 -170 \"x\")");
}

Test(hear, player_say_v8_full_and_partial, .timeout = 10)
{
    cr_assert_gt(proto_hear_say_full(40, DIR, 1, 7, "pass", buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "(hear 40 -26 our 7 \"pass\")");
    proto_hear_say_full(40, DIR, 0, 7, "pass", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 40 -26 opp \"pass\")");
    proto_hear_say_partial(40, 1, 7, buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 40 our 7)");
    proto_hear_say_partial(40, 0, 7, buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 40 opp)");
}

Test(hear, self_coach_referee, .timeout = 10)
{
    proto_hear_self(6.0, 5, "abc", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 5 self abc)");
    proto_hear_self(7.0, 5, "abc", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 5 self \"abc\")");
    proto_hear_self(19.0, 5, "abc", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 5 self \"abc\")");
    /* the trainer: "referee" before v7, "coach" (quoted) from v7 */
    proto_hear_coach(6.0, SHM_SIDE_NONE, 9, "go", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 9 referee go)");
    proto_hear_coach(7.0, SHM_SIDE_NONE, 9, "go", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 9 coach \"go\")");
    /* a v<7 online coach's freeform */
    proto_hear_coach(1.0, SHM_SIDE_LEFT, 9, "go", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 9 online_coach_left go)");
    proto_hear_coach(18.0, SHM_SIDE_RIGHT, 9, "go", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 9 online_coach_right \"go\")");
    /* the referee: never quoted, every version */
    proto_hear_referee(0, "kick_off_l", buf, sizeof buf);
    cr_assert_str_eq(buf, "(hear 0 referee kick_off_l)");
}

Test(hear, too_small_buffer, .timeout = 10)
{
    char small[8];
    cr_assert_eq(proto_hear_say_full(40, 0.0, 1, 7, "pass", small, sizeof small), -1);
    cr_assert_eq(proto_hear_coach(7.0, 0, 9, "go", small, sizeof small), -1);
}

/* a full message needs capacity >= hear_decay and complete hearing of the speaker's team;
 * with too little capacity only the partial form (if partial hearing is on) */
Test(hear, decide, .timeout = 10)
{
    cr_assert_eq(proto_hear_decide(1, 1, 1, 0), PROTO_HEAR_FULL);
    cr_assert_eq(proto_hear_decide(1, 1, 1, 1), PROTO_HEAR_FULL);
    cr_assert_eq(proto_hear_decide(1, 1, 0, 1), PROTO_HEAR_NONE, "capacity, but complete off");
    cr_assert_eq(proto_hear_decide(0, 1, 1, 1), PROTO_HEAR_PARTIAL);
    cr_assert_eq(proto_hear_decide(0, 1, 1, 0), PROTO_HEAR_NONE);
    cr_assert_eq(proto_hear_decide(1, 2, 1, 0), PROTO_HEAR_NONE, "S0's decay 2 needs 2");
    cr_assert_eq(proto_hear_decide(2, 2, 1, 0), PROTO_HEAR_FULL);
}

/* hear_max = hear_inc = hear_decay = 1 (v19 defaults): one full message per team per
 * cycle; S0's 2/1/2: one every second cycle */
Test(hear, refill, .timeout = 10)
{
    cr_assert_eq(proto_hear_refill(0, 1, 1), 1);
    cr_assert_eq(proto_hear_refill(1, 1, 1), 1);
    int cap = 2, full = 0;
    for (int cycle = 0; cycle < 10; cycle++) {
        if (proto_hear_decide(cap, 2, 1, 0) == PROTO_HEAR_FULL) {
            cap -= 2;
            full++;
        }
        cap = proto_hear_refill(cap, 1, 2);
    }
    cr_assert_eq(full, 5);
}

/* the attention target's message is always taken first; otherwise every message is
 * picked with about equal frequency */
Test(hear, pick, .timeout = 10)
{
    rng_t rng;
    rng_seed(&rng, 3);
    int speakers[4] = { 2, 5, 13, 5 };
    for (int i = 0; i < 50; i++) {
        int k = proto_hear_pick(speakers, 4, 13, &rng);
        cr_assert_eq(k, 2);
    }
    int hits[4] = { 0 };
    for (int i = 0; i < 4000; i++) {
        int k = proto_hear_pick(speakers, 4, 5, &rng);
        cr_assert(k == 1 || k == 3, "one of the target's two messages");
        hits[k]++;
    }
    cr_assert(hits[1] > 1700 && hits[3] > 1700, "%d %d", hits[1], hits[3]);
    int any[4] = { 0 };
    for (int i = 0; i < 4000; i++)
        any[proto_hear_pick(speakers, 4, 20, &rng)]++; /* target said nothing */
    for (int k = 0; k < 4; k++)
        cr_assert(any[k] > 850 && any[k] < 1150, "slot %d picked %d times", k, any[k]);
    cr_assert_eq(proto_hear_pick(speakers, 1, -1, &rng), 0);
    cr_assert_eq(proto_hear_pick(speakers, 0, -1, &rng), -1);
}
