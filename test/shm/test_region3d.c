/* test_region3d.c -- the 3D region (shm3d_region.c, shm3d_ring.c): create and attach,
 * one-line refusals of a region of another kind or version, the snapshot ring in order
 * and after being lapped, the event ring, and the command rings. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "shm.h"
#include "shm3d.h"

static char name[64];
static shm3d_handle_t h;

static void setup(void)
{
    snprintf(name, sizeof name, "/rcss3d-test-%d", (int)getpid());
}

static void teardown(void)
{
    shm3d_region_destroy(&h);
    shm_unlink(name);
}

TestSuite(region3d, .init = setup, .fini = teardown, .timeout = 10);

Test(region3d, create_attach_refuse)
{
    char err[256];
    cr_assert_eq(shm3d_region_create(&h, name, err, sizeof err), 0, "%s", err);
    cr_expect_eq(h.r->hdr.magic, SHM3D_MAGIC);
    shm3d_handle_t g;
    cr_assert_eq(shm3d_region_attach(&g, name, err, sizeof err), 0, "%s", err);
    shm3d_region_detach(&g);
    h.r->hdr.layout_version = 7;
    cr_expect_eq(shm3d_region_attach(&g, name, err, sizeof err), -1);
    char want[64];
    snprintf(want, sizeof want, "layout version 7, expected %u", SHM3D_LAYOUT_VERSION);
    cr_expect(strstr(err, want) != NULL, "%s", err);
    h.r->hdr.layout_version = SHM3D_LAYOUT_VERSION;
    h.r->hdr.magic = 0x52435357u; /* a 2D region */
    cr_expect_eq(shm3d_region_verify(h.r, h.size, "/x", err, sizeof err), -1);
    cr_expect_str_eq(err, "shm /x: bad magic 0x52435357 (not a 3D region)");
    h.r->hdr.magic = SHM3D_MAGIC;
    cr_expect_eq(shm3d_region_verify(h.r, h.size - 8, "/x", err, sizeof err), -1);
    cr_expect(strstr(err, "region size") != NULL);
    cr_expect_eq(shm3d_gateway_attach(&g, "/rcss3d-absent-region", 100, err, sizeof err), -1);
    cr_expect_eq(shm3d_region_create(&g, "no-slash", err, sizeof err), -1);
    cr_expect_str_eq(err, "shm name \"no-slash\" invalid");
}

Test(region3d, snapshots_events_rings)
{
    char err[256];
    static shm3d_snapshot_sh_t out;
    cr_assert_eq(shm3d_region_create(&h, name, err, sizeof err), 0, "%s", err);
    shm3d_region_sh_t *r = h.r;
    cr_expect_eq(shm3d_snap_read_latest(r, &out), 0u, "nothing yet");
    for (int i = 1; i <= SHM3D_SNAP_SLOTS + 5; i++) {
        shm3d_snapshot_sh_t *s = shm3d_snap_begin(r);
        s->sim_step = (uint64_t)i * 10;
        shm3d_snap_publish(r, s);
    }
    cr_expect_eq(shm3d_snap_read_latest(r, &out), (uint64_t)SHM3D_SNAP_SLOTS + 5);
    cr_expect_eq(out.sim_step, (uint64_t)(SHM3D_SNAP_SLOTS + 5) * 10);
    cr_expect_eq(shm3d_snap_read(r, 3, &out), -1, "lapped");
    cr_expect_eq(shm3d_snap_read(r, 10, &out), 0);
    cr_expect_eq(out.sim_step, 100u);
    cr_expect_eq(out.step, 10u);
    cr_expect_eq(shm3d_snap_read(r, SHM3D_SNAP_SLOTS + 6, &out), -1, "not yet");
    shm3d_event_sh_t ev, got;
    memset(&ev, 0, sizeof ev);
    ev.kind = SHM3D_EV_ACK;
    ev.len = 3;
    memcpy(ev.text, "abc", 3);
    cr_expect_eq(shm3d_event_push(r, &ev), 0u);
    cr_expect_eq(shm3d_event_read(r, 0, &got), 0);
    cr_expect(got.kind == SHM3D_EV_ACK && memcmp(got.text, "abc", 3) == 0);
    cr_expect_eq(shm3d_event_read(r, 1, &got), 1, "not written yet");
    for (int i = 0; i < SHM3D_EVENT_SLOTS; i++)
        shm3d_event_push(r, &ev);
    cr_expect_eq(shm3d_event_read(r, 0, &got), -1, "overwritten");
    shm3d_cmd_sh_t c, o;
    memset(&c, 0, sizeof c);
    int pushed = 0;
    while (shm3d_cmd_push(&r->cmd[3], &c) == 0)
        c.generation = (uint32_t)++pushed;
    cr_expect_eq(pushed, SHM3D_CMD_SLOTS);
    cr_expect_eq(r->cmd[3].dropped, 1u);
    for (int i = 0; i < pushed; i++) {
        cr_assert_eq(shm3d_cmd_pop(&r->cmd[3], &o), 0);
        cr_assert_eq(o.generation, (uint32_t)i, "in order");
    }
    cr_expect_eq(shm3d_cmd_pop(&r->cmd[3], &o), -1);
    cr_expect_eq(shm3d_ctrl_push(&r->proc[1].ctrl, &c), 0);
    cr_expect_eq(shm3d_ctrl_pop(&r->proc[1].ctrl, &o), 0);
}
