/* test_region.c -- shm_region_create/attach/verify/destroy: two mappings see the same
 * memory, and attach refuses a foreign region in exactly one line naming the mismatch.
 * Each test uses its own object name (pid + counter); .fini unlinks it. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "params.h"
#include "shm.h"

static char name[SHM_NAME_LEN];
static shm_handle_t owner;

static void setup(void)
{
    static int counter;

    snprintf(name, sizeof name, "/rcss-test-region-%d-%d", (int)getpid(), counter++);
    memset(&owner, 0, sizeof owner);
}

static void teardown(void)
{
    if (owner.r != NULL)
        shm_region_destroy(&owner);
    shm_unlink(name);
}

TestSuite(region, .init = setup, .fini = teardown, .timeout = 10);

/* Create the region of this test or fail the test. */
static void create_or_die(void)
{
    char err[SHM_ERR_LEN] = "";

    cr_assert_eq(shm_region_create(&owner, name, err, sizeof err), 0, "create: %s", err);
}

/* Attach must fail with exactly the one line `want`. */
static void expect_refused(const char *want)
{
    char err[SHM_ERR_LEN] = "";
    shm_handle_t h;

    cr_assert_eq(shm_region_attach(&h, name, err, sizeof err), -1, "attach accepted");
    cr_expect_str_eq(err, want);
    cr_expect_null(strchr(err, '\n'), "one line only");
    cr_expect_null(h.r, "nothing mapped on failure");
}

Test(region, default_name)
{
    char buf[SHM_NAME_LEN];

    shm_default_name(6000, buf, sizeof buf);
    cr_expect_str_eq(buf, "/rcssserver-6000");
}

Test(region, create_fills_header)
{
    create_or_die();
    cr_expect_eq(owner.owner, 1);
    cr_expect_eq(owner.size, sizeof(shm_region_sh_t));
    cr_expect_str_eq(owner.name, name);
    cr_expect_eq(owner.r->hdr.magic, SHM_MAGIC);
    cr_expect_eq(owner.r->hdr.layout_version, SHM_LAYOUT_VERSION);
    cr_expect_eq(owner.r->hdr.region_size, sizeof(shm_region_sh_t));
    cr_expect_eq(owner.r->hdr.header_size, sizeof(shm_header_sh_t));
    cr_expect_eq(owner.r->hdr.params_hash, param_table_hash());
    cr_expect_eq(owner.r->hdr.sim_pid, (int32_t)getpid());
    cr_expect_str_eq(owner.r->hdr.name, name);
    cr_expect_eq(atomic_load(&owner.r->hdr.published), 0u);
    cr_expect_eq(atomic_load(&owner.r->hdr.table_lock_owner), 0);
    /* semaphores start at 0: nothing to take */
    cr_expect_eq(shm_sem_drain(&owner.r->hdr.done_sem), 0);
    cr_expect_eq(shm_sem_drain(&owner.r->monitorgw.cycle_sem), 0);
}

Test(region, create_and_attach_share_memory)
{
    char err[SHM_ERR_LEN] = "";
    shm_handle_t h;

    create_or_die();
    cr_assert_eq(shm_region_attach(&h, name, err, sizeof err), 0, "attach: %s", err);
    cr_expect_eq(h.owner, 0);
    cr_expect_neq((void *)h.r, (void *)owner.r, "a second, distinct mapping");
    owner.r->client[3].unum = 7;
    cr_expect_eq(h.r->client[3].unum, 7);
    h.r->team[1].used = 1;
    cr_expect_eq(owner.r->team[1].used, 1);
    shm_region_detach(&h);
    cr_expect_null(h.r);
}

Test(region, create_replaces_stale_object)
{
    char err[SHM_ERR_LEN] = "";
    int fd = shm_open(name, O_CREAT | O_RDWR, 0600);

    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, 4096), 0);
    close(fd);
    cr_assert_eq(shm_region_create(&owner, name, err, sizeof err), 0, "create: %s", err);
    cr_expect_eq(owner.r->hdr.magic, SHM_MAGIC);
}

Test(region, attach_refuses_bad_magic)
{
    char want[SHM_ERR_LEN];

    create_or_die();
    owner.r->hdr.magic = 0xdeadbeefu;
    snprintf(want, sizeof want, "shm %s: bad magic 0xdeadbeef", name);
    expect_refused(want);
}

Test(region, attach_refuses_other_version)
{
    char want[SHM_ERR_LEN];

    create_or_die();
    owner.r->hdr.layout_version = SHM_LAYOUT_VERSION + 1;
    snprintf(want, sizeof want, "shm %s: layout version %u, expected %u", name,
             SHM_LAYOUT_VERSION + 1, SHM_LAYOUT_VERSION);
    expect_refused(want);
}

Test(region, attach_refuses_recorded_size)
{
    char want[SHM_ERR_LEN];

    create_or_die();
    owner.r->hdr.region_size = 12345;
    snprintf(want, sizeof want, "shm %s: region size 12345, expected %zu", name,
             sizeof(shm_region_sh_t));
    expect_refused(want);
}

/* A bogus object with a valid-looking header but the wrong length: the mapped size is
 * what gets reported. */
Test(region, attach_refuses_mapped_size)
{
    char want[SHM_ERR_LEN];
    shm_header_sh_t hd;
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);

    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, 8192), 0);
    memset(&hd, 0, sizeof hd);
    hd.magic = SHM_MAGIC;
    hd.layout_version = SHM_LAYOUT_VERSION;
    hd.region_size = sizeof(shm_region_sh_t);
    hd.params_hash = param_table_hash();
    cr_assert_eq(pwrite(fd, &hd, sizeof hd, 0), (ssize_t)sizeof hd);
    close(fd);
    snprintf(want, sizeof want, "shm %s: region size 8192, expected %zu", name,
             sizeof(shm_region_sh_t));
    expect_refused(want);
}

Test(region, attach_refuses_object_smaller_than_header)
{
    char want[SHM_ERR_LEN];
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);

    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, 10), 0);
    close(fd);
    snprintf(want, sizeof want, "shm %s: region size 10, expected %zu", name,
             sizeof(shm_region_sh_t));
    expect_refused(want);
}

Test(region, attach_refuses_other_params)
{
    char want[SHM_ERR_LEN];
    uint32_t bad = param_table_hash() ^ 0x1u;

    create_or_die();
    owner.r->hdr.params_hash = bad;
    snprintf(want, sizeof want, "shm %s: parameter table differs (hash 0x%08x, expected 0x%08x)",
             name, bad, param_table_hash());
    expect_refused(want);
}

Test(region, verify_checks_magic_before_size)
{
    char err[SHM_ERR_LEN] = "";
    shm_region_sh_t *r;

    create_or_die();
    r = owner.r;
    r->hdr.magic = 1;
    r->hdr.region_size = 1;
    cr_expect_eq(shm_region_verify(r, owner.size, "/n", err, sizeof err), -1);
    cr_expect_str_eq(err, "shm /n: bad magic 0x00000001");
    cr_expect_eq(shm_region_verify(NULL, 0, "/n", err, sizeof err), -1);
}

Test(region, attach_missing_names_shm_open)
{
    char want[SHM_ERR_LEN];

    snprintf(want, sizeof want, "shm_open(\"%s\") failed: No such file or directory", name);
    expect_refused(want);
}

Test(region, rejects_bad_names)
{
    static const char *bad[] = { "", "/", "noslash", "/a/b",
        "/0123456789012345678901234567890123456789012345678901234567890123456789" };
    char err[SHM_ERR_LEN];
    shm_handle_t h;

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        cr_expect_eq(shm_region_create(&h, bad[i], err, sizeof err), -1, "%s", bad[i]);
        cr_expect_neq(err[0], '\0');
        cr_expect_eq(shm_region_attach(&h, bad[i], err, sizeof err), -1, "%s", bad[i]);
    }
    cr_expect_eq(shm_region_create(&h, NULL, err, sizeof err), -1);
}

Test(region, destroy_unlinks)
{
    char want[SHM_ERR_LEN];

    create_or_die();
    shm_region_destroy(&owner);
    cr_expect_null(owner.r);
    snprintf(want, sizeof want, "shm_open(\"%s\") failed: No such file or directory", name);
    expect_refused(want);
}

Test(region, destroy_by_non_owner_only_detaches)
{
    char err[SHM_ERR_LEN] = "";
    shm_handle_t h;

    create_or_die();
    cr_assert_eq(shm_region_attach(&h, name, err, sizeof err), 0, "attach: %s", err);
    shm_region_destroy(&h);
    cr_expect_null(h.r);
    cr_assert_eq(shm_region_attach(&h, name, err, sizeof err), 0, "still there: %s", err);
    shm_region_detach(&h);
}

/* a region whose sim is alive (here: this process) is never replaced */
Test(region, create_refuses_a_live_sims_region)
{
    char err[SHM_ERR_LEN] = "";
    shm_handle_t h;

    create_or_die();
    cr_expect_eq(shm_region_create(&h, name, err, sizeof err), SHM_CONFLICT);
    cr_expect(strstr(err, "in use by a running server") != NULL, "%s", err);
    cr_expect_null(strchr(err, '\n'), "one line only");
    cr_expect_eq(owner.r->hdr.magic, SHM_MAGIC, "the live region is untouched");
}

/* the region of a sim that is gone is replaced, and the dead sim's pid reported */
Test(region, create_replaces_a_dead_sims_region)
{
    char err[SHM_ERR_LEN] = "";
    pid_t dead = fork();

    cr_assert_geq(dead, 0);
    if (dead == 0)
        _exit(0);
    waitpid(dead, NULL, 0);
    create_or_die();
    owner.r->hdr.sim_pid = (int32_t)dead;
    owner.r->hdr.sim_start = 1; /* and should the pid be reused: another start time */
    shm_region_detach(&owner);  /* the dead sim's mapping is gone; the name stays */
    owner.owner = 0;
    cr_assert_eq(shm_region_create(&owner, name, err, sizeof err), 0, "%s", err);
    cr_expect_eq(owner.reclaimed_pid, dead);
    cr_expect_eq(owner.r->hdr.sim_pid, (int32_t)getpid());
    cr_expect_neq(owner.r->hdr.instance_id, 0u);
}
