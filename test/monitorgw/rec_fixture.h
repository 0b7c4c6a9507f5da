/* rec_fixture.h -- worlds and a small match for the recorder and log reader tests. */
#ifndef RCSS_TEST_REC_FIXTURE_H
#define RCSS_TEST_REC_FIXTURE_H

#include "conf.h"
#include "rec.h"

/* every player unconnected off the pitch, before_kick_off, as the sim starts */
void fx_empty(shm_snapshot_sh_t *s);
/* cycle t of a busy match between "Alpha" and "Beta": every player connected with values
 * that exercise each optional part of a show line (pointing arm, focus point, attention,
 * cards, goalie, synch-see view widths, counters), changing with t */
void fx_busy(shm_snapshot_sh_t *s, int t);
/* parameters at their defaults and three player types */
void fx_head(rec_head_t *h);

#endif
