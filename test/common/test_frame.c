/* test_frame.c -- the 3D protocols' framing (frame.c): a 4-byte big-endian length and
 * the text; messages split across reads, several in one read, too long ones refused. */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "frame.h"

Test(frame, prefix_is_big_endian, .timeout = 10)
{
    uint8_t b[4];
    frame_put_len(b, 0x01020304u);
    cr_expect(b[0] == 1 && b[1] == 2 && b[2] == 3 && b[3] == 4);
    cr_expect_eq(frame_get_len(b), 0x01020304u);
}

Test(frame, read_write_over_a_socket_pair, .timeout = 10)
{
    int sv[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    char buf[64];
    frame_reader_t r;
    frame_reader_init(&r, buf, sizeof buf);
    const char *m;
    size_t n;
    cr_expect_eq(frame_read(sv[1], &r, 10, &m, &n), 0, "timeout");
    cr_assert_eq(frame_write(sv[0], "(create)", 8), 0);
    cr_assert_eq(frame_write(sv[0], "(syn)", 5), 0);
    cr_expect_eq(frame_read(sv[1], &r, 1000, &m, &n), 1);
    cr_expect(n == 8 && strcmp(m, "(create)") == 0, "NUL-terminated");
    cr_expect_eq(frame_read(sv[1], &r, 1000, &m, &n), 1);
    cr_expect_str_eq(m, "(syn)");
    /* one byte at a time */
    const uint8_t part[] = { 0, 0, 0, 3, 'a', 'b', 'c' };
    for (size_t i = 0; i < sizeof part; i++)
        cr_assert_eq(write(sv[0], &part[i], 1), 1);
    cr_expect_eq(frame_read(sv[1], &r, 1000, &m, &n), 1);
    cr_expect_str_eq(m, "abc");
    cr_assert_eq(frame_write(sv[0], "", 0), 0);
    cr_expect_eq(frame_read(sv[1], &r, 1000, &m, &n), 1);
    cr_expect_eq(n, 0u);
    /* longer than the buffer: refused, the stream is given up */
    const uint8_t big[] = { 0, 0, 1, 0 };
    cr_assert_eq(write(sv[0], big, 4), 4);
    cr_expect_eq(frame_read(sv[1], &r, 1000, &m, &n), -2);
    close(sv[0]);
    frame_reader_init(&r, buf, sizeof buf);
    cr_expect_eq(frame_read(sv[1], &r, 1000, &m, &n), -1, "closed");
    close(sv[1]);
}
