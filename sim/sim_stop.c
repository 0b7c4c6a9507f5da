/* sim_stop.c -- the stop flag of the rcssserver process: set by its SIGINT/SIGTERM
 * handler (sim_main.c), read by the main loop, the clock's waits (sim_clock.c) and the
 * children's restarts (sim_proc.c). */
#include "sim.h"

volatile sig_atomic_t sim_stop_flag = 0;
