/* test_080_sampleclient.c -- rcssclient, the sample client (seeds 000/001 6.2.1), end to
 * end: it drives a player by hand through init, move, kick, turn and dash (the trainer,
 * itself an rcssclient on the trainer port, puts the ball at the player's feet, starts
 * play and reads the kicked ball back), follows the per-client port after the init, and
 * talks to the online-coach port. Lines typed go out as commands, every datagram
 * received comes out as one line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_proc.h"
#include "e2e_trainer.h"

static e2e_proc_t player, trainer, coach;
static char line[65536];

/* a sense_body line whose counter `item` (e.g. "(kick ") has reached n */
static int wait_count(e2e_proc_t *p, const char *item, int n)
{
    double end = e2e_now_ms() + 3000;
    while (e2e_now_ms() < end) {
        if (e2e_proc_expect(p, "(sense_body ", line, sizeof line, 1000) <= 0)
            continue;
        const char *c = strstr(line, item);
        if (c && atoi(c + strlen(item)) >= n)
            return 1;
    }
    return 0;
}

/* let n cycles pass: n more sense_body lines */
static void wait_cycles(e2e_proc_t *p, int n)
{
    for (int i = 0; i < n; i++)
        e2e_proc_expect(p, "(sense_body ", line, sizeof line, 2000);
}

Test(sampleclient, drives_a_player_by_hand, .timeout = 60)
{
    const char *args[] = { "server::coach_w_referee=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);

    /* the player: init on the player port; the reply comes from its own port, and the
     * move typed next reaches the player there (an init-port command would be refused
     * with only_init_allowed_on_init_port) */
    char port[16];
    snprintf(port, sizeof port, "%d", s.port);
    const char *pargv[] = { "rcssclient", "127.0.0.1", port, "--team", "Hand", NULL };
    cr_assert_eq(e2e_proc_start(&player, pargv), 0);
    cr_assert(e2e_proc_expect(&player, "(init ", line, sizeof line, 3000));
    cr_expect_str_eq(line, "(init l 1 before_kick_off)");
    cr_expect(e2e_proc_expect(&player, "(server_param ", line, sizeof line, 2000));
    e2e_proc_write(&player, "(move -10 5)");
    cr_expect(wait_count(&player, "(move ", 1), "the move reached the player");

    /* the trainer, on its port (server::coach_port; rcssclient takes it after the
     * host as PORT, so pass it with --port) */
    char cport[16];
    snprintf(cport, sizeof cport, "%d", s.coach_port);
    const char *targv[] = { "rcssclient", "--host", "127.0.0.1", "--port", cport,
                            "--trainer", "--version", "19", NULL };
    cr_assert_eq(e2e_proc_start(&trainer, targv), 0);
    cr_assert(e2e_proc_expect(&trainer, "(init ok)", line, sizeof line, 3000));
    /* the ball 0.6 m in front of the player (body 0: facing +x), play on */
    e2e_proc_write(&trainer, "(move (ball) -9.4 5)");
    cr_expect(e2e_proc_expect(&trainer, "(ok move)", line, sizeof line, 2000));
    e2e_proc_write(&trainer, "(change_mode play_on)");
    cr_expect(e2e_proc_expect(&trainer, "(ok change_mode)", line, sizeof line, 2000));
    wait_cycles(&player, 2); /* the trainer's commands are applied at the next step */

    /* kick straight ahead: counted only when the ball was within reach
     * (docs/protocol/player.md §10) */
    e2e_proc_write(&player, "(kick 80 0)");
    cr_expect(wait_count(&player, "(kick ", 1), "the kick happened");
    e2e_proc_write(&player, "(turn 60)");
    cr_expect(wait_count(&player, "(turn ", 1));
    e2e_proc_write(&player, "(dash 80)");
    cr_expect(wait_count(&player, "(dash ", 1));

    /* the trainer sees the ball gone forward: 80 % of a 2.7 m/cycle kick from -9.4 */
    e2e_proc_write(&trainer, "(look)");
    cr_assert(e2e_proc_expect(&trainer, "(ok look ", line, sizeof line, 2000));
    e2e_world_t w;
    cr_assert_eq(e2e_parse_visual(line, &w), 0);
    cr_expect_gt(w.ball.x, -6.0, "ball at %g after the kick", w.ball.x);
    e2e_obj_t *pl = e2e_world_player(&w, "Hand", 1);
    cr_assert_not_null(pl);
    cr_expect(pl->body > 30 && pl->body < 90, "body %d after (turn 60)", pl->body);

    e2e_proc_stop(&player);
    e2e_proc_stop(&trainer);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(sampleclient, online_coach_and_typed_init, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    /* a player typed by hand: no --team, the init is a typed line */
    char port[16], oport[16];
    snprintf(port, sizeof port, "%d", s.port);
    snprintf(oport, sizeof oport, "%d", s.olcoach_port);
    const char *pargv[] = { "rcssclient", "127.0.0.1", port, "--verbose", NULL };
    cr_assert_eq(e2e_proc_start(&player, pargv), 0);
    e2e_proc_write(&player, "(init Typed (version 9))");
    cr_assert(e2e_proc_expect(&player, ": (init l 1 before_kick_off)", line, sizeof line, 3000));
    /* --verbose shows the port: the reply came from the player's own port */
    int own = atoi(line + 5);
    cr_expect(strncmp(line, "recv ", 5) == 0 && own > 0 && own != s.port, "%s", line);
    e2e_proc_write(&player, "(move -20 0)");
    char want[64];
    snprintf(want, sizeof want, "send %d : (move -20 0)", own);
    cr_expect(e2e_proc_expect(&player, want, line, sizeof line, 3000),
              "the next command goes to port %d", own);

    /* the online coach of that team on the coach port */
    const char *cargv[] = { "rcssclient", "--port", oport, "--coach", "--team", "Typed", NULL };
    cr_assert_eq(e2e_proc_start(&coach, cargv), 0);
    cr_assert(e2e_proc_expect(&coach, "(init l ok)", line, sizeof line, 3000));
    e2e_proc_write(&coach, "(team_names)");
    cr_expect(e2e_proc_expect(&coach, "(ok team_names (team l Typed)", line, sizeof line, 2000),
              "%s", line);
    /* stdin closed: rcssclient leaves after its linger time */
    e2e_proc_close_stdin(&coach);
    cr_expect_eq(e2e_proc_wait(&coach, 5000), 0);

    e2e_proc_stop(&player);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
