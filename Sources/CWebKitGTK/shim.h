#ifndef VITRINE_CWEBKITGTK_SHIM_H
#define VITRINE_CWEBKITGTK_SHIM_H

#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <gio/gunixinputstream.h>
#include <cairo.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <string.h>
#include <sys/prctl.h>
#include <malloc.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
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

/* What a sidecar's child setup needs, made before the fork (nothing may be allocated after). */
typedef struct {
    pid_t parent;
    /* The path of a pseudo-terminal's slave side ("" for none), whose master the app holds. */
    char terminal[64];
} VitrineSidecarSetup;

/* A pseudo-terminal's master side, close-on-exec, its slave unlocked (-1 on failure); the
   slave's number (/dev/pts/N) in *number. posix_openpt and its kin are hidden from Swift. */
static inline int vitrine_open_pseudo_terminal(int *number) {
    int master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    int unlock = 0;
    if (ioctl(master, TIOCSPTLCK, &unlock) != 0 || ioctl(master, TIOCGPTN, number) != 0) {
        close(master);
        return -1;
    }
    return master;
}

/* A GSpawnChildSetupFunc for sidecars (async-signal-safe calls only, between fork and exec):
   no signal blocked; a session and process group of its own, so the app's stop
   (kill(-pgid)) reaches the sidecar's own children too; the terminal as its controlling
   terminal, so that when the sidecar ends, however it ends, the kernel sends SIGHUP to its
   group (what it started goes with it); SIGKILL when the thread that forked it ends (the
   main thread, which lives as long as the process), so a Vitrine killed by SIGKILL leaves
   no sidecar behind; and if that parent died before prctl took hold, no start at all.
   data: a VitrineSidecarSetup. */
static inline void vitrine_sidecar_child_setup(gpointer data) {
    const VitrineSidecarSetup *setup = data;
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setsid();
    if (setup->terminal[0] != '\0') {
        int terminal = open(setup->terminal, O_RDWR);
        if (terminal >= 0) close(terminal);
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != setup->parent) _exit(127);
}

/* Website policies with an autoplay policy (the constructor is variadic: Swift cannot call it). */
static inline WebKitWebsitePolicies *vitrine_website_policies(WebKitAutoplayPolicy autoplay) {
    return webkit_website_policies_new_with_policies("autoplay", autoplay, NULL);
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

/* GStreamer's registry, for the decoders WebKit's media can use. Declared here rather than
   from <gst/gst.h>: this module's include path is WebKitGTK's (pkg-config webkit2gtk-4.1),
   GStreamer's headers need their own, and a second C module including GLib's headers again
   would give Swift two copies of every GLib type. These are GStreamer 1.x's stable ABI
   (libgstreamer-1.0.so.0, which WebKitGTK already loads). */
extern gboolean gst_init_check(int *argc, char ***argv, GError **error);
extern GList *gst_element_factory_list_get_elements(guint64 type, guint minrank);
extern const GList *gst_element_factory_get_static_pad_templates(gpointer factory);
extern gpointer gst_static_pad_template_get_caps(gpointer pad_template);
extern gchar *gst_caps_to_string(gconstpointer caps);
extern void gst_mini_object_unref(gpointer object);
extern void gst_plugin_feature_list_free(GList *list);

/* The caps of every pad of every decoder of at least marginal rank (GStreamer's
   GST_ELEMENT_FACTORY_TYPE_DECODER, GST_RANK_MARGINAL), one per line; NULL when GStreamer
   cannot start (its error in *error). Free with g_free. */
static inline gchar *vitrine_gst_decoder_caps(GError **error) {
    if (!gst_init_check(NULL, NULL, error)) return NULL;
    GList *factories = gst_element_factory_list_get_elements((guint64)1 << 0, 64);
    GString *lines = g_string_new(NULL);
    for (GList *factory = factories; factory != NULL; factory = factory->next) {
        for (const GList *pad = gst_element_factory_get_static_pad_templates(factory->data); pad != NULL; pad = pad->next) {
            gpointer caps = gst_static_pad_template_get_caps(pad->data);
            gchar *text = gst_caps_to_string(caps);
            g_string_append(lines, text);
            g_string_append_c(lines, '\n');
            g_free(text);
            gst_mini_object_unref(caps);
        }
    }
    gst_plugin_feature_list_free(factories);
    return g_string_free(lines, FALSE);
}

/* Whether every EGL device of the machine is a CPU rasterizer (Mesa's software device, the
   only one where no GPU has a render node): 1 yes, 0 some device is a GPU, -1 EGL cannot say.
   Listing devices opens no display and loads no driver: a few milliseconds, where making a
   context to read the renderer's name takes about a hundred on llvmpipe. */
static inline int vitrine_egl_software_only(void) {
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC query_string = (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    if (query_devices == NULL || query_string == NULL) return -1;
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!query_devices(16, devices, &count) || count == 0) return -1;
    for (EGLint index = 0; index < count; index++) {
        const char *extensions = query_string(devices[index], EGL_EXTENSIONS);
        if (extensions == NULL || strstr(extensions, "EGL_MESA_device_software") == NULL) return 0;
    }
    return 1;
}

/* The OpenGL ES renderer of the machine's default GPU as Mesa's surfaceless EGL platform
   sees it (no window or display needed: the device WebKit renders with when it finds no
   other), such as "llvmpipe (LLVM 15.0.6, 256 bits)"; NULL when there is no EGL. Free with g_free. */
static inline gchar *vitrine_egl_renderer(void) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (get_display == NULL) return NULL;
    EGLDisplay display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL)) return NULL;
    gchar *renderer = NULL;
    EGLint attributes[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    if (eglBindAPI(EGL_OPENGL_ES_API)) {
        EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
        if (context != EGL_NO_CONTEXT) {
            if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
                renderer = g_strdup((const gchar *)glGetString(GL_RENDERER));
                eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            }
            eglDestroyContext(display, context);
        }
    }
    eglTerminate(display);
    return renderer;
}

/* Crash and error reports: Vitrine's own fatal signals (SIGSEGV, SIGBUS, SIGABRT, SIGILL,
   SIGFPE) write one line `signal NUMBER SECONDS\n` into a file opened at start
   (`FatalSignalRecord`), then re-raise the signal with the default action (a core dump
   where the system keeps them). Not with the handler installed before: JavaScriptCore's
   returns from a signal that no fault caused (`kill -SEGV`), and the process would live
   on. In C because the handler may only make async-signal-safe calls: time, write,
   signal, raise.
   On the main thread it runs on a stack of its own, so a stack overflow is recorded too. */
/* The handler's state, in a function (Swift emits a header's functions, not its variables). */
struct vitrine_fatal_signal_state {
    int fd;
    char alternate_stack[64 * 1024];
};
static inline struct vitrine_fatal_signal_state *vitrine_fatal_signal_state(void) {
    static struct vitrine_fatal_signal_state state = { .fd = -1 };
    return &state;
}

static void vitrine_fatal_signal_handler(int signal_number) {
    char line[48] = "signal ";
    size_t length = 7;
    char digits[24];
    int count = 0;
    unsigned long value = (unsigned long)signal_number;
    do { digits[count++] = (char)('0' + value % 10); value /= 10; } while (value > 0);
    while (count > 0) line[length++] = digits[--count];
    line[length++] = ' ';
    time_t now = time(NULL);
    value = now > 0 ? (unsigned long)now : 0;
    do { digits[count++] = (char)('0' + value % 10); value /= 10; } while (value > 0);
    while (count > 0) line[length++] = digits[--count];
    line[length++] = '\n';
    struct vitrine_fatal_signal_state *state = vitrine_fatal_signal_state();
    if (state->fd >= 0) { ssize_t ignored = write(state->fd, line, length); (void)ignored; }
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

/* Installs the handler writing into `fd` (kept open for the process's life). 0, or -1. */
static inline int vitrine_install_fatal_signal_handler(int fd) {
    static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE };
    struct vitrine_fatal_signal_state *state = vitrine_fatal_signal_state();
    stack_t stack = { .ss_sp = state->alternate_stack, .ss_size = sizeof state->alternate_stack, .ss_flags = 0 };
    sigaltstack(&stack, NULL);
    state->fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = vitrine_fatal_signal_handler;
    action.sa_flags = SA_ONSTACK | SA_NODEFER | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        if (sigaction(fatal_signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}

#endif
