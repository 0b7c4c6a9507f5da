/* test_050_olcoach.c -- online coaches end to end (docs/protocol/coach.md §1-§6,
 * §9, §11; docs/protocol/logs.md §6): who may connect and the init replies per version, what a new coach is
 * told (substitutions so far, its players' coach-language ranges, coach_msg_file),
 * visual information with the fixed team names, the replies of every command, the old
 * (v<7) freeform say, team-graphic tiles with their event for monitors and logs,
 * compressed traffic of coaches and the trainer, and coach datagrams as text-log
 * events. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <zlib.h>

#include "e2e.h"
#include "e2e_trainer.h"
#include "shm.h"

static char buf[65536];

static int player(const e2e_server_t *s, const char *init, int *port)
{
    int fd = e2e_udp_open();
    cr_assert_geq(fd, 0);
    e2e_send(fd, s->port, init);
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 2000, port), 0, "%s", init);
    return fd;
}

/* the first datagram starting with prefix, from any port */
static int ask(int fd, int port, const char *msg, const char *prefix)
{
    e2e_send(fd, port, msg);
    return e2e_recv_prefix(fd, prefix, buf, sizeof buf, 2000, NULL);
}

/* an online coach: init sent, the reply's port in *port; the init reply in buf */
static int coach(const e2e_server_t *s, const char *init, int *port)
{
    int fd = e2e_udp_open();
    cr_assert_geq(fd, 0);
    e2e_send(fd, s->olcoach_port, init);
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 2000, port), 0, "%s", init);
    return fd;
}

/* a reply to a command on the coach's own port: ok, error or warning */
static const char *reply(int fd, int port, const char *cmd)
{
    e2e_send(fd, port, cmd);
    double end = e2e_now_ms() + 2000;
    while (e2e_now_ms() < end) {
        if (e2e_recv(fd, buf, sizeof buf, 200, NULL) <= 0)
            continue;
        if (strncmp(buf, "(ok ", 4) == 0 || strncmp(buf, "(error ", 7) == 0
            || strncmp(buf, "(warning ", 9) == 0)
            return buf;
    }
    return "";
}

#define TILE_8X8 "\"8 8 1 1\" \"a c #000000\" \"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\" " \
                 "\"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\""

Test(olcoach, init_replies_and_errors, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int fd = e2e_udp_open();
    /* coach.md §2: a team must have a player first */
    cr_expect_gt(ask(fd, s.olcoach_port, "(init TeamA (version 19))", "(error "), 0);
    cr_expect_str_eq(buf, "(error no_such_team)");
    int pa = player(&s, "(init TeamA (version 19))", NULL);
    /* the reference's quirk: a team name alone is an ill-formed init */
    cr_expect_gt(ask(fd, s.olcoach_port, "(init TeamA)", "(error "), 0);
    cr_expect_str_eq(buf, "(error illegal_command_form)");
    cr_expect_gt(ask(fd, s.olcoach_port, "(init TeamA (version 4))", "(error "), 0);
    cr_expect_str_eq(buf, "(error illegal_client_version)");
    int port;
    int ca = coach(&s, "(init TeamA Coachy (version 19))", &port);
    cr_expect_str_eq(buf, "(init l ok)");
    cr_expect_neq(port, s.olcoach_port, "replies come from the coach's own socket");
    /* one coach per team */
    cr_expect_gt(ask(fd, s.olcoach_port, "(init TeamA (version 19))", "(error "), 0);
    cr_expect_str_eq(buf, "(error already_have_coach)");
    /* a v8+ coach must use its own port after init */
    cr_expect_gt(ask(ca, s.olcoach_port, "(look)", "(error "), 0);
    cr_expect_str_eq(buf, "(error only_init_allowed_on_init_port)");
    /* coach.md §4: what is not a coach command */
    cr_expect_str_eq(reply(ca, port, "(change_player_types (1 2))"), "(error unknown_command)");
    cr_expect_str_eq(reply(ca, port, "(ear on)"), "(error unknown_command)");
    cr_expect_str_eq(reply(ca, port, "garbage"), "(error illegal_command_form)");
    cr_expect_str_eq(reply(ca, port, "(eye maybe)"), "(error illegal_command_form)");
    cr_expect_str_eq(reply(ca, port, "(change_player_type x)"), "(error illegal_command_form)");
    /* a v5 coach of the other team: the old reply without the side */
    int pb = player(&s, "(init TeamB (version 19))", NULL);
    int cb = coach(&s, "(init TeamB Other)", NULL);
    cr_expect_str_eq(buf, "(init ok)");
    close(fd);
    close(ca);
    close(cb);
    close(pa);
    close(pb);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(olcoach, what_a_new_coach_is_told, .timeout = 30)
{
    char path[] = "/tmp/rcss-e2e-coachmsg-XXXXXX";
    int mf = mkstemp(path);
    cr_assert_geq(mf, 0);
    const char *text = "(define (definec \"x\" (true)))\nsecond line";
    cr_assert_eq(write(mf, text, strlen(text)), (ssize_t)strlen(text));
    close(mf);
    char arg[128];
    snprintf(arg, sizeof arg, "server::coach_msg_file=%s", path);
    const char *args[] = { "server::coach_w_referee=true", arg, NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int a1port;
    int a1 = player(&s, "(init TeamA (version 19))", &a1port);
    int a2 = player(&s, "(init TeamA (version 19))", NULL);
    int b1 = player(&s, "(init TeamB (version 19))", NULL);
    e2e_send(a1, a1port, "(clang (ver 7 8))");
    cr_expect_gt(e2e_recv_prefix(a1, "(ok clang ", buf, sizeof buf, 2000, NULL), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_expect_eq(e2e_trainer_change_type(&t, "TeamA", 2, 3), 0);
    cr_expect_eq(e2e_trainer_change_type(&t, "TeamB", 1, 4), 0);
    /* coach.md §2: after the parameters, the substitutions so far (own team with the type, the
     * opponents without), the teammates' coach-language ranges (v8+), and from v11 the
     * coach_msg_file as (include SIZE TEXT) */
    int ca = coach(&s, "(init TeamA (version 19))", NULL);
    cr_expect_gt(e2e_recv_prefix(ca, "(change_player_type ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(change_player_type 2 3)");
    cr_expect_gt(e2e_recv_prefix(ca, "(change_player_type ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(change_player_type 1)");
    cr_expect_gt(e2e_recv_prefix(ca, "(clang ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(clang (ver (p \"TeamA\" 1) 7 8))");
    cr_expect_gt(e2e_recv_prefix(ca, "(include ", buf, sizeof buf, 2000, NULL), 0);
    char expect[256];
    snprintf(expect, sizeof expect, "(include %zu %s)", strlen(text), text);
    cr_expect_str_eq(buf, expect);
    /* a range announced later reaches the coach too */
    int a3port;
    int a3 = player(&s, "(init TeamA (version 19))", &a3port);
    e2e_send(a3, a3port, "(clang (ver 8 8))");
    cr_expect_gt(e2e_recv_prefix(ca, "(clang ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(clang (ver (p \"TeamA\" 3) 8 8))");
    /* a v10 coach gets no include */
    int cb = coach(&s, "(init TeamB (version 10))", NULL);
    cr_expect_str_eq(buf, "(init r ok)");
    cr_expect_eq(e2e_recv_prefix(cb, "(include ", buf, sizeof buf, 300, NULL), 0);
    e2e_trainer_close(&t);
    close(ca);
    close(cb);
    close(a1);
    close(a2);
    close(a3);
    close(b1);
    unlink(path);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(olcoach, sees_with_fixed_team_names, .timeout = 30)
{
    const char *args[] = { "server::coach=true", "server::fixed_teamname_r=Opp", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int a1 = player(&s, "(init TeamA (version 19) (goalie))", NULL);
    int b1 = player(&s, "(init TeamB (version 19))", NULL);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_expect_eq(e2e_trainer_move_player(&t, "TeamA", 1, -40.0, 2.0, 0.0, 0.0, 0.0), 0);
    cr_expect_eq(e2e_trainer_move_ball(&t, 3.0, 4.0, 0.0, 0.0), 0);
    e2e_world_t w;
    cr_assert_eq(e2e_trainer_wait_cycles(&t, 1, &w), 0);
    int port;
    int ca = coach(&s, "(init TeamA (version 19))", &port);
    /* coach.md §5: the opponents of an online coach carry server::fixed_teamname_r */
    cr_expect_str_eq(reply(ca, port, "(team_names)"),
                     "(ok team_names (team l TeamA) (team r Opp))\n");
    cr_expect_eq(strncmp(reply(ca, port, "(look)"), "(ok look 0 ", 11), 0, "%s", buf);
    cr_expect(strstr(buf, " ((g r) 52.5 0) ((g l) -52.5 0) ((b) 3 4 0 0) "
                          "((p \"TeamA\" 1 goalie) -40 2 0 0 0 0) ((p \"Opp\" 1) ") != NULL,
              "%s", buf);
    cr_expect_str_eq(reply(ca, port, "(eye on)"), "(ok eye on)");
    cr_expect_gt(e2e_recv_prefix(ca, "(see_global ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect(strstr(buf, "((p \"Opp\" 1)") != NULL, "%s", buf);
    cr_expect_str_eq(reply(ca, port, "(check_ball)"), "(ok check_ball 0 in_field)");
    cr_expect_str_eq(reply(ca, port, "(eye off)"), "(ok eye off)");
    /* the trainer sees the real names */
    cr_expect_eq(e2e_trainer_look(&t, &w), 0);
    cr_expect_neq(e2e_world_player(&w, "TeamB", 1), NULL, "%s", t.last);
    e2e_trainer_close(&t);
    close(ca);
    close(a1);
    close(b1);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(olcoach, old_freeform_say, .timeout = 30)
{
    const char *args[] = { "server::coach=true", "server::say_coach_cnt_max=2", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int a1 = player(&s, "(init TeamA (version 19))", NULL);
    int b1 = player(&s, "(init TeamB (version 19))", NULL);
    int b2 = player(&s, "(init TeamB (version 6))", NULL);
    int port;
    int cb = coach(&s, "(init TeamB Oldie (version 6))", &port);
    cr_expect_str_eq(buf, "(init r ok)");
    /* coach.md §4; clang.md §3: before v7 a raw text, outside play_on only, heard by every player */
    cr_expect_str_eq(reply(cb, port, "(say hello there)"), "(ok say)");
    cr_expect_gt(e2e_recv_prefix(a1, "(hear ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(hear 0 online_coach_right \"hello there\")");
    cr_expect_gt(e2e_recv_prefix(b1, "(hear ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(hear 0 online_coach_right \"hello there\")");
    cr_expect_gt(e2e_recv_prefix(b2, "(hear ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(hear 0 online_coach_right hello there)");
    /* say_coach_cnt_max = 2: the third is refused */
    cr_expect_str_eq(reply(cb, port, "(say again)"), "(ok say)");
    cr_expect_str_eq(reply(cb, port, "(say third)"), "(error said_too_many_messages)");
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_expect_eq(e2e_trainer_change_mode(&t, "play_on"), 0);
    cr_expect_gt(e2e_recv_prefix(cb, "(hear 0 referee play_on)", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(reply(cb, port, "(say in play)"), "(warning cannot_say_while_playon)");
    e2e_trainer_close(&t);
    close(cb);
    close(a1);
    close(b1);
    close(b2);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* the event ring of the server's region: the first event of kind whose text starts
 * with prefix (side and text into *side, buf); 0 if there is none */
static int find_event(const e2e_server_t *s, int kind, const char *prefix, int *side)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, s->shm_name, err, sizeof err) < 0)
        return 0;
    int found = 0;
    for (int i = 0; i < SHM_EVENT_SLOTS && !found; i++) {
        const shm_event_sh_t *ev = &h.r->events.ev[i];
        if (atomic_load(&ev->seq) == 0 || ev->kind != kind || ev->len <= 0)
            continue;
        snprintf(buf, sizeof buf, "%.*s", (int)ev->len, ev->text);
        if (strncmp(buf, prefix, strlen(prefix)) == 0) {
            *side = ev->side;
            found = ev->unum == 0;
        }
    }
    shm_region_detach(&h);
    return found;
}

/* find_event until the event is there (the sim puts it in the ring when it applies the
 * command, a step after the reply) or 5 s pass */
static int wait_event(const e2e_server_t *s, int kind, const char *prefix, int *side)
{
    double end = e2e_now_ms() + 5000;
    while (!find_event(s, kind, prefix, side)) {
        if (e2e_now_ms() > end)
            return 0;
        usleep(10000);
    }
    return 1;
}

Test(olcoach, team_graphic_and_text_log, .timeout = 30)
{
    const char *args[] = { "server::text_logging=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int a1 = player(&s, "(init TeamA (version 19))", NULL);
    int b1 = player(&s, "(init TeamB (version 19))", NULL);
    int port;
    int cb = coach(&s, "(init TeamA (version 19))", &port);
    /* coach.md §4, §11: 8x8 XPM tiles before kick-off */
    cr_expect_str_eq(reply(cb, port, "(team_graphic (1 2 " TILE_8X8 "))"),
                     "(ok team_graphic 1 2)");
    /* a tile outside the 32x8 grid is still taken, after a warning */
    cr_expect_str_eq(reply(cb, port, "(team_graphic (40 1 " TILE_8X8 "))"),
                     "(warning invalid_tile_location)");
    cr_expect_gt(e2e_recv_prefix(cb, "(ok ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(ok team_graphic 40 1)");
    cr_expect_str_eq(reply(cb, port, "(team_graphic (1 1 \"4 4 1 1\" \"a c #000000\" \"aaaa\" "
                                     "\"aaaa\" \"aaaa\" \"aaaa\"))"),
                     "(warning invalid_tile_size)");
    cr_expect_str_eq(reply(cb, port, "(team_graphic (1 1 \"8 8 1 1\" \"a c #000000\" \"aaaa\"))"),
                     "(error invalid_xpm_data)");
    cr_expect_str_eq(reply(cb, port, "(team_graphic 1 1)"), "(error illegal_command_form)");
    /* the tile reaches monitors and the game log as an event of the left side */
    int side = 0;
    cr_expect(wait_event(&s, SHM_EV_TEAM_GRAPHIC, "1 2 \"8 8 1 1\" \"a c #000000\" \"aaaaaaaa\"",
                         &side));
    cr_expect_eq(side, SHM_SIDE_LEFT);
    /* 3: every datagram of a coach is a text-log event (side, unum 0) */
    cr_expect(wait_event(&s, SHM_EV_TEXTLOG, "(team_graphic 1 1)", &side));
    cr_expect_eq(side, SHM_SIDE_LEFT);
    cr_expect(wait_event(&s, SHM_EV_TEXTLOG, "(init TeamA (version 19))", &side));
    /* only before kick-off: a monitor starts the match */
    int mon = e2e_udp_open(), mport = 0;
    e2e_send(mon, s.port, "(dispinit version 5)");
    cr_expect_gt(e2e_recv(mon, buf, sizeof buf, 2000, &mport), 0);
    e2e_send(mon, mport, "(dispstart)");
    cr_expect_gt(e2e_recv_prefix(cb, "(hear 0 referee kick_off_l)", buf, sizeof buf, 2000,
                                 NULL), 0);
    cr_expect_str_eq(reply(cb, port, "(team_graphic (1 2 " TILE_8X8 "))"),
                     "(warning only_before_kick_off)");
    close(mon);
    close(cb);
    close(a1);
    close(b1);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* ---- compression --------------------------------------------------------------------- */
/* one zlib stream with a sync flush, as the reference's clients write them */
static size_t zip(const char *msg, unsigned char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    cr_assert_eq(deflateInit(&z, 6), Z_OK);
    z.next_in = (Bytef *)msg;
    z.avail_in = (uInt)strlen(msg) + 1;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    cr_assert_eq(deflate(&z, Z_SYNC_FLUSH), Z_OK);
    size_t n = cap - z.avail_out;
    deflateEnd(&z);
    return n;
}

/* the next datagram inflated into buf; its length, 0 if none */
static int unzip_recv(int fd)
{
    static unsigned char raw[65536];
    double end = e2e_now_ms() + 2000;
    while (e2e_now_ms() < end) {
        struct timeval tv = { 0, 200000 };
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        ssize_t n = recv(fd, raw, sizeof raw, 0);
        if (n <= 0)
            continue;
        z_stream z;
        memset(&z, 0, sizeof z);
        cr_assert_eq(inflateInit(&z), Z_OK);
        z.next_in = raw;
        z.avail_in = (uInt)n;
        z.next_out = (Bytef *)buf;
        z.avail_out = sizeof buf - 1;
        int rc = inflate(&z, Z_SYNC_FLUSH);
        size_t len = sizeof buf - 1 - z.avail_out;
        inflateEnd(&z);
        if (rc != Z_OK || len == 0)
            return 0;
        buf[len] = '\0';
        /* a sync flush ends the stream: 00 00 ff ff, and no trailer after it */
        cr_expect(n >= 6 && memcmp(raw + n - 4, "\x00\x00\xff\xff", 4) == 0);
        return (int)len;
    }
    return 0;
}

static void zsend(int fd, int port, const char *msg)
{
    unsigned char out[4096];
    size_t n = zip(msg, out, sizeof out);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(0x7f000001);
    cr_assert_eq(sendto(fd, out, n, 0, (struct sockaddr *)&a, sizeof a), (ssize_t)n);
}

Test(olcoach, compressed_coach_and_trainer, .timeout = 30)
{
    const char *args[] = { "server::coach=true", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int a1 = player(&s, "(init TeamA (version 19))", NULL);
    int port;
    int ca = coach(&s, "(init TeamA (version 19))", &port);
    /* coach.md §9: the ok in plain text, then every message both ways one zlib stream */
    cr_expect_str_eq(reply(ca, port, "(compression 6)"), "(ok compression 6)");
    zsend(ca, port, "(team_names)");
    cr_expect_gt(unzip_recv(ca), 0);
    cr_expect_str_eq(buf, "(ok team_names (team l TeamA))\n");
    /* plain input is ignored now: the next reply is that of the compressed look */
    e2e_send(ca, port, "(team_names)");
    zsend(ca, port, "(check_ball)");
    cr_expect_gt(unzip_recv(ca), 0);
    cr_expect_str_eq(buf, "(ok check_ball 0 in_field)");
    /* level 0 still wraps the text; a negative level returns to plain text */
    zsend(ca, port, "(compression 0)");
    cr_expect_gt(unzip_recv(ca), 0);
    cr_expect_str_eq(buf, "(ok compression 0)");
    zsend(ca, port, "(check_ball)");
    cr_expect_gt(unzip_recv(ca), 0);
    cr_expect_str_eq(buf, "(ok check_ball 0 in_field)");
    zsend(ca, port, "(compression -1)");
    cr_expect_gt(unzip_recv(ca), 0);
    cr_expect_str_eq(buf, "(ok compression -1)");
    cr_expect_str_eq(reply(ca, port, "(check_ball)"), "(ok check_ball 0 in_field)");
    cr_expect_str_eq(reply(ca, port, "(compression 10)"), "(error illegal_command_form)");
    /* the trainer too, and what it hears arrives compressed */
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(ear on)"), 0);
    cr_expect_eq(e2e_trainer_cmd(&t, "(compression 9)"), 0);
    cr_expect_str_eq(t.last, "(ok compression 9)");
    zsend(t.fd, t.port, "(change_mode play_on)"); /* made (and said) before the reply */
    cr_expect_gt(unzip_recv(t.fd), 0);
    cr_expect_str_eq(buf, "(hear referee 0 play_on)");
    cr_expect_gt(unzip_recv(t.fd), 0);
    cr_expect_str_eq(buf, "(ok change_mode)");
    e2e_trainer_close(&t);
    close(ca);
    close(a1);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
