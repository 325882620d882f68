#ifndef VITRINE_MAIN_QUEUE_ON_MAIN_THREAD_H
#define VITRINE_MAIN_QUEUE_ON_MAIN_THREAD_H

/// Whether this test process's `dispatch_main` is the one below (the main dispatch queue,
/// and so the main actor, runs on the process's main thread). Also keeps the object file
/// referenced.
int vitrine_tests_main_queue_runs_on_main_thread(void);

#endif
