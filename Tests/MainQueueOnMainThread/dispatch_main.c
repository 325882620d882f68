// The test process's main thread drains the main dispatch queue itself.
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
// executable exports it; see Package.swift) and does what a CFRunLoop does on the main
// thread: wait on the main queue's wake-up descriptor and drain the queue, forever. The
// runner ends the process with exit() when the tests are done.
#include <poll.h>
#include <stdint.h>
#include <unistd.h>
#include <stdatomic.h>

extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static atomic_int draining = 0;

__attribute__((noreturn)) void dispatch_main(void)
{
    atomic_store(&draining, 1);
    int descriptor = _dispatch_get_main_queue_handle_4CF();
    struct pollfd wait_for = { .fd = descriptor, .events = POLLIN };
    for (;;) {
        if (poll(&wait_for, 1, -1) < 0)
            continue; // EINTR
        uint64_t count;
        (void)read(descriptor, &count, sizeof count); // re-arm the eventfd
        _dispatch_main_queue_callback_4CF(0);
    }
}

int vitrine_tests_main_queue_runs_on_main_thread(void)
{
    return atomic_load(&draining);
}
