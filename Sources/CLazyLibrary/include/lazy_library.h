#ifndef VITRINE_LAZY_LIBRARY_H
#define VITRINE_LAZY_LIBRARY_H

// A shared library opened on first use rather than at start (dlopen), for the libraries
// only some configurations need (libmosquitto for [remote] mqtt, libarchive for playlist
// bundles): the program does not map them, nor their own dependencies (OpenSSL's
// libcrypto/libssl, libnettle, libacl), relocate them or hold their pages when it never
// uses them. CMosquitto and CArchive define the libraries' functions the adapter calls,
// each forwarding to the real one.

#include <pthread.h>

typedef struct vitrine_lazy_library {
    const char *soname;
    /// The functions the adapter calls, NULL-terminated: all must be there, or none is used.
    const char *const *symbols;
    pthread_mutex_t lock;
    int tried;
    void *handle;
    char error[256];
} vitrine_lazy_library;

#define VITRINE_LAZY_LIBRARY(soname, symbols) { soname, symbols, PTHREAD_MUTEX_INITIALIZER, 0, 0, {0} }

/// NULL once `library` is open with every one of its symbols; else why it cannot be used.
/// Callers check this before their first call into the library.
const char *vitrine_lazy_library_error(vitrine_lazy_library *library);

/// `name` in `library`. Only after `vitrine_lazy_library_error` said NULL: it aborts,
/// naming the library and the function, when the library was never checked.
void *vitrine_lazy_symbol(vitrine_lazy_library *library, const char *name);

// A function of the library, defined here with its header's signature (a mismatch is a
// compile error) and forwarding to the real one, looked up once.
#define VITRINE_LAZY_FUNCTION(library, ret, name, params, args)                          \
    ret name params {                                                                   \
        static ret (*real) params;                                                      \
        ret (*function) params = __atomic_load_n(&real, __ATOMIC_ACQUIRE);               \
        if (!function) {                                                                \
            function = (ret (*) params)vitrine_lazy_symbol(&library, #name);             \
            __atomic_store_n(&real, function, __ATOMIC_RELEASE);                        \
        }                                                                               \
        return function args;                                                           \
    }

#define VITRINE_LAZY_VOID_FUNCTION(library, name, params, args)                          \
    void name params {                                                                  \
        static void (*real) params;                                                     \
        void (*function) params = __atomic_load_n(&real, __ATOMIC_ACQUIRE);              \
        if (!function) {                                                                \
            function = (void (*) params)vitrine_lazy_symbol(&library, #name);            \
            __atomic_store_n(&real, function, __ATOMIC_RELEASE);                        \
        }                                                                               \
        function args;                                                                  \
    }

#endif
