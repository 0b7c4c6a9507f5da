/* sim_ref_parts.c -- the referees of rcssserver 19 in the order it runs them
 * (docs/protocol/referee.md): each is a sim_ref_part_t defined in its own file, and the
 * dispatcher (sim_referee.c) hands every mode change, physics hook and analysis to them in
 * this order. The process gives this list to sim_referee_init in its sim_ref_table_t (with
 * the keepaway referee, which the dispatcher calls at its own points). */
#include "sim_ref.h"

const sim_ref_part_t *const sim_ref_parts[] = {
    &sim_ref_time_part,     /* sim_ref_time.c: halves, extra time, the end */
    &sim_ref_stuck_part,    /* sim_ref_time.c: ball stuck */
    &sim_ref_offside_part,  /* sim_ref_offside.c */
    &sim_ref_play_part,     /* sim_ref_play.c: set plays, free kick faults */
    &sim_ref_touch_part,    /* sim_ref_touch.c: goals, ball out of play, last toucher */
    &sim_ref_goalie_part,   /* sim_ref_goalie.c: catches, back passes */
    &sim_ref_foul_part,     /* sim_ref_foul.c: fouls and cards from tackles */
    &sim_ref_defense_part,  /* sim_ref_foul.c: illegal defense */
    &sim_ref_penalty_part,  /* sim_ref_penalty.c: the penalty shoot-out */
    NULL,
};
