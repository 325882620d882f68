#include "lazy_library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

const char *vitrine_lazy_library_error(vitrine_lazy_library *library) {
    pthread_mutex_lock(&library->lock);
    if (!library->tried) {
        library->tried = 1;
        // RTLD_LOCAL: its symbols stay out of the program's global scope.
        void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *why = dlerror();
            snprintf(library->error, sizeof library->error, "%s", why ? why : "cannot be opened");
        } else {
            for (const char *const *symbol = library->symbols; *symbol; symbol++) {
                if (!dlsym(handle, *symbol)) {
                    snprintf(library->error, sizeof library->error, "%s has no %s", library->soname, *symbol);
                    break;
                }
            }
            if (library->error[0]) dlclose(handle); else library->handle = handle;
        }
    }
    const char *error = library->handle ? NULL : library->error;
    pthread_mutex_unlock(&library->lock);
    return error;
}

void *vitrine_lazy_symbol(vitrine_lazy_library *library, const char *name) {
    pthread_mutex_lock(&library->lock);
    void *handle = library->handle;
    pthread_mutex_unlock(&library->lock);
    void *symbol = handle ? dlsym(handle, name) : NULL;
    if (!symbol) {
        fprintf(stderr, "vitrine: %s called before %s was checked\n", name, library->soname);
        abort();
    }
    return symbol;
}
