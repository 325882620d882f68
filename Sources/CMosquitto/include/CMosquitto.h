#ifndef VITRINE_CMOSQUITTO_H
#define VITRINE_CMOSQUITTO_H

// Mosquitto's MQTT client library, opened on first use (see lazy_library.h).
#include <mosquitto.h>

/// NULL when libmosquitto is there with every function the adapter calls; else why not.
/// Checked before the first call: an MQTT session without it fails with this, clearly.
const char *vitrine_mosquitto_unavailable(void);

#endif
