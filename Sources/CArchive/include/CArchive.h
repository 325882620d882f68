#ifndef VITRINE_CARCHIVE_H
#define VITRINE_CARCHIVE_H

// libarchive, opened on first use (see lazy_library.h).
#include <archive.h>
#include <archive_entry.h>

/// NULL when libarchive is there with every function the adapter calls; else why not.
/// Checked before the first archive is read: a bundle then fails with this, clearly.
const char *vitrine_archive_unavailable(void);

#endif
