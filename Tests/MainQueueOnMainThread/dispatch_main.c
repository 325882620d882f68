// The test process's main thread runs GLib's main loop, which drains the main dispatch queue.
//
// Why: Swift Testing's runner is an async `main`; on Linux the concurrency runtime then
// calls libdispatch's `dispatch_main()`, which parks the main thread for good and lets
// worker threads drain the main queue — so `@MainActor` code runs on whichever worker is
// free. GTK and WebKit must stay on the one thread they started on: WebKit aborts in its
// main-thread check, or waits forever for its "main" run loop from a thread it takes for
// another (`callOnMainRunLoopAndWait`). The `vitrine` program is not affected: it runs
// gtk_main on the main thread and joins the main queue to it (MainLoopBridge).
//
// This definition takes the place of libdispatch's for the whole test executable (the
// executable exports it; see Package.swift) and does what `vitrine` does: it runs a GLib
// main loop on the main thread, forever, with the main queue's wake-up descriptor as one of
// its sources. So GLib (GTK, WebKit, their signals) is dispatched whenever no main-queue job
// runs, and a test that awaits something simply suspends: the loop sleeps in poll() until a
// real event comes, with no timer of its own. The runner ends the process with exit() when
// the tests are done.
#include <glib.h>
#include <glib-unix.h>
#include <stdint.h>
#include <unistd.h>
#include <stdatomic.h>

extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static atomic_int draining = 0;

static gboolean drain_main_queue(gint descriptor, GIOCondition condition, gpointer unused)
{
    (void)condition;
    (void)unused;
    uint64_t count;
    (void)read(descriptor, &count, sizeof count); // re-arm the eventfd
    _dispatch_main_queue_callback_4CF(0);
    return G_SOURCE_CONTINUE;
}

__attribute__((noreturn)) void dispatch_main(void)
{
    atomic_store(&draining, 1);
    g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, drain_main_queue, NULL);
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    for (;;)
        g_main_loop_run(loop); // returns only if someone quits it: run it again
}

int vitrine_tests_main_queue_runs_on_main_thread(void)
{
    return atomic_load(&draining);
}
