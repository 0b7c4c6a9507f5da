/* frame_stamp.h -- the stamp a live show frame carries to browser viewers and the
 * broadcast tier (docs/protocol/monitor.md §10): the JSON monitors' show object with one
 * more member, {"show":{...},"pub":{"seq":S,"us":U}}, S the sim's publish number of the
 * snapshot (1 more per cycle published: a viewer sees a gap as a jump) and U the sim's
 * publish time in microseconds since the Unix epoch (CLOCK_REALTIME, so a viewer on
 * another host can tell its latency with a synchronised clock). Readers that do not know
 * "pub" ignore it. Pure. */
#ifndef RCSS_FRAME_STAMP_H
#define RCSS_FRAME_STAMP_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_STAMP_MAX 64   /* bytes the stamp adds at most */

/* json (len bytes, a JSON object, no NUL needed) with the stamp as its last member into
 * out (cap bytes, NUL-terminated): the length, or -1 if it does not fit or json is not
 * an object. */
int frame_stamp_write(const char *json, size_t len, uint64_t seq, int64_t us, char *out,
                      size_t cap);
/* The stamp of a frame (len bytes): 0 with seq and us, -1 if it has none. Looks only at
 * the end of the frame, where frame_stamp_write puts it (a viewer reads thousands of
 * frames a second). */
int frame_stamp_read(const char *json, size_t len, uint64_t *seq, int64_t *us);
/* The wall-clock time (us since the epoch) of a CLOCK_MONOTONIC instant mono_ns. */
int64_t frame_stamp_wall_us(int64_t mono_ns);

#endif
