/* test_coachcmd.c -- trainer and online-coach datagrams parsed (netgw/coach/netgw_coachcmd.c;
 * docs/protocol/coach.md §2-§4): the init lines with their errors, every trainer
 * command with the replies that need no world state, the online coach's say (raw before
 * v7, the coach language from v7), change_player_type in both forms and team_graphic's
 * XPM data. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "netgw_coach.h"
#include "playmode.h"

static coach_cmd_t cmd;
static clang_work_t work;

static void trainer(const char *text)
{
    coach_parse_trainer(text, 128, &cmd);
}

static void olcoach(const char *text, double version)
{
    coach_parse_olcoach(text, version, 128, &work, &cmd);
}

Test(coachcmd, trainer_init)
{
    double v = 0;
    char err[COACH_REPLY_LEN];
    /* coach.md §2: no version is version 3; below 1 is ill-formed */
    cr_expect_eq(coach_parse_trainer_init("(init)", &v, err, sizeof err), 1);
    cr_expect_eq(v, 3.0);
    cr_expect_eq(coach_parse_trainer_init("(init (version 19))", &v, err, sizeof err), 1);
    cr_expect_eq(v, 19.0);
    cr_expect_eq(coach_parse_trainer_init(" ( init (version 7.5) ) ", &v, err, sizeof err), 1);
    cr_expect_eq(v, 7.5);
    cr_expect_eq(coach_parse_trainer_init("(init (version 0.5))", &v, err, sizeof err), -1);
    cr_expect_str_eq(err, "(error illegal_command_form)");
    /* anything else after init keeps version 3, as the reference's pattern */
    cr_expect_eq(coach_parse_trainer_init("(init foo)", &v, err, sizeof err), 1);
    cr_expect_eq(v, 3.0);
    /* not an init: a command (kick-off and run it), or garbage */
    cr_expect_eq(coach_parse_trainer_init("(look)", &v, err, sizeof err), 0);
    cr_expect_eq(coach_parse_trainer_init("look", &v, err, sizeof err), -1);
    cr_expect_str_eq(err, "(error illegal_command_form)");
}

Test(coachcmd, olcoach_init)
{
    char team[16], coach[16], err[COACH_REPLY_LEN];
    double v;
#define OLINIT(s) coach_parse_olcoach_init(s, team, sizeof team, coach, sizeof coach, &v, err, sizeof err)
    cr_expect_eq(OLINIT("(init TeamA (version 19))"), 0);
    cr_expect_str_eq(team, "TeamA");
    cr_expect_str_eq(coach, "");
    cr_expect_eq(v, 19.0);
    cr_expect_eq(OLINIT("(init TeamA Coachy (version 15))"), 0);
    cr_expect_str_eq(coach, "Coachy");
    cr_expect_eq(v, 15.0);
    /* the coach name alone: version 5 */
    cr_expect_eq(OLINIT("(init TeamA Name)"), 0);
    cr_expect_eq(v, 5.0);
    /* 4.2 quirk: neither a coach name nor a version is an ill-formed init */
    cr_expect_eq(OLINIT("(init TeamA)"), -1);
    cr_expect_str_eq(err, "(error illegal_command_form)");
    cr_expect_eq(OLINIT("(init TeamA (version 4))"), -1);
    cr_expect_str_eq(err, "(error illegal_client_version)");
    cr_expect_eq(OLINIT("(init TeamA (version x))"), -1);
    cr_expect_str_eq(err, "(error illegal_command_form)");
    cr_expect_eq(OLINIT("(init TeamA Bad%Name)"), -1);
    cr_expect_str_eq(err, "(error illegal_coachname_or_too_long_coachname)");
    cr_expect_eq(OLINIT("(look)"), -1);
    cr_expect_str_eq(err, "(error illegal_command_form)");
    /* team names: at most 15 characters are read */
    cr_expect_eq(OLINIT("(init ABCDEFGHIJKLMNOPQ (version 19))"), 0);
    cr_expect_str_eq(team, "ABCDEFGHIJKLMNO");
#undef OLINIT
}

Test(coachcmd, trainer_world_commands)
{
    trainer("(start)");
    cr_expect_eq(cmd.kind, COACH_START);
    cr_expect_str_eq(cmd.reply, "(ok start)");
    trainer("(change_mode free_kick_r)");
    cr_expect_eq(cmd.kind, COACH_CHANGE_MODE);
    cr_expect_eq(cmd.mode, PM_FREE_KICK_R);
    cr_expect_str_eq(cmd.reply, "(ok change_mode)");
    trainer("(change_mode nonsense)");
    cr_expect_eq(cmd.kind, COACH_NONE);
    cr_expect_str_eq(cmd.reply, "(error illegal_mode)");
    trainer("(recover)");
    cr_expect_eq(cmd.kind, COACH_RECOVER);
    cr_expect_str_eq(cmd.reply, "(ok recover)\n"); /* the reference ends it with a newline */
    trainer("(reset)"); /* this server's: the match back to its start (issue 13) */
    cr_expect_eq(cmd.kind, COACH_RESET);
    cr_expect_str_eq(cmd.reply, "(ok reset)");
}

Test(coachcmd, trainer_move)
{
    trainer("(move (ball) 1 -2)");
    cr_expect(cmd.kind == COACH_MOVE && cmd.ball && cmd.nnum == 2 && cmd.d[0] == 1.0
              && cmd.d[1] == -2.0);
    trainer("(move (ball) 1 2 30 0.5 -0.5)");
    cr_expect(cmd.kind == COACH_MOVE && cmd.nnum == 5 && cmd.d[3] == 0.5 && cmd.d[4] == -0.5);
    trainer("(move (player Team_A 11) -3 4 90)");
    cr_expect(cmd.kind == COACH_MOVE && !cmd.ball && cmd.unum == 11 && cmd.nnum == 3);
    cr_expect_str_eq(cmd.team, "Team_A");
    cr_expect_str_eq(cmd.reply, "(ok move)");
    /* fewer than two numbers, a bad object or NaN: illegal_object_form; four numbers:
     * illegal_command_form */
    const char *object_form[] = { "(move (ball) 1)", "(move ball 1 2)", "(move (ball) nan 1)",
                                  "(move (ball) inf 1)", "(move (player T 0) 1 2)",
                                  "(move (player T) 1 2)", "(move (ball ) 1 2)", NULL };
    for (int i = 0; object_form[i]; i++) {
        trainer(object_form[i]);
        cr_expect_eq(cmd.kind, COACH_NONE, "%s", object_form[i]);
        cr_expect_str_eq(cmd.reply, "(error illegal_object_form)", "%s", object_form[i]);
    }
    trainer("(move (player T 1) 1 2 3 4)");
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
    /* the ball takes x y [dir [vx vy]] too (the reference's one pattern for both): a
     * velocity without the direction before it is four numbers, illegal_command_form
     * (checked against rcssserver 19); x y dir moves it at rest */
    trainer("(move (ball) 1 2 0.5 0.5)");
    cr_expect_eq(cmd.kind, COACH_NONE);
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
    trainer("(move (ball) 1 2 45)");
    cr_expect(cmd.kind == COACH_MOVE && cmd.ball && cmd.nnum == 3);
    cr_expect_str_eq(cmd.reply, "(ok move)");
}

Test(coachcmd, trainer_settings_and_say)
{
    trainer("(ear on)");
    cr_expect(cmd.kind == COACH_EAR && cmd.on == 1);
    cr_expect_str_eq(cmd.reply, "(ok ear on)");
    trainer("(eye off)");
    cr_expect(cmd.kind == COACH_EYE && cmd.on == 0);
    cr_expect_str_eq(cmd.reply, "(ok eye off)");
    /* the seeds say illegal_mode; the reference answers illegal_command_form */
    trainer("(eye maybe)");
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
    trainer("(ear)");
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
    /* say: [-0-9a-zA-Z ().+*\/?<>_]; the closing parenthesis comes off */
    trainer("(say hello (world) 1+2)");
    cr_expect(cmd.kind == COACH_SAY);
    cr_expect_str_eq(cmd.text, "hello (world) 1+2");
    cr_expect_str_eq(cmd.reply, "(ok say)");
    trainer("(say \"quoted\")");
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
    char big[400];
    snprintf(big, sizeof big, "(say %0200d)", 7);
    trainer(big); /* cut to say_coach_msg_size */
    cr_expect_eq(strlen(cmd.text), 128);
    trainer("(compression 5)");
    cr_expect(cmd.kind == COACH_COMPRESSION && cmd.level == 5);
    trainer("(compression 10)");
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
    trainer("(done)");
    cr_expect_eq(cmd.kind, COACH_DONE);
    cr_expect_str_eq(cmd.reply, "");
    trainer("(change_player_type TeamB 4 7)");
    cr_expect(cmd.kind == COACH_CHANGE_TYPE && cmd.unum == 4 && cmd.type == 7);
    cr_expect_str_eq(cmd.team, "TeamB");
    trainer("(change_player_type TeamB 4)");
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
    trainer("(team_graphic (0 0 \"x\"))"); /* an online-coach command */
    cr_expect_str_eq(cmd.reply, "(error unknown_command)");
    trainer("()");
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
}

Test(coachcmd, olcoach_commands)
{
    olcoach("(look)", 19);
    cr_expect_eq(cmd.kind, COACH_LOOK);
    olcoach("(team_names)", 19);
    cr_expect_eq(cmd.kind, COACH_TEAM_NAMES);
    olcoach("(bye)", 19);
    cr_expect_eq(cmd.kind, COACH_BYE);
    /* trainer-only commands are unknown to an online coach */
    const char *trainer_only[] = { "(start)", "(move (ball) 0 0)", "(change_mode play_on)",
                                   "(recover)", "(ear on)", "(change_player_types (1 2))",
                                   NULL };
    for (int i = 0; trainer_only[i]; i++) {
        olcoach(trainer_only[i], 19);
        cr_expect_str_eq(cmd.reply, "(error unknown_command)", "%s", trainer_only[i]);
    }
    olcoach("(change_player_type 3 4)", 19);
    cr_expect(cmd.kind == COACH_CHANGE_TYPE && cmd.unum == 3 && cmd.type == 4);
    olcoach("(change_player_type 3 goalie)", 19);
    cr_expect(cmd.kind == COACH_GOALIE && cmd.unum == 3);
    olcoach("(change_player_type 3 keeper)", 19);
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
}

Test(coachcmd, olcoach_say_by_version)
{
    /* from v7 a coach-language message, re-serialised */
    olcoach("(say (advice (10 (true) (do our {3 4} (pos (pt 1.0 0.50))))))", 19);
    cr_expect_eq(cmd.kind, COACH_SAY);
    cr_expect_eq(cmd.clang.type, CLANG_ADVICE);
    cr_expect_str_eq(cmd.text, "(advice (10 (true) (do our {4 3} (pos (pt 1 0.5)))))");
    olcoach("(say (advice))", 19);
    cr_expect_eq(cmd.kind, COACH_NONE);
    cr_expect_str_eq(cmd.reply, "(error could_not_parse_say)");
    /* before v7 raw text; a bad one keeps its error for after the play-mode checks */
    olcoach("(say hello)", 5);
    cr_expect(cmd.kind == COACH_SAY && !cmd.bad);
    cr_expect_str_eq(cmd.text, "hello");
    olcoach("(say \"x\")", 5);
    cr_expect(cmd.kind == COACH_SAY && cmd.bad);
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
}

Test(coachcmd, olcoach_team_graphic)
{
    /* coach.md §11: "W H NCOLORS CPP", the colours, H lines of W*CPP characters */
    olcoach("(team_graphic (3 4 \"8 8 2 1\" \"a c #ffffff\" \"b\tc #000000\" "
            "\"aaaaaaaa\" \"abababab\" \"bbbbbbbb\" \"aaaaaaaa\" \"aaaaaaaa\" \"aaaaaaaa\" "
            "\"aaaaaaaa\" \"bbbbbbbb\"))", 19);
    cr_expect_eq(cmd.kind, COACH_TEAM_GRAPHIC);
    cr_expect(cmd.tx == 3 && cmd.ty == 4 && cmd.xpm_ok && cmd.xw == 8 && cmd.xh == 8);
    /* re-quoted, tabs turned into spaces */
    cr_expect_str_eq(cmd.text, "\"8 8 2 1\" \"a c #ffffff\" \"b c #000000\" \"aaaaaaaa\" "
                               "\"abababab\" \"bbbbbbbb\" \"aaaaaaaa\" \"aaaaaaaa\" "
                               "\"aaaaaaaa\" \"aaaaaaaa\" \"bbbbbbbb\"");
    olcoach("(team_graphic (3 4 \"8 8 1 1\" \"a c #ffffff\" \"aaaaaaa\"))", 19);
    cr_expect(cmd.kind == COACH_TEAM_GRAPHIC && !cmd.xpm_ok, "a short line is bad XPM data");
    olcoach("(team_graphic (3 4 \"4 4 1 1\" \"a c #fff\" \"aaaa\" \"aaaa\" \"aaaa\" \"aaaa\"))", 19);
    cr_expect(cmd.xpm_ok && cmd.xw == 4, "valid XPM, not a tile's size");
    olcoach("(team_graphic 3 4)", 19);
    cr_expect(cmd.bad);
    cr_expect_str_eq(cmd.reply, "(error illegal_command_form)");
}
