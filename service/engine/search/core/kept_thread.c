/* A thread kept from call to call (kept_thread.h). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include "kept_thread.h"
#include "pairing.h"

struct kept_thread {
    pthread_t thread;          /* the kept thread */
    pthread_mutex_t lock;      /* guards job, arg and quit */
    pthread_cond_t wake, done; /* a job or quit was set; the job is done */
    void (*job)(void *);       /* the work handed over; NULL: none (the thread sets it back when done) */
    void *arg;                 /* the job's argument */
    int quit;                  /* the thread is to end */
    void (*after_each)(void);  /* called after each job, on the kept thread (NULL: nothing) */
    pid_t owner;               /* the process whose thread this is */
};

static void *kept_main(void *p) {
    kept_thread *t = p;
    pthread_mutex_lock(&t->lock);
    for (;;) {
        while (!t->job && !t->quit) pthread_cond_wait(&t->wake, &t->lock);
        if (!t->job) break;
        void (*job)(void *) = t->job;
        void *arg = t->arg;
        pthread_mutex_unlock(&t->lock);
        job(arg);
        if (t->after_each) t->after_each();
        pthread_mutex_lock(&t->lock);
        t->job = NULL;
        pthread_cond_signal(&t->done);
    }
    pthread_mutex_unlock(&t->lock);
    pairing_release(); /* the thread's own caches */
    return NULL;
}

static void destroy(kept_thread *t) {
    pthread_cond_destroy(&t->done);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

kept_thread *kept_thread_new(size_t stack, void (*after_each)(void)) {
    kept_thread *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->owner = getpid();
    t->after_each = after_each;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    pthread_cond_init(&t->done, NULL);
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before); /* the new thread inherits the mask */
    pthread_attr_t attr;
    int failed = pthread_attr_init(&attr);
    if (!failed && stack) failed = pthread_attr_setstacksize(&attr, stack);
    if (!failed) failed = pthread_create(&t->thread, &attr, kept_main, t);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (failed) {
        destroy(t);
        return NULL;
    }
    return t;
}

int kept_thread_here(const kept_thread *t) { return t->owner == getpid(); }

void kept_thread_free(kept_thread *t) {
    if (!t) return;
    if (!kept_thread_here(t)) { /* a forked copy: no thread to end here, nothing of it to destroy */
        free(t);
        return;
    }
    pthread_mutex_lock(&t->lock);
    t->quit = 1;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    destroy(t);
}

void kept_thread_start(kept_thread *t, void (*job)(void *), void *arg) {
    pthread_mutex_lock(&t->lock);
    t->job = job;
    t->arg = arg;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
}

void kept_thread_wait(kept_thread *t) {
    pthread_mutex_lock(&t->lock);
    while (t->job) pthread_cond_wait(&t->done, &t->lock);
    pthread_mutex_unlock(&t->lock);
}
