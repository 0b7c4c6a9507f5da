/* test_spades.c -- the SPADES framing of the 2004 ComServer (agw3d_spades.c): the
 * messages a 2004 agent sends (I, A with effectors, D), whole, in pieces and several in
 * one read; frames no agent may send (too long, empty, an unknown type, a NUL byte,
 * data after I or D) refused with their reason; what a stream cut short was in the
 * middle of; the sensation's text. Also the agent list's framing option. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "agw3d.h"
#include "frame.h"

static uint8_t buf[1 << 17];
static char err[128];

/* a frame of len bytes of text at buf + at; the bytes after it */
static size_t put(size_t at, const char *text, size_t len)
{
    frame_put_len(buf + at, (uint32_t)len);
    memcpy(buf + at + FRAME_HDR, text, len);
    return at + FRAME_HDR + len;
}

static int nrec, nerr;
static void on_rec(void *ctx, const shm3d_cmd_sh_t *c)
{
    (void)ctx;
    (void)c;
    nrec++;
}
static void on_err(void *ctx, const char *t)
{
    (void)ctx;
    (void)t;
    nerr++;
}
static void on_syn(void *ctx)
{
    (void)ctx;
}

static int next(size_t have, agw3d_sp_msg_t *m, size_t *used)
{
    err[0] = '\0';
    return agw3d_spades_next(buf, have, AGW3D_SP_MAX, m, used, err, sizeof err);
}

Test(spades, the_2004_agents_messages, .timeout = 30)
{
    /* what the 2004 sample agent wrote: init done, create, init, a beam with blanks and a
     * newline, done thinking */
    const char *msgs[] = { "I", "A(create)", "A(init (unum 0) (teamname foo))",
                           "A(beam  -6 0  0)\n", "D" };
    size_t end = 0;
    for (int i = 0; i < 5; i++)
        end = put(end, msgs[i], strlen(msgs[i]));
    size_t at = 0;
    for (int i = 0; i < 5; i++) {
        agw3d_sp_msg_t m;
        size_t used = 0;
        int rc = agw3d_spades_next(buf + at, end - at, AGW3D_SP_MAX, &m, &used, err, sizeof err);
        cr_assert_eq(rc, 1, "message %d: %s", i, err);
        cr_expect_eq(m.type, msgs[i][0]);
        cr_expect_eq(m.len, strlen(msgs[i]) - 1);
        cr_expect(memcmp(m.data, msgs[i] + 1, m.len) == 0);
        cr_expect_eq(used, FRAME_HDR + strlen(msgs[i]));
        at += used;
        if (m.type == 'A') {
            /* the effectors are those of TCP agents, blanks and newline as the 2004 agent
             * wrote them included */
            agw3d_sink_t k = { on_rec, on_err, on_syn, NULL };
            nrec = nerr = 0;
            cr_expect_eq(agw3d_cmd_parse(m.data, m.len, &k), 1, "%s", msgs[i]);
            cr_expect(nrec == 1 && nerr == 0, "%s", msgs[i]);
        }
    }
    cr_expect_eq(at, end);
}

Test(spades, a_message_in_pieces_waits, .timeout = 30)
{
    size_t end = put(0, "A(drive 10 0 0)", 15);
    agw3d_sp_msg_t m;
    size_t used = 0;
    /* every prefix: more is needed, and nothing is refused */
    for (size_t have = 0; have < end; have++)
        cr_expect_eq(next(have, &m, &used), 0, "%zu bytes: %s", have, err);
    cr_expect_eq(next(end, &m, &used), 1);
    cr_expect_eq(m.len, 14);
}

Test(spades, frames_no_agent_may_send, .timeout = 30)
{
    agw3d_sp_msg_t m;
    size_t used = 0;
    /* too long: refused from the length alone */
    frame_put_len(buf, AGW3D_SP_MAX + 1);
    cr_expect_eq(next(FRAME_HDR, &m, &used), -1);
    cr_expect(strstr(err, "a message of 65537 bytes (at most 65536)") != NULL, "%s", err);
    frame_put_len(buf, 0xffffffffu);
    cr_expect_eq(next(FRAME_HDR, &m, &used), -1);
    /* empty */
    frame_put_len(buf, 0);
    cr_expect_eq(next(FRAME_HDR, &m, &used), -1);
    cr_expect(strstr(err, "empty") != NULL, "%s", err);
    /* an unknown type, refused from its first byte before the rest came */
    put(0, "Qhello", 6);
    cr_expect_eq(next(FRAME_HDR + 1, &m, &used), -1);
    cr_expect_str_eq(err, "unknown message type 'Q'");
    put(0, "\x01\x02\x03", 3);
    cr_expect_eq(next(FRAME_HDR + 3, &m, &used), -1);
    cr_expect_str_eq(err, "unknown message type 0x01");
    /* the server's own types are not the agent's */
    put(0, "S1 1 ", 5);
    cr_expect_eq(next(FRAME_HDR + 5, &m, &used), -1);
    /* a NUL byte */
    put(0, "A(drive\0 1 0 0)", 15);
    cr_expect_eq(next(FRAME_HDR + 15, &m, &used), -1);
    cr_expect(strstr(err, "NUL") != NULL, "%s", err);
    /* data after I or D */
    put(0, "Dextra", 6);
    cr_expect_eq(next(FRAME_HDR + 6, &m, &used), -1);
    cr_expect(strstr(err, "type 'D' with 5 bytes of data") != NULL, "%s", err);
    /* random bytes: never a crash, never a message of another type */
    unsigned x = 12345;
    for (int round = 0; round < 20000; round++) {
        size_t n = 1 + (x % 64);
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (uint8_t)(x >> 16);
        }
        int rc = next(n, &m, &used);
        cr_assert(rc >= -1 && rc <= 1);
        if (rc == 1)
            cr_assert(m.type == 'A' || m.type == 'D' || m.type == 'I');
    }
}

Test(spades, a_stream_cut_short, .timeout = 30)
{
    char out[96];
    put(0, "A(kick 20 80)", 13);
    agw3d_spades_cut(buf, 0, out, sizeof out);
    cr_expect_str_eq(out, "");
    agw3d_spades_cut(buf, 3, out, sizeof out);
    cr_expect_str_eq(out, "a message cut short: 3 of 4 length bytes");
    agw3d_spades_cut(buf, FRAME_HDR + 5, out, sizeof out);
    cr_expect_str_eq(out, "a message cut short: 5 of 13 bytes");
}

Test(spades, the_sensation, .timeout = 30)
{
    char out[128];
    const char *e = "(error beam not_before_kick_off)", *p = "(GameState (time 0))";
    int n = agw3d_spades_sense(out, sizeof out, 120, 121, e, strlen(e), p, strlen(p));
    cr_assert_gt(n, 0);
    cr_expect_str_eq(out, "S120 121 (error beam not_before_kick_off)(GameState (time 0))");
    cr_expect_eq((size_t)n, strlen(out));
    /* before the robot exists: empty data */
    n = agw3d_spades_sense(out, sizeof out, 7, 7, "", 0, "", 0);
    cr_expect_str_eq(out, "S7 7 ");
    /* what does not fit is refused */
    cr_expect_eq(agw3d_spades_sense(out, 12, 7, 7, "", 0, p, strlen(p)), -1);
}

Test(spades, the_lists_framing_option, .timeout = 30)
{
    static agw3d_cmdline_t l[4];
    char e[160];
    int n = agw3d_list_parse("framing=spades ./agenttest --teamname foo\n"
                             "rcss3d-agent --team x=y\n"
                             "framing=plain rcss3d-agent\n", l, 4, e, sizeof e);
    cr_assert_eq(n, 3, "%s", e);
    cr_expect_eq(l[0].framing, AGW3D_FRAMING_SPADES);
    cr_expect_eq(l[0].argc, 3);
    cr_expect_str_eq(l[0].argv[0], "./agenttest");
    cr_expect_str_eq(l[0].argv[2], "foo");
    cr_expect_eq(l[1].framing, AGW3D_FRAMING_PLAIN);
    cr_expect_str_eq(l[1].argv[2], "x=y", "only words before the program are options");
    cr_expect_eq(l[2].framing, AGW3D_FRAMING_PLAIN);
    cr_expect_eq(agw3d_list_parse("framing=tcp agent\n", l, 4, e, sizeof e), -1);
    cr_expect(strstr(e, "line 1: unknown option 'framing=tcp'") != NULL, "%s", e);
    cr_expect_eq(agw3d_list_parse("ok agent\nframing=spades\n", l, 4, e, sizeof e), -1);
    cr_expect(strstr(e, "line 2: options but no program") != NULL, "%s", e);
}
