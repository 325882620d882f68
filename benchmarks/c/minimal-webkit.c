/*
 * minimal-webkit — the C baseline for benchmarks/startup.py.
 *
 * Usage: minimal-webkit URL [--sandbox] [--no-compositing] [--trace] [ignored...]
 *
 * Does the least work that is still comparable with `vitrine URL --events -`:
 * a 1024x768 GtkWindow holding a WebKitWebView whose user content manager has
 * two script message handlers ("page" and "user", with reply) and whose
 * decide-policy signal is connected. Anything vitrine does beyond this is what
 * the benchmark is meant to reveal.
 *
 * The choices Vitrine makes for a machine, so both sides do the same work
 * (benchmarks/startup.py passes them from Vitrine's events log):
 *   --sandbox         web processes under bubblewrap (webkit_web_context_set_sandbox_enabled);
 *   --no-compositing  WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER, as Vitrine's `never`.
 * --trace prints a line per start-up phase, in the form of Vitrine's `startup`
 * events: {"type":"startup","phase":"<phase>","monotonic":<CLOCK_MONOTONIC ms>}.
 *
 * On the first WEBKIT_LOAD_FINISHED it prints exactly one line to stdout,
 *   {"type":"load","event":"finished","url":"<uri>"}
 * and keeps running until SIGTERM or SIGINT, then exits 0. stdin is not read,
 * so the harness can give it /dev/null.
 *
 * With MINIMAL_WEBKIT_USER_SCRIPT set, its value is added as a document-start user
 * script in every frame (benchmarks/startup.py --c-user-script): what any user script,
 * however small, costs the web process (its JavaScript engine starts).
 *
 * Other arguments (e.g. "--events -") are ignored so that the harness can
 * point --vitrine at this program to check itself (ratio ~1.0).
 *
 * Build: cc -O2 minimal-webkit.c $(pkg-config --cflags --libs webkit2gtk-4.1)
 */
#include <gtk/gtk.h>
#include <glib-unix.h>
#include <webkit2/webkit2.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static gboolean reported = FALSE;
static gboolean tracing = FALSE;

/* One start-up phase reached, as Vitrine's `startup` event line (--trace). */
static void trace(const char *phase)
{
    if (!tracing)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    printf("{\"type\":\"startup\",\"phase\":\"%s\",\"monotonic\":%.3f}\n", phase,
           now.tv_sec * 1000.0 + now.tv_nsec / 1e6);
    fflush(stdout);
}

/* Minimal JSON string escaping; URIs rarely need it, but the line must parse. */
static void print_json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

static void on_load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data)
{
    (void)data;
    if (reported)
        return;
    if (event == WEBKIT_LOAD_STARTED)
        trace("load-started");
    else if (event == WEBKIT_LOAD_COMMITTED)
        trace("load-committed");
    if (event != WEBKIT_LOAD_FINISHED)
        return;
    reported = TRUE;
    trace("load-finished");
    const char *uri = webkit_web_view_get_uri(view);
    fputs("{\"type\":\"load\",\"event\":\"finished\",\"url\":", stdout);
    print_json_string(uri ? uri : "");
    fputs("}\n", stdout);
    fflush(stdout); /* the harness stops its clock on this line */
}

/* Connected only so WebKit pays the same signal-dispatch cost as in vitrine;
 * FALSE lets the default handler decide (i.e. allow). */
static gboolean on_decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision,
                                 WebKitPolicyDecisionType type, gpointer data)
{
    (void)view; (void)decision; (void)type; (void)data;
    return FALSE;
}

/* Handlers must exist for the bridge to be injected; the benchmark page never
 * posts, so they do nothing. */
static gboolean on_script_message(WebKitUserContentManager *ucm, JSCValue *value,
                                  WebKitScriptMessageReply *reply, gpointer data)
{
    (void)ucm; (void)value; (void)reply; (void)data;
    return FALSE;
}

static gboolean on_quit_signal(gpointer data)
{
    (void)data;
    gtk_main_quit();
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv)
{
    struct timespec started;
    clock_gettime(CLOCK_MONOTONIC, &started);
    if (argc < 2) {
        fprintf(stderr, "usage: %s URL [--sandbox] [--no-compositing] [--trace] [ignored...]\n", argv[0]);
        return 2;
    }
    const char *url = argv[1];
    gboolean sandbox = FALSE, compositing = TRUE;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--sandbox") == 0)
            sandbox = TRUE;
        else if (strcmp(argv[i], "--no-compositing") == 0)
            compositing = FALSE;
        else if (strcmp(argv[i], "--trace") == 0)
            tracing = TRUE;
    }
    if (tracing)
        printf("{\"type\":\"startup\",\"phase\":\"process-start\",\"monotonic\":%.3f}\n",
               started.tv_sec * 1000.0 + started.tv_nsec / 1e6);
    trace("options-parsed");

    /* gtk_init would parse (and may reject) the ignored extra args, so give
     * it only the program name. */
    int gtk_argc = 1;
    char **gtk_argv = argv;
    gtk_init(&gtk_argc, &gtk_argv);
    trace("gtk-initialized");

    WebKitWebContext *context = webkit_web_context_get_default();
    webkit_web_context_set_sandbox_enabled(context, sandbox);
    trace("web-context");

    /* Quit through the main loop so WebKit tears down its child processes. */
    g_unix_signal_add(SIGTERM, on_quit_signal, NULL);
    g_unix_signal_add(SIGINT, on_quit_signal, NULL);

    WebKitUserContentManager *ucm = webkit_user_content_manager_new();
    static const char *const handlers[] = { "page", "user" };
    for (size_t i = 0; i < G_N_ELEMENTS(handlers); i++) {
        /* 4.1 signature: (manager, name, world_name); NULL = default world. */
        webkit_user_content_manager_register_script_message_handler_with_reply(
            ucm, handlers[i], NULL);
        char *signal = g_strdup_printf("script-message-with-reply-received::%s", handlers[i]);
        g_signal_connect(ucm, signal, G_CALLBACK(on_script_message), NULL);
        g_free(signal);
    }

    const char *user_script = g_getenv("MINIMAL_WEBKIT_USER_SCRIPT");
    if (user_script && *user_script) {
        WebKitUserScript *script = webkit_user_script_new(
            user_script, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
            WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
        webkit_user_content_manager_add_script(ucm, script);
        webkit_user_script_unref(script);
    }

    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 1024, 768);
    gtk_window_set_title(GTK_WINDOW(window), "minimal-webkit");
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);

    GtkWidget *view = webkit_web_view_new_with_user_content_manager(ucm);
    g_object_unref(ucm); /* the view holds its own reference */
    trace("first-view");
    if (!compositing)
        webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(WEBKIT_WEB_VIEW(view)),
                                                         WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
    g_signal_connect(view, "decide-policy", G_CALLBACK(on_decide_policy), NULL);

    gtk_container_add(GTK_CONTAINER(window), view);
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), url);
    trace("load-requested");
    gtk_widget_show_all(window);
    trace("window-shown");

    gtk_main();
    return 0;
}
