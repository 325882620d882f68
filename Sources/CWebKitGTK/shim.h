#ifndef VITRINE_CWEBKITGTK_SHIM_H
#define VITRINE_CWEBKITGTK_SHIM_H

#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <gio/gunixinputstream.h>
#include <cairo.h>
#include <signal.h>
#include <unistd.h>
#include <sys/prctl.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#include <X11/extensions/dpms.h>
#endif


/* libdispatch's hooks for joining the main queue to a foreign run loop (CoreFoundation
   uses them on Linux). Exported by libdispatch, shared or static; no public header. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

/* GObject macros Swift cannot import. */
/* A GSpawnChildSetupFunc: the child is sent SIGTERM when the process that started it dies,
   even by SIGKILL, so a helper server never outlives the kiosk; and it starts with no
   signal blocked (a mask survives exec, and this process may have SIGTERM blocked, which
   would make the child deaf to its stop). prctl is variadic: Swift cannot call it. */
static inline void vitrine_child_ends_with_parent(gpointer data) {
    (void)data;
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
}

static inline GType vitrine_webkit_navigation_policy_decision_type(void) { return WEBKIT_TYPE_NAVIGATION_POLICY_DECISION; }
static inline GType vitrine_webkit_response_policy_decision_type(void) { return WEBKIT_TYPE_RESPONSE_POLICY_DECISION; }
/* Whether the display is X11's (windows have positions there; Wayland gives them none). */
static inline gboolean vitrine_display_is_x11(GdkDisplay *display) {
  return display != NULL && g_str_has_prefix(G_OBJECT_TYPE_NAME(display), "GdkX11");
}

/* X11 DPMS for a GdkDisplay: 0 where the display is not X11 or has no DPMS extension
   (Xvfb, Wayland). GDK_IS_X11_DISPLAY is a macro Swift cannot import. */
static inline int vitrine_dpms_available(GdkDisplay *display) {
#ifdef GDK_WINDOWING_X11
    int event_base, error_base;
    if (!GDK_IS_X11_DISPLAY(display)) return 0;
    Display *x = gdk_x11_display_get_xdisplay(display);
    return DPMSQueryExtension(x, &event_base, &error_base) && DPMSCapable(x);
#else
    (void)display;
    return 0;
#endif
}

/* Forces the monitor off (saving in *was_enabled whether DPMS was enabled, since forcing
   needs it on) or back on (disabling DPMS again when it was off before, so that its idle
   timeouts never blank a kiosk by themselves); 1 when DPMS was used. */
static inline int vitrine_dpms_force(GdkDisplay *display, int on, int *was_enabled) {
#ifdef GDK_WINDOWING_X11
    if (!vitrine_dpms_available(display)) return 0;
    Display *x = gdk_x11_display_get_xdisplay(display);
    if (on) {
        DPMSForceLevel(x, DPMSModeOn);
        if (!*was_enabled) DPMSDisable(x);
    } else {
        CARD16 level;
        BOOL enabled;
        DPMSInfo(x, &level, &enabled);
        *was_enabled = enabled;
        DPMSEnable(x);
        DPMSForceLevel(x, DPMSModeOff);
    }
    XFlush(x);
    return 1;
#else
    (void)display; (void)on; (void)was_enabled;
    return 0;
#endif
}

#endif
