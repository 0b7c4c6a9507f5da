/* test_rec_text.c -- text log lines (docs/protocol/logs.md §6): "TIME,STOPPAGE<TAB>"
 * then "Recv TEAM_UNUM: raw" for players, "Recv Coach: raw" for the trainer, "Recv
 * TEAM_Coach: raw" for an online coach and "(referee msg)" for the referee; the lines
 * the reference wrote in our observation run were e.g. "0,10\tRecv TeamA_1: (init TeamA
 * (version 19))" and "0,23\t(referee kick_off_l)". */
#include <criterion/criterion.h>
#include <string.h>
#include "rec.h"

static rec_buf_t out;
static const char team[2][SHM_TEAM_NAME_LEN] = { "TeamA", "TeamB" };

static void fini(void)
{
    rec_buf_free(&out);
}

TestSuite(rec_text, .fini = fini);

static shm_event_sh_t ev(int kind, int side, int unum, int time, int stoppage)
{
    shm_event_sh_t e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.side = (int8_t)side;
    e.unum = (int8_t)unum;
    e.time = time;
    e.stoppage = stoppage;
    return e;
}

static void line(shm_event_sh_t e, const char *text)
{
    rec_text_line(&out, &e, text, strlen(text), team);
}

Test(rec_text, senders_and_referee)
{
    line(ev(SHM_EV_TEXTLOG, SHM_SIDE_LEFT, 1, 0, 10), "(init TeamA (version 19))");
    line(ev(SHM_EV_TEXTLOG, SHM_SIDE_RIGHT, 11, 3, 0), "(dash 100)(turn_neck 5)");
    line(ev(SHM_EV_TEXTLOG, SHM_SIDE_LEFT, 0, 0, 15), "(init TeamA Coachy (version 19))");
    line(ev(SHM_EV_TEXTLOG, 0, 0, 0, 23), "(start)");
    line(ev(SHM_EV_REFEREE, 0, 0, 0, 23), "kick_off_l");
    cr_expect_str_eq(out.p, "0,10\tRecv TeamA_1: (init TeamA (version 19))\n"
                            "3,0\tRecv TeamB_11: (dash 100)(turn_neck 5)\n"
                            "0,15\tRecv TeamA_Coach: (init TeamA Coachy (version 19))\n"
                            "0,23\tRecv Coach: (start)\n"
                            "0,23\t(referee kick_off_l)\n");
}

Test(rec_text, one_line_per_entry_and_other_kinds_ignored)
{
    line(ev(SHM_EV_TEXTLOG, SHM_SIDE_LEFT, 2, 5, 0), "(say \"a\nb\")\n");
    line(ev(SHM_EV_SAY, SHM_SIDE_LEFT, 2, 5, 0), "ab");
    line(ev(SHM_EV_CHANGE_TYPE, SHM_SIDE_LEFT, 2, 5, 0), "");
    line(ev(SHM_EV_TEAM_GRAPHIC, SHM_SIDE_LEFT, 0, 5, 0), "0 0 \"x\"");
    cr_expect_str_eq(out.p, "5,0\tRecv TeamA_2: (say \"a b\") \n");
}

Test(rec_text, recv_copy_is_cut_to_the_buffer)
{
    char buf[24];
    shm_event_sh_t e = ev(SHM_EV_TEXTLOG, SHM_SIDE_RIGHT, 9, 1, 0);
    int n = rec_text_recv(buf, sizeof buf, &e, "(turn 30)(dash 50)", 18, team);
    cr_expect_eq(n, 23);
    cr_expect_str_eq(buf, "Recv TeamB_9: (turn 30)");
}

/* server::log_times: the milliseconds between two publications, at the earlier cycle */
Test(rec_text, cycle_times)
{
    shm_snapshot_sh_t a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.time = 41;
    a.stoppage = 2;
    a.publish_ns = 5000000000LL;
    b.publish_ns = 5100250000LL;
    rec_text_times(&out, &a, &b);
    cr_expect_str_eq(out.p, "41,2\tCYCLE_TIMES: 100.25\n");
}
