/* The C floor of playlist_soak.py: what a preloaded playlist does to WebKitGTK, without
   Vitrine. Each turn makes a new WebKitWebView over the one on screen (a GtkOverlay), loads
   the next page in it, and once it has loaded destroys the old view; after DURATION ms the
   next turn begins. Prints {"type":"native","action":"schedule-page-shown"} per turn, as
   Vitrine's events log does, so that one script reads both.

   view-swap DURATION-MS URL... */
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <stdio.h>
#include <stdlib.h>

static GtkWidget *overlay, *shown, *loading;
static char **urls;
static int url_count, turn, duration_ms;

static void next_turn(void);

static gboolean on_timeout(gpointer data) {
    next_turn();
    return G_SOURCE_REMOVE;
}

static void on_load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
    if (event != WEBKIT_LOAD_FINISHED || GTK_WIDGET(view) != loading) return;
    if (shown != NULL) gtk_widget_destroy(shown);
    shown = loading;
    loading = NULL;
    printf("{\"type\":\"native\",\"action\":\"schedule-page-shown\",\"detail\":\"%d\"}\n", turn);
    fflush(stdout);
    turn++;
    g_timeout_add(duration_ms, on_timeout, NULL);
}

static void next_turn(void) {
    WebKitWebView *view = WEBKIT_WEB_VIEW(webkit_web_view_new());
    /* As Vitrine chooses on a software renderer (llvmpipe). */
    webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(view),
                                                     WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
    loading = GTK_WIDGET(view);
    gtk_overlay_add_overlay(GTK_OVERLAY(overlay), loading);
    gtk_widget_show(loading);
    webkit_web_view_load_uri(view, urls[turn % url_count]);
}

int main(int argc, char **argv) {
    gtk_init(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: view-swap DURATION-MS URL...\n");
        return 2;
    }
    duration_ms = atoi(argv[1]);
    urls = argv + 2;
    url_count = argc - 2;
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 1024, 768);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
    overlay = gtk_overlay_new();
    gtk_container_add(GTK_CONTAINER(window), overlay);
    gtk_widget_show_all(window);
    next_turn();
    gtk_main();
    return 0;
}
