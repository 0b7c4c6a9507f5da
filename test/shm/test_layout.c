/* test_layout.c -- pins the size of every _sh_t of shm/shm_layout.h and the offset of
 * every field, with numbers written out by hand (x86_64 Linux, glibc: sem_t is 32 bytes,
 * pthread_mutex_t 40). Processes built from different trees share one region, so any
 * drift of these numbers is a protocol change.
 *
 * A failure here means the shm contract changed: bump SHM_LAYOUT_VERSION in
 * shm_layout.h and update these numbers together. */
#include <criterion/criterion.h>
#include <stddef.h>

#include "shm_layout.h"

#define PIN_SIZE(type, n) \
    cr_expect_eq(sizeof(type), (size_t)(n), "sizeof(" #type ") is %zu, pinned %zu", \
                 sizeof(type), (size_t)(n))
#define PIN_OFF(type, field, n) \
    cr_expect_eq(offsetof(type, field), (size_t)(n), \
                 "offsetof(" #type ", " #field ") is %zu, pinned %zu", \
                 offsetof(type, field), (size_t)(n))

Test(layout, header)
{
    /* the version is pinned with the numbers: bumping it forces a visit here */
    cr_assert_eq(SHM_LAYOUT_VERSION, 11u, "SHM_LAYOUT_VERSION changed: update every number in this file");
    cr_assert_eq(SHM_MAGIC, 0x52435357u);
    PIN_SIZE(shm_header_sh_t, 264);
    PIN_OFF(shm_header_sh_t, magic, 0);
    PIN_OFF(shm_header_sh_t, layout_version, 4);
    PIN_OFF(shm_header_sh_t, region_size, 8);
    PIN_OFF(shm_header_sh_t, header_size, 16);
    PIN_OFF(shm_header_sh_t, params_hash, 20);
    PIN_OFF(shm_header_sh_t, sim_pid, 24);
    PIN_OFF(shm_header_sh_t, n_gateways, 28);
    PIN_OFF(shm_header_sh_t, ready, 32);
    PIN_OFF(shm_header_sh_t, shutdown, 36);
    PIN_OFF(shm_header_sh_t, published, 40);
    PIN_OFF(shm_header_sh_t, epoch_ns, 48);
    PIN_OFF(shm_header_sh_t, step_ns, 56);
    PIN_OFF(shm_header_sh_t, random_seed, 64);
    PIN_OFF(shm_header_sh_t, done_sem, 72);
    PIN_OFF(shm_header_sh_t, table_lock, 104);
    PIN_OFF(shm_header_sh_t, table_lock_owner, 144);
    PIN_OFF(shm_header_sh_t, players_now, 148);
    PIN_OFF(shm_header_sh_t, name, 152);
    PIN_OFF(shm_header_sh_t, instance_id, 216);
    PIN_OFF(shm_header_sh_t, sim_start, 224);
    PIN_OFF(shm_header_sh_t, live_pub, 232);
    PIN_OFF(shm_header_sh_t, sim_restarts, 240);
    PIN_OFF(shm_header_sh_t, resume_tries, 244);
    PIN_OFF(shm_header_sh_t, resume_wait_ms, 248);
    PIN_OFF(shm_header_sh_t, super_pid, 252);
    PIN_OFF(shm_header_sh_t, super_start, 256);
}

Test(layout, state)
{
    PIN_SIZE(shm_state_sh_t, 1310784);
    PIN_OFF(shm_state_sh_t, cur, 0);
    PIN_OFF(shm_state_sh_t, body_version, 4);
    PIN_OFF(shm_state_sh_t, body_size, 8);
    PIN_OFF(shm_state_sh_t, commits, 16);
    PIN_OFF(shm_state_sh_t, body, 64);
}

Test(layout, params)
{
    PIN_SIZE(shm_params_sh_t, 84488);
    PIN_OFF(shm_params_sh_t, count, 0);
    PIN_OFF(shm_params_sh_t, _pad0, 4);
    PIN_OFF(shm_params_sh_t, num, 8);
    PIN_OFF(shm_params_sh_t, str, 2568);
}

Test(layout, ptype)
{
    PIN_SIZE(shm_ptype_sh_t, 256);
    PIN_OFF(shm_ptype_sh_t, player_speed_max, 0);
    PIN_OFF(shm_ptype_sh_t, stamina_inc_max, 8);
    PIN_OFF(shm_ptype_sh_t, player_decay, 16);
    PIN_OFF(shm_ptype_sh_t, inertia_moment, 24);
    PIN_OFF(shm_ptype_sh_t, dash_power_rate, 32);
    PIN_OFF(shm_ptype_sh_t, player_size, 40);
    PIN_OFF(shm_ptype_sh_t, kickable_margin, 48);
    PIN_OFF(shm_ptype_sh_t, kick_rand, 56);
    PIN_OFF(shm_ptype_sh_t, extra_stamina, 64);
    PIN_OFF(shm_ptype_sh_t, effort_max, 72);
    PIN_OFF(shm_ptype_sh_t, effort_min, 80);
    PIN_OFF(shm_ptype_sh_t, kick_power_rate, 88);
    PIN_OFF(shm_ptype_sh_t, foul_detect_probability, 96);
    PIN_OFF(shm_ptype_sh_t, catchable_area_l_stretch, 104);
    PIN_OFF(shm_ptype_sh_t, unum_far_length, 112);
    PIN_OFF(shm_ptype_sh_t, unum_too_far_length, 120);
    PIN_OFF(shm_ptype_sh_t, team_far_length, 128);
    PIN_OFF(shm_ptype_sh_t, team_too_far_length, 136);
    PIN_OFF(shm_ptype_sh_t, player_max_observation_length, 144);
    PIN_OFF(shm_ptype_sh_t, ball_vel_far_length, 152);
    PIN_OFF(shm_ptype_sh_t, ball_vel_too_far_length, 160);
    PIN_OFF(shm_ptype_sh_t, ball_max_observation_length, 168);
    PIN_OFF(shm_ptype_sh_t, flag_chg_far_length, 176);
    PIN_OFF(shm_ptype_sh_t, flag_chg_too_far_length, 184);
    PIN_OFF(shm_ptype_sh_t, flag_max_observation_length, 192);
    PIN_OFF(shm_ptype_sh_t, dist_noise_rate, 200);
    PIN_OFF(shm_ptype_sh_t, focus_dist_noise_rate, 208);
    PIN_OFF(shm_ptype_sh_t, land_dist_noise_rate, 216);
    PIN_OFF(shm_ptype_sh_t, land_focus_dist_noise_rate, 224);
    PIN_OFF(shm_ptype_sh_t, _spare, 232);
}

Test(layout, ptypes)
{
    PIN_SIZE(shm_ptypes_sh_t, 8200);
    PIN_OFF(shm_ptypes_sh_t, count, 0);
    PIN_OFF(shm_ptypes_sh_t, _pad0, 4);
    PIN_OFF(shm_ptypes_sh_t, type, 8);
}

Test(layout, ball)
{
    PIN_SIZE(shm_ball_sh_t, 32);
    PIN_OFF(shm_ball_sh_t, x, 0);
    PIN_OFF(shm_ball_sh_t, y, 8);
    PIN_OFF(shm_ball_sh_t, vx, 16);
    PIN_OFF(shm_ball_sh_t, vy, 24);
}

Test(layout, player)
{
    PIN_SIZE(shm_player_sh_t, 208);
    PIN_OFF(shm_player_sh_t, enabled, 0);
    PIN_OFF(shm_player_sh_t, side, 1);
    PIN_OFF(shm_player_sh_t, unum, 2);
    PIN_OFF(shm_player_sh_t, goalie, 3);
    PIN_OFF(shm_player_sh_t, view_width, 4);
    PIN_OFF(shm_player_sh_t, view_high, 5);
    PIN_OFF(shm_player_sh_t, synch_see, 6);
    PIN_OFF(shm_player_sh_t, card, 7);
    PIN_OFF(shm_player_sh_t, type, 8);
    PIN_OFF(shm_player_sh_t, state, 12);
    PIN_OFF(shm_player_sh_t, collision, 16);
    PIN_OFF(shm_player_sh_t, x, 24);
    PIN_OFF(shm_player_sh_t, y, 32);
    PIN_OFF(shm_player_sh_t, vx, 40);
    PIN_OFF(shm_player_sh_t, vy, 48);
    PIN_OFF(shm_player_sh_t, body, 56);
    PIN_OFF(shm_player_sh_t, neck, 64);
    PIN_OFF(shm_player_sh_t, stamina, 72);
    PIN_OFF(shm_player_sh_t, effort, 80);
    PIN_OFF(shm_player_sh_t, recovery, 88);
    PIN_OFF(shm_player_sh_t, capacity, 96);
    PIN_OFF(shm_player_sh_t, focus_dist, 104);
    PIN_OFF(shm_player_sh_t, focus_dir, 112);
    PIN_OFF(shm_player_sh_t, point_x, 120);
    PIN_OFF(shm_player_sh_t, point_y, 128);
    PIN_OFF(shm_player_sh_t, arm_movable, 136);
    PIN_OFF(shm_player_sh_t, arm_expires, 140);
    PIN_OFF(shm_player_sh_t, focus_side, 144);
    PIN_OFF(shm_player_sh_t, focus_unum, 145);
    PIN_OFF(shm_player_sh_t, kicked, 146);
    PIN_OFF(shm_player_sh_t, _pad0, 147);
    PIN_OFF(shm_player_sh_t, tackle_expires, 148);
    PIN_OFF(shm_player_sh_t, foul_charged, 152);
    PIN_OFF(shm_player_sh_t, count, 156);
}

Test(layout, snapshot)
{
    PIN_SIZE(shm_snapshot_sh_t, 4736);
    PIN_OFF(shm_snapshot_sh_t, seq, 0);
    PIN_OFF(shm_snapshot_sh_t, step, 8);
    PIN_OFF(shm_snapshot_sh_t, publish_ns, 16);
    PIN_OFF(shm_snapshot_sh_t, time, 24);
    PIN_OFF(shm_snapshot_sh_t, stoppage, 28);
    PIN_OFF(shm_snapshot_sh_t, play_mode, 32);
    PIN_OFF(shm_snapshot_sh_t, score, 36);
    PIN_OFF(shm_snapshot_sh_t, pen_score, 44);
    PIN_OFF(shm_snapshot_sh_t, pen_miss, 52);
    PIN_OFF(shm_snapshot_sh_t, catcher, 60);
    PIN_OFF(shm_snapshot_sh_t, team, 64);
    PIN_OFF(shm_snapshot_sh_t, event_head, 96);
    PIN_OFF(shm_snapshot_sh_t, ball, 104);
    PIN_OFF(shm_snapshot_sh_t, player, 136);
    PIN_OFF(shm_snapshot_sh_t, episode, 4712);
    PIN_OFF(shm_snapshot_sh_t, pen_coin, 4716);
    PIN_OFF(shm_snapshot_sh_t, grid_ns, 4720);
    PIN_OFF(shm_snapshot_sh_t, poll, 4728);
}

Test(layout, event)
{
    PIN_SIZE(shm_event_sh_t, 280);
    PIN_OFF(shm_event_sh_t, seq, 0);
    PIN_OFF(shm_event_sh_t, kind, 8);
    PIN_OFF(shm_event_sh_t, time, 12);
    PIN_OFF(shm_event_sh_t, side, 16);
    PIN_OFF(shm_event_sh_t, unum, 17);
    PIN_OFF(shm_event_sh_t, len, 18);
    PIN_OFF(shm_event_sh_t, arg, 20);
    PIN_OFF(shm_event_sh_t, x, 24);
    PIN_OFF(shm_event_sh_t, y, 32);
    PIN_OFF(shm_event_sh_t, text, 40);
    PIN_OFF(shm_event_sh_t, stoppage, 272);
    PIN_OFF(shm_event_sh_t, _pad1, 276);
}

Test(layout, event_ring)
{
    PIN_SIZE(shm_event_ring_sh_t, 1146896);
    PIN_OFF(shm_event_ring_sh_t, head, 0);
    PIN_OFF(shm_event_ring_sh_t, _pad0, 8);
    PIN_OFF(shm_event_ring_sh_t, ev, 16);
}

Test(layout, cmd)
{
    PIN_SIZE(shm_cmd_sh_t, 272);
    PIN_OFF(shm_cmd_sh_t, kind, 0);
    PIN_OFF(shm_cmd_sh_t, len, 2);
    PIN_OFF(shm_cmd_sh_t, i, 4);
    PIN_OFF(shm_cmd_sh_t, flags, 8);
    PIN_OFF(shm_cmd_sh_t, recv_time, 12);
    PIN_OFF(shm_cmd_sh_t, d, 16);
    PIN_OFF(shm_cmd_sh_t, text, 56);
}

Test(layout, cmd_ring)
{
    PIN_SIZE(shm_cmd_ring_sh_t, 17536);
    PIN_OFF(shm_cmd_ring_sh_t, head, 0);
    PIN_OFF(shm_cmd_ring_sh_t, _pad0, 4);
    PIN_OFF(shm_cmd_ring_sh_t, tail, 64);
    PIN_OFF(shm_cmd_ring_sh_t, dropped, 68);
    PIN_OFF(shm_cmd_ring_sh_t, _pad1, 72);
    PIN_OFF(shm_cmd_ring_sh_t, slot, 128);
}

Test(layout, ctrl_ring)
{
    PIN_SIZE(shm_ctrl_ring_sh_t, 69760);
    PIN_OFF(shm_ctrl_ring_sh_t, head, 0);
    PIN_OFF(shm_ctrl_ring_sh_t, _pad0, 4);
    PIN_OFF(shm_ctrl_ring_sh_t, tail, 64);
    PIN_OFF(shm_ctrl_ring_sh_t, dropped, 68);
    PIN_OFF(shm_ctrl_ring_sh_t, _pad1, 72);
    PIN_OFF(shm_ctrl_ring_sh_t, slot, 128);
}

Test(layout, client)
{
    PIN_SIZE(shm_client_sh_t, 160);
    PIN_OFF(shm_client_sh_t, state, 0);
    PIN_OFF(shm_client_sh_t, kind, 4);
    PIN_OFF(shm_client_sh_t, owner_gw, 8);
    PIN_OFF(shm_client_sh_t, generation, 12);
    PIN_OFF(shm_client_sh_t, addr, 16);
    PIN_OFF(shm_client_sh_t, family, 32);
    PIN_OFF(shm_client_sh_t, port, 36);
    PIN_OFF(shm_client_sh_t, local_port, 38);
    PIN_OFF(shm_client_sh_t, version, 40);
    PIN_OFF(shm_client_sh_t, side, 48);
    PIN_OFF(shm_client_sh_t, unum, 52);
    PIN_OFF(shm_client_sh_t, goalie, 56);
    PIN_OFF(shm_client_sh_t, view_width, 60);
    PIN_OFF(shm_client_sh_t, view_high, 64);
    PIN_OFF(shm_client_sh_t, synch_see, 68);
    PIN_OFF(shm_client_sh_t, gaussian_see, 72);
    PIN_OFF(shm_client_sh_t, compression, 76);
    PIN_OFF(shm_client_sh_t, ear_on, 80);
    PIN_OFF(shm_client_sh_t, ear_partial, 88);
    PIN_OFF(shm_client_sh_t, clang_min, 96);
    PIN_OFF(shm_client_sh_t, clang_max, 100);
    PIN_OFF(shm_client_sh_t, eye_on, 104);
    PIN_OFF(shm_client_sh_t, trainer_ear, 108);
    PIN_OFF(shm_client_sh_t, done_step, 112);
    PIN_OFF(shm_client_sh_t, last_recv_ns, 120);
    PIN_OFF(shm_client_sh_t, coach_name, 128);
    PIN_OFF(shm_client_sh_t, reconnect_token, 144);
}

Test(layout, team)
{
    PIN_SIZE(shm_team_sh_t, 24);
    PIN_OFF(shm_team_sh_t, used, 0);
    PIN_OFF(shm_team_sh_t, joined, 4);
    PIN_OFF(shm_team_sh_t, name, 8);
}

Test(layout, monitor)
{
    PIN_SIZE(shm_monitor_sh_t, 48);
    PIN_OFF(shm_monitor_sh_t, state, 0);
    PIN_OFF(shm_monitor_sh_t, version, 4);
    PIN_OFF(shm_monitor_sh_t, addr, 8);
    PIN_OFF(shm_monitor_sh_t, family, 24);
    PIN_OFF(shm_monitor_sh_t, port, 28);
    PIN_OFF(shm_monitor_sh_t, local_port, 30);
    PIN_OFF(shm_monitor_sh_t, skipped, 32);
    PIN_OFF(shm_monitor_sh_t, zlevel, 40);
    PIN_OFF(shm_monitor_sh_t, _pad0, 44);
}

Test(layout, monreq)
{
    PIN_SIZE(shm_monreq_sh_t, 144);
    PIN_OFF(shm_monreq_sh_t, addr, 0);
    PIN_OFF(shm_monreq_sh_t, family, 16);
    PIN_OFF(shm_monreq_sh_t, port, 20);
    PIN_OFF(shm_monreq_sh_t, _pad0, 22);
    PIN_OFF(shm_monreq_sh_t, text, 24);
}

Test(layout, montab)
{
    PIN_SIZE(shm_montab_sh_t, 16);
    PIN_OFF(shm_montab_sh_t, hwm, 0);
    PIN_OFF(shm_montab_sh_t, count, 4);
    PIN_OFF(shm_montab_sh_t, oldest_recv_ns, 8);
}

Test(layout, monreq_ring)
{
    PIN_SIZE(shm_monreq_ring_sh_t, 73856); /* 128 + 512 x 144 */
    PIN_OFF(shm_monreq_ring_sh_t, head, 0);
    PIN_OFF(shm_monreq_ring_sh_t, _pad0, 4);
    PIN_OFF(shm_monreq_ring_sh_t, tail, 64);
    PIN_OFF(shm_monreq_ring_sh_t, dropped, 68);
    PIN_OFF(shm_monreq_ring_sh_t, _pad1, 72);
    PIN_OFF(shm_monreq_ring_sh_t, slot, 128);
}

Test(layout, proc)
{
    PIN_SIZE(shm_proc_sh_t, 143688);
    PIN_OFF(shm_proc_sh_t, pid, 0);
    PIN_OFF(shm_proc_sh_t, state, 4);
    PIN_OFF(shm_proc_sh_t, restarts, 8);
    PIN_OFF(shm_proc_sh_t, _pad0, 12);
    PIN_OFF(shm_proc_sh_t, heartbeat_ns, 16);
    PIN_OFF(shm_proc_sh_t, last_step, 24);
    PIN_OFF(shm_proc_sh_t, resets, 32);
    PIN_OFF(shm_proc_sh_t, cycle_sem, 40);
    PIN_OFF(shm_proc_sh_t, ctrl, 72);
    PIN_OFF(shm_proc_sh_t, monreq, 69832);
}

Test(layout, region)
{
    PIN_SIZE(shm_region_sh_t, 6283744);
    PIN_OFF(shm_region_sh_t, hdr, 0);
    PIN_OFF(shm_region_sh_t, params, 264);
    PIN_OFF(shm_region_sh_t, ptypes, 84752);
    PIN_OFF(shm_region_sh_t, team, 92952);
    PIN_OFF(shm_region_sh_t, netgw, 93000);
    PIN_OFF(shm_region_sh_t, monitorgw, 2392008);
    PIN_OFF(shm_region_sh_t, client, 2535696);
    PIN_OFF(shm_region_sh_t, cmd, 2539696);
    PIN_OFF(shm_region_sh_t, monitor, 2978096);
    PIN_OFF(shm_region_sh_t, snap, 3371312);
    PIN_OFF(shm_region_sh_t, events, 3674416);
    PIN_OFF(shm_region_sh_t, coach, 4821312);
    PIN_OFF(shm_region_sh_t, recorder, 4821392);
    PIN_OFF(shm_region_sh_t, rec, 4965080);
    PIN_OFF(shm_region_sh_t, montab, 4965392);
    PIN_OFF(shm_region_sh_t, runner, 4965408);
    PIN_OFF(shm_region_sh_t, live, 4968224);
    PIN_OFF(shm_region_sh_t, state, 4972960);
}

Test(layout, coach)
{
    PIN_SIZE(shm_coach_sh_t, 40);
    PIN_OFF(shm_coach_sh_t, clang_window, 0);
    PIN_OFF(shm_coach_sh_t, freeform_said, 4);
    PIN_OFF(shm_coach_sh_t, clang_left, 8);
}

Test(layout, recorder)
{
    PIN_SIZE(shm_rec_state_sh_t, 136);
    PIN_OFF(shm_rec_state_sh_t, snap_next, 0);
    PIN_OFF(shm_rec_state_sh_t, ev_next, 8);
    PIN_OFF(shm_rec_state_sh_t, game_bytes, 16);
    PIN_OFF(shm_rec_state_sh_t, text_bytes, 24);
    PIN_OFF(shm_rec_state_sh_t, valid, 32);
    PIN_OFF(shm_rec_state_sh_t, pm, 36);
    PIN_OFF(shm_rec_state_sh_t, prev_pm, 40);
    PIN_OFF(shm_rec_state_sh_t, time_over_shown, 44);
    PIN_OFF(shm_rec_state_sh_t, score, 48);
    PIN_OFF(shm_rec_state_sh_t, pen_taken, 56);
    PIN_OFF(shm_rec_state_sh_t, team, 64);
    PIN_OFF(shm_rec_state_sh_t, coach, 96);
    PIN_OFF(shm_rec_state_sh_t, episode, 128);
    PIN_OFF(shm_rec_state_sh_t, prev_time, 132);
    PIN_SIZE(shm_recorder_sh_t, 312);
    PIN_OFF(shm_recorder_sh_t, start_time, 0);
    PIN_OFF(shm_recorder_sh_t, cur, 8);
    PIN_OFF(shm_recorder_sh_t, _pad0, 12);
    PIN_OFF(shm_recorder_sh_t, read_ev, 16);
    PIN_OFF(shm_recorder_sh_t, lost_snaps, 24);
    PIN_OFF(shm_recorder_sh_t, lost_events, 32);
    PIN_OFF(shm_recorder_sh_t, state, 40);
}

Test(layout, runner)
{
    PIN_SIZE(shm_client_stat_sh_t, 24);
    PIN_OFF(shm_client_stat_sh_t, misses, 0);
    PIN_OFF(shm_client_stat_sh_t, miss_run, 8);
    PIN_OFF(shm_client_stat_sh_t, miss_run_max, 12);
    PIN_OFF(shm_client_stat_sh_t, connects, 16);
    PIN_OFF(shm_client_stat_sh_t, _pad0, 20);
    PIN_SIZE(shm_runner_sh_t, 2816);
    PIN_OFF(shm_runner_sh_t, port, 0);
    PIN_OFF(shm_runner_sh_t, coach_port, 4);
    PIN_OFF(shm_runner_sh_t, olcoach_port, 8);
    PIN_OFF(shm_runner_sh_t, http_port, 12);
    PIN_OFF(shm_runner_sh_t, ready, 16);
    PIN_OFF(shm_runner_sh_t, finish, 20);
    PIN_OFF(shm_runner_sh_t, episode, 24);
    PIN_OFF(shm_runner_sh_t, exit_code, 28);
    PIN_OFF(shm_runner_sh_t, exit_reason, 32);
    PIN_OFF(shm_runner_sh_t, cycles, 64);
    PIN_OFF(shm_runner_sh_t, period_ns, 72);
    PIN_OFF(shm_runner_sh_t, period_sum_ns, 80);
    PIN_OFF(shm_runner_sh_t, period_max_ns, 88);
    PIN_OFF(shm_runner_sh_t, jitter_ns, 96);
    PIN_OFF(shm_runner_sh_t, publish_ns, 104);
    PIN_OFF(shm_runner_sh_t, publish_sum_ns, 112);
    PIN_OFF(shm_runner_sh_t, publish_max_ns, 120);
    PIN_OFF(shm_runner_sh_t, misses, 128);
    PIN_OFF(shm_runner_sh_t, late_steps, 136);
    PIN_OFF(shm_runner_sh_t, event_drops, 144);
    PIN_OFF(shm_runner_sh_t, client, 152);
    PIN_OFF(shm_runner_sh_t, mgw_event_read, 752);
    PIN_OFF(shm_runner_sh_t, logs_named, 760);
    PIN_OFF(shm_runner_sh_t, _pad0, 764);
    PIN_OFF(shm_runner_sh_t, game_log, 768);
    PIN_OFF(shm_runner_sh_t, text_log, 1792);
}
