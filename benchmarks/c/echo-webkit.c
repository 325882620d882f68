/*
 * echo-webkit — the C baseline for benchmarks/ipc.py.
 *
 * Usage: echo-webkit URL [ignored...]
 *
 * A 1024x768 GtkWindow holding a WebKitWebView, as in minimal-webkit.c, whose
 * user content manager registers one script message handler with reply,
 * "echo", in the page's (default) world. Its callback answers every message
 * with the very value it received:
 *
 *   await window.webkit.messageHandlers.echo.postMessage(v)   // resolves to v
 *
 * That is the least work a native reply can cost in WebKitGTK: the value is
 * deserialised in this process and serialised straight back. Vitrine's `ping`
 * strategy does the same job through its bridge; the difference is what the
 * benchmark measures.
 *
 * On the first WEBKIT_LOAD_FINISHED it prints one line to stdout,
 *   {"type":"load","event":"finished","url":"<uri>"}
 * (diagnostics only: ipc.py waits for the page's result POST instead) and keeps
 * running until SIGTERM or SIGINT, then exits 0. stdin is not read.
 *
 * Extra arguments (e.g. "--events /dev/null") are ignored so that the harness
 * can point --vitrine at this program to check itself (ratio ~1.0; give it
 * --vitrine-handler echo).
 *
 * Build: cc -O2 echo-webkit.c $(pkg-config --cflags --libs webkit2gtk-4.1)
 */
#include <gtk/gtk.h>
#include <glib-unix.h>
#include <webkit2/webkit2.h>
#include <signal.h>
#include <stdio.h>

static gboolean reported = FALSE;

static void on_load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data)
{
    (void)data;
    if (event != WEBKIT_LOAD_FINISHED || reported)
        return;
    reported = TRUE;
    const char *uri = webkit_web_view_get_uri(view);
    /* Loopback http URLs need no JSON escaping beyond quotes and backslashes,
     * which the harness never puts in them. */
    printf("{\"type\":\"load\",\"event\":\"finished\",\"url\":\"%s\"}\n", uri ? uri : "");
    fflush(stdout);
}

/* Same as minimal-webkit.c: connected so WebKit pays the same dispatch cost as
 * in vitrine; FALSE lets the default handler allow the navigation. */
static gboolean on_decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision,
                                 WebKitPolicyDecisionType type, gpointer data)
{
    (void)view; (void)decision; (void)type; (void)data;
    return FALSE;
}

/* The echo: resolve the page's Promise with the value it posted. Returning TRUE
 * tells WebKit the reply is (being) handled; return_value does not take
 * ownership of `value`. */
static gboolean on_echo(WebKitUserContentManager *ucm, JSCValue *value,
                        WebKitScriptMessageReply *reply, gpointer data)
{
    (void)ucm; (void)data;
    webkit_script_message_reply_return_value(reply, value);
    return TRUE;
}

static gboolean on_quit_signal(gpointer data)
{
    (void)data;
    gtk_main_quit();
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s URL [ignored...]\n", argv[0]);
        return 2;
    }
    const char *url = argv[1];

    /* gtk_init would parse (and may reject) the ignored extra args. */
    int gtk_argc = 1;
    char **gtk_argv = argv;
    gtk_init(&gtk_argc, &gtk_argv);

    /* Quit through the main loop so WebKit tears down its child processes. */
    g_unix_signal_add(SIGTERM, on_quit_signal, NULL);
    g_unix_signal_add(SIGINT, on_quit_signal, NULL);

    WebKitUserContentManager *ucm = webkit_user_content_manager_new();
    /* 4.1 signature: (manager, name, world_name); NULL = the page's world. */
    webkit_user_content_manager_register_script_message_handler_with_reply(ucm, "echo", NULL);
    g_signal_connect(ucm, "script-message-with-reply-received::echo", G_CALLBACK(on_echo), NULL);

    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 1024, 768);
    gtk_window_set_title(GTK_WINDOW(window), "echo-webkit");
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);

    GtkWidget *view = webkit_web_view_new_with_user_content_manager(ucm);
    g_object_unref(ucm); /* the view holds its own reference */
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
    g_signal_connect(view, "decide-policy", G_CALLBACK(on_decide_policy), NULL);

    gtk_container_add(GTK_CONTAINER(window), view);
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), url);
    gtk_widget_show_all(window);

    gtk_main();
    return 0;
}
