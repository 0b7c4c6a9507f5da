/* proc.h -- process plumbing shared by both sims (rcssserver, rcssserver3d), the agent
 * gateway and the recorder: the stop signals, where the running program lives, forking
 * with stdio flushed, starting a gateway child that dies with its parent, and stopping
 * the children recorded in a region's process slots, by pid. The region layouts are the
 * callers': a slot is handed in as its pid and state fields. Never logs. */
#ifndef RCSS_PROC_H
#define RCSS_PROC_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* SIGINT, SIGTERM and SIGHUP set *flag (the loop acts on it); SIGPIPE is ignored. */
void  proc_stop_signals(volatile sig_atomic_t *flag);

/* The directory of the running program (/proc/self/exe). 0, or -1. */
int   proc_self_dir(char *buf, size_t len);
/* The directory of the children's programs: conf_dir if set, else the running program's;
 * each of bins[0..n-1] must be executable there. 0, or -1 with one line in err. */
int   proc_find_bins(const char *conf_dir, const char *const *bins, int n, char *dir,
                     size_t len, char *err, size_t errlen);

/* fork() with stdout and stderr flushed first (the child must not write the parent's
 * buffered output a second time). */
pid_t proc_fork(void);
/* In a forked child before it execs a program of others (a team, an agent): no signal
 * blocked, SIGPIPE back to its default. */
void  proc_child_defaults(void);
/* Start dir/argv[0] with argv: in a process group of its own (terminal signals go to
 * the parent, which stops it), SIGTERM when the parent dies, no signal blocked. The
 * pid, or -1 (errno: fork's). */
pid_t proc_spawn(const char *dir, char *const argv[]);
/* The same, but the child outlives its parent (a gateway of a sim that may be replaced:
 * the supervisor, a child subreaper, adopts it). */
pid_t proc_spawn_keep(const char *dir, char *const argv[]);
/* /proc/PID/stat's state (field 3) and start time (field 22, clock ticks after boot):
 * 0, or -1 (no such process, or unreadable). */
int   proc_stat(pid_t pid, char *state, uint64_t *start);
/* 1 if process pid no longer runs: no such process, or a zombie (dead, waiting for its
 * parent, perhaps not us, to reap it). */
int   proc_gone(pid_t pid);

/* The calling process on the real-time scheduler, SCHED_FIFO at prio (1-99), its
 * children back on the normal one (SCHED_RESET_ON_FORK); prio 0 does nothing. 0, or -1
 * with one line in err (no permission: CAP_SYS_NICE, RLIMIT_RTPRIO, or a systemd unit's
 * CPUSchedulingPolicy=). */
int   proc_realtime(int prio, char *err, size_t len);

/* How a reaped child ended, from its wait status: "killed by signal N" or "exit status N". */
const char *proc_exit_text(int status, char *buf, size_t len);

/* A child's process slot in a region: its pid (0 none) and state fields. */
typedef struct proc_slot {
    _Atomic int32_t  *pid;
    _Atomic uint32_t *state;
} proc_slot_t;

/* SIGTERM to every child of the slots, then wait up to wait_ms while any is running
 * (reaping: a reaped one's slot gets pid 0 and state `exited`). 1 if some are still
 * running (the caller says so, then proc_kill_all), 0 if all are gone. */
int   proc_term_all(const proc_slot_t *slots, int n, uint32_t exited, int wait_ms);
/* SIGKILL to every child still running, and up to a second to reap them. */
void  proc_kill_all(const proc_slot_t *slots, int n, uint32_t exited);

#endif
