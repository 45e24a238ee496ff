/* A thread kept from call to call, that runs one job at a time for the thread that owns it: the provers'
   helper (threads.c) and the widest build's deep search thread (entry.c). A thread made per call would
   start with cold thread-local caches (pairing.c's covers, megabytes that warm up over many searches),
   zero its fresh stack pages, and free its caches at its end.

   It blocks every signal: the process's handlers belong to the threads that asked for them (Python's
   main thread). A fork copies its memory but not its thread: a child that runs Python after the fork
   (gevent's subprocess did) drops the parent's objects, and freeing the thread there (joining a thread
   the child does not have, or destroying a condition the parent's thread waits on) blocked that child
   for ever. So it remembers the process that made it, and freed in any other process it only lets go of
   the memory. */
#ifndef SS_KEPT_THREAD_H
#define SS_KEPT_THREAD_H

#include <stddef.h>

typedef struct kept_thread kept_thread;

/* A new thread with `stack` bytes of stack (0: the default) that calls `after_each` (NULL: nothing)
   after each job on its own thread, and frees its caches (pairing.c) at its end; NULL if none could be
   made. */
kept_thread *kept_thread_new(size_t stack, void (*after_each)(void));

/* Ends the thread (made in this process) and frees it. */
void kept_thread_free(kept_thread *t);

/* Hands `job(arg)` to the thread, idle (its last job waited for). */
void kept_thread_start(kept_thread *t, void (*job)(void *), void *arg);

/* Returns when the job handed over is done. */
void kept_thread_wait(kept_thread *t);

/* Whether the thread is this process's (not a forked copy's). */
int kept_thread_here(const kept_thread *t);

#endif
