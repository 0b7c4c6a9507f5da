/* test_notes.c -- the lines the sim keeps for stdout (sim_world_note,
 * docs/protocol/logs.md §8): a player taken off the field is said once, in the
 * reference's words; the first kick-off's type assignment names each player it changes,
 * in the order it goes (each team's goalie first); printing empties them; a line that
 * does not fit is left out whole. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "test_sim_util.h"

static sim_world_t w;

/* the notes printed, as one string */
static const char *printed(void)
{
    static char out[SIM_NOTES_LEN + 1];
    memset(out, 0, sizeof out);
    FILE *f = fmemopen(out, sizeof out - 1, "w");
    cr_assert_not_null(f);
    sim_world_print_notes(&w, f);
    fclose(f);
    return out;
}

Test(notes, a_player_taken_off_is_said_once, .timeout = 10)
{
    test_world(&w, 1, 1);
    strcpy(w.team[0], "Alpha");
    strcpy(w.team[1], "Beta");
    test_player(&w, SHM_SIDE_LEFT, 3, -10.0, 0.0, 0.0);
    test_player(&w, SHM_SIDE_RIGHT, 11, 10.0, 0.0, 180.0);
    cr_expect_str_eq(printed(), "", "joining says nothing here (the gateway says it)");
    sim_player_disable(&w, shm_player_index(SHM_SIDE_LEFT, 3));
    sim_player_disable(&w, shm_player_index(SHM_SIDE_LEFT, 3)); /* already off */
    sim_player_disable(&w, shm_player_index(SHM_SIDE_LEFT, 4));  /* never on */
    sim_player_disable(&w, shm_player_index(SHM_SIDE_RIGHT, 11));
    cr_expect_str_eq(printed(), "A player disconnected : (Alpha 3)\n"
                                "A player disconnected : (Beta 11)\n");
    cr_expect_str_eq(printed(), "", "printed once");
    cr_expect_eq(w.notes_len, 0);
}

Test(notes, the_first_kick_off_names_the_types_it_changes, .timeout = 10)
{
    test_world(&w, 1, 1);
    strcpy(w.team[0], "Alpha");
    strcpy(w.team[1], "Beta");
    for (int u = 1; u <= 3; u++)
        test_player(&w, SHM_SIDE_LEFT, u, -10.0 * u, 0.0, 0.0);
    w.pl[shm_player_index(SHM_SIDE_LEFT, 3)].sh.goalie = 1;
    test_player(&w, SHM_SIDE_RIGHT, 1, 10.0, 0.0, 180.0);
    cr_expect_eq(sim_referee_kick_off(&w), 0);
    /* pt_max 1 and no second default type: the goalie keeps type 0 (he goes first),
     * the others get the next free types; Beta's single player keeps his */
    cr_expect_str_eq(printed(), "rcssserver changes (player Alpha 1) to type 1\n"
                                "rcssserver changes (player Alpha 2) to type 2\n");
    cr_expect_eq(w.pl[shm_player_index(SHM_SIDE_LEFT, 3)].sh.type, 0);
    cr_expect_eq(w.pl[shm_player_index(SHM_SIDE_LEFT, 2)].sh.type, 2);
}

Test(notes, a_line_that_does_not_fit_is_left_out_whole, .timeout = 10)
{
    test_world(&w, 1, 1);
    char name[200];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    int n = 0;
    while (w.notes_len + sizeof name < sizeof w.notes) {
        sim_world_note(&w, "%s", name);
        n++;
    }
    size_t before = w.notes_len;
    sim_world_note(&w, "%s", name); /* does not fit */
    sim_world_note(&w, "%s", name);
    cr_expect_eq(w.notes_len, before);
    cr_expect_eq(w.notes[w.notes_len], '\0');
    const char *out = printed();
    cr_expect_eq(strlen(out), (size_t)n * sizeof name, "%d whole lines", n);
    cr_expect_eq(out[strlen(out) - 1], '\n');
}
