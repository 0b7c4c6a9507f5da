/* test_065_viewer_resume.c -- a browser viewer of the server's own stream (GET /events)
 * that loses its connection comes back without a gap (README "Broadcasting a match"):
 * every frame is an event whose id is the sim's publish number (the "pub" stamp's seq);
 * a viewer reconnecting with the Last-Event-ID of the last frame it got first gets every
 * frame after it, then the live ones, all in order. A new viewer, without the header,
 * starts at the newest frame. Real time, two players so that auto_mode kicks off. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_runner.h"

#define FRAMES 6

/* the next frame event: its id, and the seq of its stamp into *seq */
static long long next_frame(int fd, long long *seq)
{
    static char data[1 << 16];
    long long id = 0;
    for (int tries = 0; tries < 50; tries++) {
        cr_assert_gt(e2e_sse_next(fd, data, sizeof data, &id, 3000), 0, "an event within 3 s");
        const char *p = strstr(data, "\"pub\":{\"seq\":");
        if (strncmp(data, "{\"show\"", 7) != 0 || !p)
            continue; /* a status event */
        cr_assert_eq(sscanf(p + 13, "%lld", seq), 1);
        return id;
    }
    cr_assert_fail("no frame in 50 events");
    return 0;
}

Test(viewer_resume, last_event_id_gets_the_missed_frames, .timeout = 60)
{
    e2e_srv_t p;
    const char *args[] = { "server::port=0", "server::coach_port=0", "server::olcoach_port=0",
                           "server::http_port=-1", "server::auto_mode=true",
                           "server::kick_off_wait=1", "server::connect_wait=1", NULL };
    cr_assert_eq(e2e_srv_start(&p, args, NULL), 0);
    int a = e2e_udp_open(), b = e2e_udp_open(), port;
    char buf[4096];
    e2e_send(a, p.port, "(init Stay (version 19))");
    e2e_send(b, p.port, "(init Watch (version 19))");
    cr_assert_gt(e2e_recv_prefix(a, "(init l 1 ", buf, sizeof buf, 3000, &port), 0);
    cr_assert_gt(e2e_recv_prefix(b, "(init r 1 ", buf, sizeof buf, 3000, &port), 0);

    int fd = e2e_sse_open(p.http_port, "/events", NULL);
    cr_assert_geq(fd, 0);
    long long seq = 0, id = 0, last = 0;
    for (int i = 0; i < FRAMES; i++) {
        id = next_frame(fd, &seq);
        cr_expect_eq(id, seq, "the event id is the frame's publish number");
        cr_expect(last == 0 || id == last + 1, "frame %lld after %lld", id, last);
        last = id;
    }
    e2e_sse_close(fd);
    usleep(700 * 1000); /* about 7 frames go by */

    char last_id[32];
    snprintf(last_id, sizeof last_id, "%lld", last);
    fd = e2e_sse_open(p.http_port, "/events", last_id);
    cr_assert_geq(fd, 0);
    long long first = next_frame(fd, &seq);
    cr_expect_eq(first, last + 1, "the first frame after coming back: %lld, left at %lld", first,
                 last);
    last = first;
    for (int i = 0; i < 2 * FRAMES; i++) {
        id = next_frame(fd, &seq);
        cr_expect_eq(id, last + 1, "frame %lld after %lld", id, last);
        last = id;
    }
    e2e_sse_close(fd);

    /* a new viewer: the newest frame, not the past */
    fd = e2e_sse_open(p.http_port, "/events", NULL);
    cr_assert_geq(fd, 0);
    id = next_frame(fd, &seq);
    cr_expect_geq(id, last, "a new viewer starts at the newest frame (%lld, seen %lld)", id, last);
    e2e_sse_close(fd);
    close(a);
    close(b);
    cr_expect_eq(e2e_srv_stop(&p), 0);
    e2e_srv_clean(&p);
}
