#include <gcrypt.h>

// gcry_control is variadic, which Swift cannot call: the two calls Vitrine needs, wrapped.
// WebKit initialises libgcrypt in the same process; a second initialisation is skipped.
static inline int vitrine_gcry_initialize(void) {
    if (gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) return 1;
    if (!gcry_check_version(GCRYPT_VERSION)) return 0;
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    return 1;
}

// The data to sign or verify, which may be empty: the canonical form's `0:` is refused by
// gcry_sexp_new, so this one expression is built with the variadic gcry_sexp_build.
static inline gcry_error_t vitrine_gcry_eddsa_data(gcry_sexp_t *result, const void *message, size_t length) {
    return gcry_sexp_build(result, NULL, "(data(flags eddsa)(hash-algo sha512)(value %b))", (int)length, message);
}
