// libarchive's functions that VitrineGTK/Signage calls, each forwarding to the library
// opened on first use; a function used without an entry here is a link error.
#include "CArchive.h"
#include "lazy_library.h"

#define ARCHIVE_FUNCTIONS(F)                                                                              \
    F(__LA_MODE_T, archive_entry_filetype, (struct archive_entry *e), (e))                               \
    F(const char *, archive_entry_hardlink, (struct archive_entry *e), (e))                              \
    F(const char *, archive_entry_pathname, (struct archive_entry *e), (e))                              \
    F(const char *, archive_entry_pathname_utf8, (struct archive_entry *e), (e))                         \
    F(la_int64_t, archive_entry_size, (struct archive_entry *e), (e))                                    \
    F(int, archive_entry_size_is_set, (struct archive_entry *e), (e))                                    \
    F(const char *, archive_error_string, (struct archive *a), (a))                                      \
    F(la_ssize_t, archive_read_data, (struct archive *a, void *buffer, size_t size), (a, buffer, size))  \
    F(int, archive_read_data_skip, (struct archive *a), (a))                                             \
    F(int, archive_read_free, (struct archive *a), (a))                                                  \
    F(struct archive *, archive_read_new, (void), ())                                                    \
    F(int, archive_read_next_header, (struct archive *a, struct archive_entry **entry), (a, entry))      \
    F(int, archive_read_open_filename, (struct archive *a, const char *file, size_t block), (a, file, block)) \
    F(int, archive_read_support_filter_all, (struct archive *a), (a))                                    \
    F(int, archive_read_support_format_tar, (struct archive *a), (a))                                    \
    F(int, archive_read_support_format_zip, (struct archive *a), (a))

#define NAME(ret, name, params, args) #name,
static const char *const symbols[] = {ARCHIVE_FUNCTIONS(NAME) NULL};
static vitrine_lazy_library library = VITRINE_LAZY_LIBRARY("libarchive.so.13", symbols);

const char *vitrine_archive_unavailable(void) { return vitrine_lazy_library_error(&library); }

#define FUNCTION(ret, name, params, args) VITRINE_LAZY_FUNCTION(library, ret, name, params, args)
ARCHIVE_FUNCTIONS(FUNCTION)
