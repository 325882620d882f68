#ifndef VITRINE_CWEBKITGTK_SHIM_H
#define VITRINE_CWEBKITGTK_SHIM_H

#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <cairo.h>
#include <signal.h>
#include <unistd.h>


/* libdispatch's hooks for joining the main queue to a foreign run loop (CoreFoundation
   uses them on Linux). Exported by libdispatch, shared or static; no public header. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

/* GObject macros Swift cannot import. */
static inline GType vitrine_webkit_navigation_policy_decision_type(void) { return WEBKIT_TYPE_NAVIGATION_POLICY_DECISION; }
static inline GType vitrine_webkit_response_policy_decision_type(void) { return WEBKIT_TYPE_RESPONSE_POLICY_DECISION; }
/* Whether the display is X11's (windows have positions there; Wayland gives them none). */
static inline gboolean vitrine_display_is_x11(GdkDisplay *display) {
  return display != NULL && g_str_has_prefix(G_OBJECT_TYPE_NAME(display), "GdkX11");
}

#endif
