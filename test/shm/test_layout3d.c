/* test_layout3d.c -- pins the size of every _sh_t of shm/shm3d_layout.h (the 3D
 * server's region) and the offset of every field, with the numbers written out (x86_64
 * Linux, glibc: sem_t is 32 bytes). The processes of one 3D server share the region, so
 * any drift of these numbers is a protocol change: bump SHM3D_LAYOUT_VERSION in
 * shm3d_layout.h and update these numbers together. */
#include <criterion/criterion.h>
#include <stddef.h>

#include "shm3d_layout.h"

#define PIN_SIZE(type, n) \
    cr_expect_eq(sizeof(type), (size_t)(n), "sizeof(" #type ") is %zu, pinned %zu", \
                 sizeof(type), (size_t)(n))
#define PIN_OFF(type, field, n) \
    cr_expect_eq(offsetof(type, field), (size_t)(n), \
                 "offsetof(" #type ", " #field ") is %zu, pinned %zu", \
                 offsetof(type, field), (size_t)(n))

Test(layout3d, header)
{
    /* the version is pinned with the numbers: bumping it forces a visit here */
    cr_assert_eq(SHM3D_LAYOUT_VERSION, 2u, "SHM3D_LAYOUT_VERSION changed: update every number in this file");
    cr_assert_eq(SHM3D_MAGIC, 0x52433344u);
    PIN_SIZE(shm3d_header_sh_t, 168);
    PIN_OFF(shm3d_header_sh_t, magic, 0);
    PIN_OFF(shm3d_header_sh_t, layout_version, 4);
    PIN_OFF(shm3d_header_sh_t, region_size, 8);
    PIN_OFF(shm3d_header_sh_t, header_size, 16);
    PIN_OFF(shm3d_header_sh_t, params_hash, 20);
    PIN_OFF(shm3d_header_sh_t, sim_pid, 24);
    PIN_OFF(shm3d_header_sh_t, synch_mode, 28);
    PIN_OFF(shm3d_header_sh_t, ready, 32);
    PIN_OFF(shm3d_header_sh_t, shutdown, 36);
    PIN_OFF(shm3d_header_sh_t, published, 40);
    PIN_OFF(shm3d_header_sh_t, epoch_ns, 48);
    PIN_OFF(shm3d_header_sh_t, step_ns, 56);
    PIN_OFF(shm3d_header_sh_t, random_seed, 64);
    PIN_OFF(shm3d_header_sh_t, done_sem, 72);
    PIN_OFF(shm3d_header_sh_t, name, 104);
}

Test(layout3d, params)
{
    PIN_SIZE(shm3d_params_sh_t, 25352);
    PIN_OFF(shm3d_params_sh_t, count, 0);
    PIN_OFF(shm3d_params_sh_t, _pad0, 4);
    PIN_OFF(shm3d_params_sh_t, num, 8);
    PIN_OFF(shm3d_params_sh_t, str, 776);
}

Test(layout3d, cmd)
{
    PIN_SIZE(shm3d_cmd_sh_t, 128);
    PIN_OFF(shm3d_cmd_sh_t, kind, 0);
    PIN_OFF(shm3d_cmd_sh_t, len, 2);
    PIN_OFF(shm3d_cmd_sh_t, flags, 4);
    PIN_OFF(shm3d_cmd_sh_t, i, 6);
    PIN_OFF(shm3d_cmd_sh_t, j, 8);
    PIN_OFF(shm3d_cmd_sh_t, _pad0, 10);
    PIN_OFF(shm3d_cmd_sh_t, generation, 12);
    PIN_OFF(shm3d_cmd_sh_t, d, 16);
    PIN_OFF(shm3d_cmd_sh_t, text, 64);
}

Test(layout3d, cmd_ring)
{
    PIN_SIZE(shm3d_cmd_ring_sh_t, 8320);
    PIN_OFF(shm3d_cmd_ring_sh_t, head, 0);
    PIN_OFF(shm3d_cmd_ring_sh_t, _pad0, 4);
    PIN_OFF(shm3d_cmd_ring_sh_t, tail, 64);
    PIN_OFF(shm3d_cmd_ring_sh_t, dropped, 68);
    PIN_OFF(shm3d_cmd_ring_sh_t, _pad1, 72);
    PIN_OFF(shm3d_cmd_ring_sh_t, slot, 128);
}

Test(layout3d, ctrl_ring)
{
    PIN_SIZE(shm3d_ctrl_ring_sh_t, 32896);
    PIN_OFF(shm3d_ctrl_ring_sh_t, head, 0);
    PIN_OFF(shm3d_ctrl_ring_sh_t, _pad0, 4);
    PIN_OFF(shm3d_ctrl_ring_sh_t, tail, 64);
    PIN_OFF(shm3d_ctrl_ring_sh_t, dropped, 68);
    PIN_OFF(shm3d_ctrl_ring_sh_t, _pad1, 72);
    PIN_OFF(shm3d_ctrl_ring_sh_t, slot, 128);
}

Test(layout3d, proc)
{
    PIN_SIZE(shm3d_proc_sh_t, 32968);
    PIN_OFF(shm3d_proc_sh_t, pid, 0);
    PIN_OFF(shm3d_proc_sh_t, state, 4);
    PIN_OFF(shm3d_proc_sh_t, restarts, 8);
    PIN_OFF(shm3d_proc_sh_t, _pad0, 12);
    PIN_OFF(shm3d_proc_sh_t, heartbeat_ns, 16);
    PIN_OFF(shm3d_proc_sh_t, last_step, 24);
    PIN_OFF(shm3d_proc_sh_t, resets, 32);
    PIN_OFF(shm3d_proc_sh_t, cycle_sem, 40);
    PIN_OFF(shm3d_proc_sh_t, ctrl, 72);
}

Test(layout3d, agent)
{
    PIN_SIZE(shm3d_agent_sh_t, 56);
    PIN_OFF(shm3d_agent_sh_t, state, 0);
    PIN_OFF(shm3d_agent_sh_t, generation, 4);
    PIN_OFF(shm3d_agent_sh_t, kind, 8);
    PIN_OFF(shm3d_agent_sh_t, pid, 12);
    PIN_OFF(shm3d_agent_sh_t, addr, 16);
    PIN_OFF(shm3d_agent_sh_t, family, 32);
    PIN_OFF(shm3d_agent_sh_t, port, 36);
    PIN_OFF(shm3d_agent_sh_t, _pad0, 38);
    PIN_OFF(shm3d_agent_sh_t, done_step, 40);
    PIN_OFF(shm3d_agent_sh_t, last_recv_ns, 48);
}

Test(layout3d, seen)
{
    PIN_SIZE(shm3d_seen_sh_t, 16);
    PIN_OFF(shm3d_seen_sh_t, kind, 0);
    PIN_OFF(shm3d_seen_sh_t, id, 1);
    PIN_OFF(shm3d_seen_sh_t, side, 2);
    PIN_OFF(shm3d_seen_sh_t, _pad0, 3);
    PIN_OFF(shm3d_seen_sh_t, dist, 4);
    PIN_OFF(shm3d_seen_sh_t, theta, 8);
    PIN_OFF(shm3d_seen_sh_t, phi, 12);
}

Test(layout3d, robot)
{
    PIN_SIZE(shm3d_robot_sh_t, 600);
    PIN_OFF(shm3d_robot_sh_t, present, 0);
    PIN_OFF(shm3d_robot_sh_t, side, 1);
    PIN_OFF(shm3d_robot_sh_t, unum, 2);
    PIN_OFF(shm3d_robot_sh_t, touching, 3);
    PIN_OFF(shm3d_robot_sh_t, last_touch, 4);
    PIN_OFF(shm3d_robot_sh_t, _pad0, 5);
    PIN_OFF(shm3d_robot_sh_t, generation, 8);
    PIN_OFF(shm3d_robot_sh_t, _pad1, 12);
    PIN_OFF(shm3d_robot_sh_t, pos, 16);
    PIN_OFF(shm3d_robot_sh_t, vel, 40);
    PIN_OFF(shm3d_robot_sh_t, battery, 64);
    PIN_OFF(shm3d_robot_sh_t, temp, 72);
    PIN_OFF(shm3d_robot_sh_t, nseen, 80);
    PIN_OFF(shm3d_robot_sh_t, _pad2, 84);
    PIN_OFF(shm3d_robot_sh_t, seen, 88);
}

Test(layout3d, snapshot)
{
    PIN_SIZE(shm3d_snapshot_sh_t, 13392);
    PIN_OFF(shm3d_snapshot_sh_t, seq, 0);
    PIN_OFF(shm3d_snapshot_sh_t, step, 8);
    PIN_OFF(shm3d_snapshot_sh_t, publish_ns, 16);
    PIN_OFF(shm3d_snapshot_sh_t, sim_step, 24);
    PIN_OFF(shm3d_snapshot_sh_t, sim_time, 32);
    PIN_OFF(shm3d_snapshot_sh_t, game_time, 40);
    PIN_OFF(shm3d_snapshot_sh_t, half, 48);
    PIN_OFF(shm3d_snapshot_sh_t, play_mode, 52);
    PIN_OFF(shm3d_snapshot_sh_t, score, 56);
    PIN_OFF(shm3d_snapshot_sh_t, sense, 64);
    PIN_OFF(shm3d_snapshot_sh_t, info, 68);
    PIN_OFF(shm3d_snapshot_sh_t, team, 72);
    PIN_OFF(shm3d_snapshot_sh_t, event_head, 136);
    PIN_OFF(shm3d_snapshot_sh_t, ball_pos, 144);
    PIN_OFF(shm3d_snapshot_sh_t, ball_vel, 168);
    PIN_OFF(shm3d_snapshot_sh_t, robot, 192);
}

Test(layout3d, event)
{
    PIN_SIZE(shm3d_event_sh_t, 136);
    PIN_OFF(shm3d_event_sh_t, seq, 0);
    PIN_OFF(shm3d_event_sh_t, kind, 8);
    PIN_OFF(shm3d_event_sh_t, slot, 12);
    PIN_OFF(shm3d_event_sh_t, generation, 16);
    PIN_OFF(shm3d_event_sh_t, arg, 20);
    PIN_OFF(shm3d_event_sh_t, len, 24);
    PIN_OFF(shm3d_event_sh_t, _pad0, 28);
    PIN_OFF(shm3d_event_sh_t, time, 32);
    PIN_OFF(shm3d_event_sh_t, text, 40);
}

Test(layout3d, event_ring)
{
    PIN_SIZE(shm3d_event_ring_sh_t, 139280);
    PIN_OFF(shm3d_event_ring_sh_t, head, 0);
    PIN_OFF(shm3d_event_ring_sh_t, _pad0, 8);
    PIN_OFF(shm3d_event_ring_sh_t, ev, 16);
}

Test(layout3d, region)
{
    PIN_SIZE(shm3d_region_sh_t, 1272096);
    PIN_OFF(shm3d_region_sh_t, hdr, 0);
    PIN_OFF(shm3d_region_sh_t, params, 168);
    PIN_OFF(shm3d_region_sh_t, proc, 25520);
    PIN_OFF(shm3d_region_sh_t, agent, 91456);
    PIN_OFF(shm3d_region_sh_t, cmd, 92688);
    PIN_OFF(shm3d_region_sh_t, snap, 275728);
    PIN_OFF(shm3d_region_sh_t, events, 1132816);
}
