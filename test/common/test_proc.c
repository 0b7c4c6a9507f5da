/* test_proc.c -- the process plumbing of the sims, the agent gateway and the recorder
 * (proc.h): finding the children's programs, starting one in a process group of its
 * own, how a child ended, and stopping the children of process slots by pid (SIGTERM,
 * then SIGKILL for one that ignores it). The children are /bin/sh and sleep. */
#include <criterion/criterion.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "proc.h"

#define EXITED 7u   /* any state value: the one proc_term_all must store */

static char dir[PATH_MAX], err[256];

Test(proc, find_bins_in_the_given_directory)
{
    char tmp[] = "/tmp/test_proc_XXXXXX", path[PATH_MAX];
    cr_assert_not_null(mkdtemp(tmp));
    snprintf(path, sizeof path, "%s/runs", tmp);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fclose(f);
    chmod(path, 0755);
    snprintf(path, sizeof path, "%s/plain", tmp);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fclose(f);
    chmod(path, 0644);
    const char *const ok[1] = { "runs" }, *const bad[2] = { "runs", "plain" };
    cr_assert_eq(proc_find_bins(tmp, ok, 1, dir, sizeof dir, err, sizeof err), 0);
    cr_assert_str_eq(dir, tmp);
    cr_assert_eq(proc_find_bins(tmp, bad, 2, dir, sizeof dir, err, sizeof err), -1);
    char want[PATH_MAX + 32];
    snprintf(want, sizeof want, "cannot find plain in %s", tmp);
    cr_assert_str_eq(err, want);
    unlink(path);
    snprintf(path, sizeof path, "%s/runs", tmp);
    unlink(path);
    rmdir(tmp);
}

/* no directory given: the running program's, where this test binary itself is */
Test(proc, find_bins_next_to_the_program)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    cr_assert_gt(n, 0);
    self[n] = '\0';
    const char *base = strrchr(self, '/') + 1;
    const char *const bins[1] = { base };
    cr_assert_eq(proc_find_bins("", bins, 1, dir, sizeof dir, err, sizeof err), 0, "%s", err);
    cr_assert_eq(strlen(dir), (size_t)(base - 1 - self));
    cr_assert_eq(strncmp(dir, self, strlen(dir)), 0);
}

Test(proc, exit_text)
{
    char buf[48];
    cr_assert_str_eq(proc_exit_text(3 << 8, buf, sizeof buf), "exit status 3");
    cr_assert_str_eq(proc_exit_text(SIGKILL, buf, sizeof buf), "killed by signal 9");
}

/* the child runs dir/argv[0] with argv, in a process group of its own */
Test(proc, spawn_runs_the_program_in_its_own_group)
{
    char *argv[] = { "sh", "-c", "exit 3", NULL };
    pid_t pid = proc_spawn("/bin", argv);
    cr_assert_gt(pid, 0);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 3);

    char *sleeper[] = { "sleep", "30", NULL };
    pid = proc_spawn("/bin", sleeper);
    cr_assert_gt(pid, 0);
    /* the child sets its group itself: wait for it (bounded) */
    for (int i = 0; i < 500 && getpgid(pid) != pid; i++)
        usleep(10000);
    cr_assert_eq(getpgid(pid), pid);
    cr_assert_neq(getpgid(pid), getpgid(0));
    kill(pid, SIGKILL);
    cr_assert_eq(waitpid(pid, &st, 0), pid);
}

/* SIGTERM stops a plain child: its slot is cleared and marked exited; one that ignores
 * SIGTERM is still running after the wait, and SIGKILL ends it */
Test(proc, term_then_kill)
{
    _Atomic int32_t pid[2];
    _Atomic uint32_t state[2];
    proc_slot_t slots[2] = { { &pid[0], &state[0] }, { &pid[1], &state[1] } };
    char *plain[] = { "sh", "-c", "exec sleep 30", NULL };
    char *stubborn[] = { "sh", "-c", "trap '' TERM; exec sleep 30", NULL };

    atomic_store(&pid[0], proc_spawn("/bin", plain));
    atomic_store(&state[0], 1);
    atomic_store(&pid[1], 0);
    atomic_store(&state[1], 0);
    cr_assert_gt(atomic_load(&pid[0]), 0);
    cr_assert_eq(proc_term_all(slots, 2, EXITED, 10000), 0);
    cr_assert_eq(atomic_load(&pid[0]), 0);
    cr_assert_eq(atomic_load(&state[0]), EXITED);
    cr_assert_eq(atomic_load(&state[1]), 0);

    pid_t p = proc_spawn("/bin", stubborn);
    cr_assert_gt(p, 0);
    /* the trap is set once sleep runs in its place: wait for the exec (bounded) */
    char path[64], comm[32] = "";
    snprintf(path, sizeof path, "/proc/%d/comm", (int)p);
    for (int i = 0; i < 500 && strncmp(comm, "sleep", 5) != 0; i++) {
        FILE *f = fopen(path, "r");
        if (f) {
            if (!fgets(comm, sizeof comm, f))
                comm[0] = '\0';
            fclose(f);
        }
        usleep(10000);
    }
    cr_assert_str_eq(comm, "sleep\n");
    atomic_store(&pid[1], p);
    atomic_store(&state[1], 1);
    cr_assert_eq(proc_term_all(slots, 2, EXITED, 200), 1);
    cr_assert_eq(atomic_load(&pid[1]), p);
    proc_kill_all(slots, 2, EXITED);
    cr_assert_eq(atomic_load(&pid[1]), 0);
    cr_assert_eq(atomic_load(&state[1]), EXITED);
}
