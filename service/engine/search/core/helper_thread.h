/* The provers' helper thread (helper_thread.c): one job at a time, handed over and waited for. */
#ifndef SS_HELPER_THREAD_H
#define SS_HELPER_THREAD_H

#include "sanmoku_search.h"

/* Hands `job(arg)` to the helper's thread (idle: the last job waited for). */
void helper_start(ss_pn_helper *h, void (*job)(void *), void *arg);
/* Returns when the job handed over is done. */
void helper_wait(ss_pn_helper *h);

#endif
