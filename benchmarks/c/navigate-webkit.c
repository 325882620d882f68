/*
 * navigate-webkit — the C baseline for benchmarks/alert.py.
 *
 * Usage: navigate-webkit URL
 *
 * An 800x600 GtkWindow holding one WebKitWebView (hardware acceleration off, as Vitrine
 * chooses on a software renderer) that shows URL, then loads every line read on stdin as
 * a new URL in the same view: the least a program can do to put a page on screen when
 * told to. Vitrine's alert does the same job after its remote command, its scheduler and
 * its navigation chain; the difference is what the benchmark measures.
 *
 * Build: cc -O2 navigate-webkit.c $(pkg-config --cflags --libs webkit2gtk-4.1)
 */
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <string.h>

static WebKitWebView *view;

static gboolean on_line(GIOChannel *channel, GIOCondition condition, gpointer data) {
    (void)condition;
    (void)data;
    gchar *line = NULL;
    gsize length = 0;
    GIOStatus status = g_io_channel_read_line(channel, &line, &length, NULL, NULL);
    if (status == G_IO_STATUS_EOF || status == G_IO_STATUS_ERROR) {
        gtk_main_quit();
        return G_SOURCE_REMOVE;
    }
    if (line) {
        g_strstrip(line);
        if (*line)
            webkit_web_view_load_uri(view, line);
        g_free(line);
    }
    return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
    gtk_init(&argc, &argv);
    if (argc < 2) {
        fprintf(stderr, "usage: navigate-webkit URL\n");
        return 2;
    }
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 800, 600);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
    view = WEBKIT_WEB_VIEW(webkit_web_view_new());
    webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(view),
                                                     WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
    gtk_container_add(GTK_CONTAINER(window), GTK_WIDGET(view));
    gtk_widget_show_all(window);
    webkit_web_view_load_uri(view, argv[1]);
    GIOChannel *input = g_io_channel_unix_new(0);
    g_io_add_watch(input, G_IO_IN | G_IO_HUP, on_line, NULL);
    gtk_main();
    return 0;
}
