/* playmode.c -- play-mode names and reference number formatting. */
#include <stdio.h>
#include <string.h>
#include "numfmt.h"
#include "playmode.h"

static const char *const names[PM_MAX] = {
    "", "before_kick_off", "time_over", "play_on",
    "kick_off_l", "kick_off_r", "kick_in_l", "kick_in_r",
    "free_kick_l", "free_kick_r", "corner_kick_l", "corner_kick_r",
    "goal_kick_l", "goal_kick_r", "goal_l", "goal_r",
    "drop_ball", "offside_l", "offside_r", "penalty_kick_l", "penalty_kick_r",
    "first_half_over", "pause", "human_judge",
    "foul_charge_l", "foul_charge_r", "foul_push_l", "foul_push_r",
    "foul_multiple_attack_l", "foul_multiple_attack_r", "foul_ballout_l", "foul_ballout_r",
    "back_pass_l", "back_pass_r", "free_kick_fault_l", "free_kick_fault_r",
    "catch_fault_l", "catch_fault_r", "indirect_free_kick_l", "indirect_free_kick_r",
    "penalty_setup_l", "penalty_setup_r", "penalty_ready_l", "penalty_ready_r",
    "penalty_taken_l", "penalty_taken_r", "penalty_miss_l", "penalty_miss_r",
    "penalty_score_l", "penalty_score_r", "illegal_defense_l", "illegal_defense_r",
};

const char *playmode_name(int pm)
{
    return (pm >= 0 && pm < PM_MAX) ? names[pm] : "";
}

int playmode_lookup(const char *name)
{
    for (int i = 1; i < PM_MAX; i++) {
        if (strcmp(names[i], name) == 0)
            return i;
    }
    return -1;
}

int fmt_real(char *buf, size_t len, double v)
{
    if (v == 0.0)
        v = 0.0; /* turns -0 into 0 */
    if (len >= NUMFMT_MAX)
        return numfmt_g6(buf, v);
    return snprintf(buf, len, "%.6g", v);
}
