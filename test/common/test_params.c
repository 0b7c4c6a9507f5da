/* test_params.c -- the parameter table: counts, lookup, order, tags, hash. */
#include <criterion/criterion.h>
#include <string.h>
#include "params.h"

Test(params, counts)
{
    int server = 0, player = 0, ext = 0, mon = 0;
    for (int i = 0; i < PARAM_COUNT; i++) {
        const param_def_t *d = &param_defs[i];
        if (d->tag == PARAM_TAG_EXTENSION)
            ext++;
        else if (strcmp(d->module, "server") == 0)
            server++;
        else if (strcmp(d->module, "player") == 0)
            player++;
        mon += d->tag == PARAM_TAG_MONITOR;
    }
    cr_assert_eq(server, 202);
    cr_assert_eq(player, 29);
    cr_assert_eq(mon, 2);
    cr_assert_eq(PARAM_COUNT, 202 + 29 + ext);
    cr_assert_gt(ext, 0);
}

Test(params, lookup)
{
    cr_assert_eq(param_lookup("server", "port"), SP_port);
    cr_assert_eq(param_lookup("player", "player_types"), PP_player_types);
    cr_assert_eq(param_lookup("player", "random_seed"), PP_random_seed);
    cr_assert_eq(param_lookup("server", "random_seed"), SP_random_seed);
    cr_assert_eq(param_lookup("player", "port"), -1);
    cr_assert_eq(param_lookup("server", "nope"), -1);
    cr_assert_eq(param_lookup("", ""), -1);
    cr_assert_eq(param_defs[SP_half_time].type, PARAM_INT);
    cr_assert_eq(param_defs[SP_coach].type, PARAM_BOOL);
    cr_assert_eq(param_defs[SP_ball_decay].type, PARAM_REAL);
    cr_assert_eq(param_defs[SP_game_log_dir].type, PARAM_STR);
}

Test(params, alphabetical_per_module_extensions_last)
{
    int seen_ext = 0;
    for (int i = 1; i < PARAM_COUNT; i++) {
        const param_def_t *a = &param_defs[i - 1], *b = &param_defs[i];
        if (b->tag == PARAM_TAG_EXTENSION) {
            seen_ext = 1;
            continue;
        }
        cr_assert_eq(seen_ext, 0, "%s after the extensions", b->name);
        if (strcmp(a->module, b->module) == 0)
            cr_assert_lt(strcmp(a->name, b->name), 0, "%s / %s", a->name, b->name);
    }
}

Test(params, tags)
{
    cr_assert_eq(param_defs[SP_port].tag, 8);
    cr_assert_eq(param_defs[SP_auto_mode].tag, 9);
    cr_assert_eq(param_defs[SP_goal_width].tag, 7);
    cr_assert_eq(param_defs[SP_max_monitors].tag, PARAM_TAG_MONITOR);
    cr_assert_eq(param_defs[SP_dist_noise_rate].tag, 19);
    cr_assert_eq(param_defs[SP_shm_name].tag, PARAM_TAG_EXTENSION);
}

Test(params, hash_stable)
{
    uint32_t h = param_table_hash();
    cr_assert_eq(h, param_table_hash());
    cr_assert_neq(h, 0);
    cr_assert_neq(h, 2166136261u, "not the empty-input hash");
}
