/* test_player_reply.c -- replies only the sim can decide, emitted as SHM_EV_PLAYER_REPLY
 * for the player's gateway (docs/protocol/player.md §10, move row): the warning for a move into
 * the opponent half before the kick-off and the error for a goalie's extra moves. */
#include <criterion/criterion.h>
#include <stdio.h>
#include "playmode.h"
#include "test_sim_util.h"

static sim_world_t w;
static char replies[512];

static void capture(void *ctx, const shm_event_sh_t *ev)
{
    (void)ctx;
    if (ev->kind != SHM_EV_PLAYER_REPLY)
        return;
    char line[128];
    snprintf(line, sizeof line, "%d %d %.*s;", ev->side, ev->unum, ev->len, ev->text);
    strncat(replies, line, sizeof replies - strlen(replies) - 1);
}

static void setup(void)
{
    test_world(&w, 1, 1);
    replies[0] = '\0';
    w.emit = capture;
}

Test(player_reply, move_into_the_opponent_half_before_kick_off, .init = setup, .timeout = 10)
{
    test_player(&w, SHM_SIDE_LEFT, 2, -20.0, 0.0, 0.0);
    test_player(&w, SHM_SIDE_RIGHT, 3, 20.0, 0.0, 0.0);
    /* x >= -player_size (0.3): warned, and the move is still done */
    test_apply(&w, SHM_SIDE_LEFT, 2, SHM_CMD_MOVE, -0.3, 5.0);
    cr_expect_str_eq(replies, "1 2 (warning moving_to_opponent_field);");
    cr_expect_float_eq(w.pl[shm_player_index(SHM_SIDE_LEFT, 2)].sh.x, -0.3, 1e-9);
    /* side-relative x: the right player's -10 is its own half, no warning */
    replies[0] = '\0';
    test_apply(&w, SHM_SIDE_RIGHT, 3, SHM_CMD_MOVE, -10.0, 0.0);
    cr_expect_str_eq(replies, "");
    /* x just below -player_size: no warning */
    w.pl[shm_player_index(SHM_SIDE_LEFT, 2)].body_used = 0;
    test_apply(&w, SHM_SIDE_LEFT, 2, SHM_CMD_MOVE, -0.31, 0.0);
    cr_expect_str_eq(replies, "");
}

Test(player_reply, no_warning_without_the_kick_off_offside_rule, .timeout = 10)
{
    test_world(&w, 1, 1);
    test_conf_set("server", "forbid_kick_off_offside", "false");
    replies[0] = '\0';
    w.emit = capture;
    test_player(&w, SHM_SIDE_LEFT, 2, -20.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 2, SHM_CMD_MOVE, 10.0, 0.0);
    cr_expect_str_eq(replies, "");
}

Test(player_reply, goalie_moves_beyond_goalie_max_moves, .init = setup, .timeout = 10)
{
    sim_player_t *g = test_player(&w, SHM_SIDE_RIGHT, 1, 40.0, 0.0, 0.0);
    g->sh.goalie = 1;
    int idx = shm_player_index(SHM_SIDE_RIGHT, 1);
    w.play_mode = PM_FREE_KICK_R;
    w.catcher = idx;
    /* goalie_max_moves 2: two moves, the third is refused with the error reply */
    for (int i = 0; i < 3; i++) {
        g->body_used = 0;
        test_apply(&w, SHM_SIDE_RIGHT, 1, SHM_CMD_MOVE, -40.0 - i, 0.0);
    }
    cr_expect_str_eq(replies, "-1 1 (error too_many_moves);");
    cr_expect_float_eq(g->sh.x, 41.0, 1e-9, "the second move (-41 side-relative) stands");
    cr_expect_eq(g->sh.count[SHM_CNT_MOVE], 3, "the refused move is still counted");
    cr_expect(g->body_used, "and uses the body slot");
}
