/* The helper thread of the provers' second family (families.c), kept from call to call: a thread made
   per call would start with cold thread-local caches (pairing.c, covers.c: 5 MB of covers that warm up
   over many searches) and would have to free them at its end. The helper is made by the searching thread
   that owns it, waits on a condition variable between calls, and frees its caches when it ends. It
   blocks every signal: the process's handlers belong to the threads that asked for them (Python's main
   thread).

   A fork copies the helper's memory but not its thread. A child that runs Python after the fork (gevent's
   subprocess did) drops the parent's thread-local objects, and their cffi finalizers free the helper
   there: joining a thread the child does not have, or destroying the condition the parent's helper
   waits on (its waiter count came along with the copy), blocked that child for ever. So the helper
   remembers the process that made it, and freeing it in any other process only lets go of the memory:
   the thread, its lock and its conditions belong to the parent. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include "helper_thread.h"
#include "pairing.h"

struct ss_pn_helper {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    void (*job)(void *); /* the work handed over; NULL: none (the helper sets it back when done) */
    void *arg;
    int quit;
    pid_t owner; /* the process whose thread this is */
};

static void *helper_main(void *arg) {
    ss_pn_helper *h = arg;
    pthread_mutex_lock(&h->lock);
    for (;;) {
        while (!h->job && !h->quit) pthread_cond_wait(&h->wake, &h->lock);
        if (!h->job) break;
        void (*job)(void *) = h->job;
        void *job_arg = h->arg;
        pthread_mutex_unlock(&h->lock);
        job(job_arg);
        pthread_mutex_lock(&h->lock);
        h->job = NULL;
        pthread_cond_signal(&h->done);
    }
    pthread_mutex_unlock(&h->lock);
    pairing_release();
    return NULL;
}

ss_pn_helper *ss_pn_helper_new(void) {
    ss_pn_helper *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->owner = getpid();
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->wake, NULL);
    pthread_cond_init(&h->done, NULL);
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before); /* the helper inherits the mask */
    int failed = pthread_create(&h->thread, NULL, helper_main, h);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (failed) {
        pthread_cond_destroy(&h->done);
        pthread_cond_destroy(&h->wake);
        pthread_mutex_destroy(&h->lock);
        free(h);
        return NULL;
    }
    return h;
}

void ss_pn_helper_free(ss_pn_helper *h) {
    if (!h) return;
    if (h->owner != getpid()) { /* a forked copy: no thread to end here, nothing of it to destroy */
        free(h);
        return;
    }
    pthread_mutex_lock(&h->lock);
    h->quit = 1;
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
    pthread_join(h->thread, NULL);
    pthread_cond_destroy(&h->done);
    pthread_cond_destroy(&h->wake);
    pthread_mutex_destroy(&h->lock);
    free(h);
}

void helper_start(ss_pn_helper *h, void (*job)(void *), void *arg) {
    pthread_mutex_lock(&h->lock);
    h->job = job;
    h->arg = arg;
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
}

void helper_wait(ss_pn_helper *h) {
    pthread_mutex_lock(&h->lock);
    while (h->job) pthread_cond_wait(&h->done, &h->lock);
    pthread_mutex_unlock(&h->lock);
}
