/* s3d_step.c -- one step of the 3D world, in this order: the drive forces of the step
 * are drawn (with their error), the integrator runs its substeps (s3d_phys.c),
 * batteries and temperatures follow the drive (s3d_effect.c), the kick in progress
 * counts down, and the referee looks at the result (s3d_referee.c). It calls those
 * parts; none of them calls back. */
#include "s3d_world.h"

/* the step's drive forces: zero without battery; the error is drawn once per step */
static void world_drive_forces(s3d_world_t *w)
{
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        s3d_robot_t *r = &w->robot[i];
        if (!r->present)
            continue;
        if (r->battery <= 0.0 || vec3_len(r->drive) == 0.0)
            r->force = vec3(0, 0, 0);
        else
            r->force = s3d_drive_force(&w->pr, &w->rng_act, r->drive);
    }
}

void s3d_world_step(s3d_world_t *w)
{
    world_drive_forces(w);
    s3d_phys_step(w);
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        if (w->robot[i].present)
            s3d_robot_energy(&w->pr, &w->robot[i]);
    }
    if (w->kick.steps_left > 0)
        w->kick.steps_left--;
    w->step++;
    s3d_ref_step(w);
}
