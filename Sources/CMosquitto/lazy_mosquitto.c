// libmosquitto's functions that VitrineGTK/Remote calls, each forwarding to the library
// opened on first use; a function used without an entry here is a link error.
#include "CMosquitto.h"
#include "lazy_library.h"

#define MOSQUITTO_FUNCTIONS(F, V)                                                                         \
    F(const char *, mosquitto_connack_string, (int code), (code))                                         \
    F(int, mosquitto_connect_async, (struct mosquitto *m, const char *host, int port, int keepalive),       \
      (m, host, port, keepalive))                                                                         \
    V(mosquitto_connect_callback_set, (struct mosquitto *m, void (*on)(struct mosquitto *, void *, int)), (m, on)) \
    V(mosquitto_destroy, (struct mosquitto *m), (m))                                                      \
    V(mosquitto_disconnect_callback_set, (struct mosquitto *m, void (*on)(struct mosquitto *, void *, int)), (m, on)) \
    F(int, mosquitto_disconnect_v5, (struct mosquitto *m, int reason, const mosquitto_property *properties), \
      (m, reason, properties))                                                                            \
    F(int, mosquitto_int_option, (struct mosquitto *m, enum mosq_opt_t option, int value), (m, option, value)) \
    F(int, mosquitto_lib_init, (void), ())                                                                \
    F(int, mosquitto_loop_forever, (struct mosquitto *m, int timeout, int max_packets), (m, timeout, max_packets)) \
    F(int, mosquitto_max_inflight_messages_set, (struct mosquitto *m, unsigned int count), (m, count))     \
    V(mosquitto_message_callback_set,                                                                     \
      (struct mosquitto *m, void (*on)(struct mosquitto *, void *, const struct mosquitto_message *)), (m, on)) \
    F(struct mosquitto *, mosquitto_new, (const char *id, bool clean_session, void *object), (id, clean_session, object)) \
    F(int, mosquitto_publish,                                                                             \
      (struct mosquitto *m, int *mid, const char *topic, int length, const void *payload, int qos, bool retain), \
      (m, mid, topic, length, payload, qos, retain))                                                      \
    V(mosquitto_publish_callback_set, (struct mosquitto *m, void (*on)(struct mosquitto *, void *, int)), (m, on)) \
    F(int, mosquitto_reconnect_async, (struct mosquitto *m), (m))                                         \
    F(int, mosquitto_reconnect_delay_set, (struct mosquitto *m, unsigned int delay, unsigned int max, bool exponential), \
      (m, delay, max, exponential))                                                                       \
    F(const char *, mosquitto_strerror, (int code), (code))                                               \
    F(int, mosquitto_subscribe, (struct mosquitto *m, int *mid, const char *topic, int qos), (m, mid, topic, qos)) \
    F(int, mosquitto_threaded_set, (struct mosquitto *m, bool threaded), (m, threaded))                   \
    F(int, mosquitto_tls_insecure_set, (struct mosquitto *m, bool value), (m, value))                     \
    F(int, mosquitto_tls_opts_set, (struct mosquitto *m, int cert_reqs, const char *version, const char *ciphers), \
      (m, cert_reqs, version, ciphers))                                                                   \
    F(int, mosquitto_tls_set,                                                                             \
      (struct mosquitto *m, const char *cafile, const char *capath, const char *certfile, const char *keyfile, \
       int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)),                              \
      (m, cafile, capath, certfile, keyfile, pw_callback))                                                \
    V(mosquitto_user_data_set, (struct mosquitto *m, void *object), (m, object))                          \
    F(int, mosquitto_username_pw_set, (struct mosquitto *m, const char *username, const char *password),   \
      (m, username, password))                                                                            \
    F(int, mosquitto_will_set, (struct mosquitto *m, const char *topic, int length, const void *payload, int qos, bool retain), \
      (m, topic, length, payload, qos, retain))

#define NAME(ret, name, params, args) #name,
#define VOID_NAME(name, params, args) #name,
static const char *const symbols[] = {MOSQUITTO_FUNCTIONS(NAME, VOID_NAME) NULL};
static vitrine_lazy_library library = VITRINE_LAZY_LIBRARY("libmosquitto.so.1", symbols);

const char *vitrine_mosquitto_unavailable(void) { return vitrine_lazy_library_error(&library); }

#define FUNCTION(ret, name, params, args) VITRINE_LAZY_FUNCTION(library, ret, name, params, args)
#define VOID_FUNCTION(name, params, args) VITRINE_LAZY_VOID_FUNCTION(library, name, params, args)
MOSQUITTO_FUNCTIONS(FUNCTION, VOID_FUNCTION)
