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
 * Three diagnostic variants, off unless their variable is set in the environment (ipc.py
 * never sets them; point --vitrine at a wrapper script that does, see benchmarks/README.md):
 *   VITRINE_LIKE=1   what Vitrine adds to every page besides its SDK: two more handlers,
 *                    one in an isolated world, a document-start script in each world.
 *   VITRINE_TOKEN=1  Vitrine's message protocol without Vitrine: an SDK-shaped wrapper
 *                    that prefixes a 33-character token, and a handler that converts the
 *                    request to read it and answers with a new string.
 *   VITRINE_CONVERT=1 only the conversions: each string request read as a C string and
 *                    answered with a new string made from it (no token, no wrapper).
 *
 * Build: cc -O2 echo-webkit.c $(pkg-config --cflags --libs webkit2gtk-4.1)
 */
#include <gtk/gtk.h>
#include <glib-unix.h>
#include <webkit2/webkit2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

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
    if (getenv("VITRINE_CONVERT") && jsc_value_is_string(value)) {
        /* Only the conversions: the request read as a string, the answer a new string. */
        char *text = jsc_value_to_string(value);
        JSCValue *answer = jsc_value_new_string(jsc_value_get_context(value), text);
        webkit_script_message_reply_return_value(reply, answer);
        g_object_unref(answer);
        g_free(text);
        return TRUE;
    }
    if (getenv("VITRINE_TOKEN")) {
        /* Vitrine's protocol without Vitrine: read the request as a string, answer with
         * what follows the 33-character token prefix as a new string. */
        if (jsc_value_is_string(value)) {
            char *text = jsc_value_to_string(value);
            JSCValue *answer = jsc_value_new_string(jsc_value_get_context(value), text + 33);
            webkit_script_message_reply_return_value(reply, answer);
            g_object_unref(answer);
            g_free(text);
        } else {
            JSCValue *v = jsc_value_object_get_property(value, "v");
            webkit_script_message_reply_return_value(reply, v);
            g_object_unref(v);
        }
        return TRUE;
    }
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
    if (getenv("VITRINE_TOKEN")) {
        /* A page-world wrapper shaped like Vitrine's SDK: the same proxy, the same checks,
         * the same token prefix. */
        WebKitUserScript *sdk = webkit_user_script_new(
            "(function(){var native=window.webkit.messageHandlers;var token='0123456789abcdef0123456789abcdef';"
            "var wf=function(t){return t.isWellFormed();};var cache=new Map();"
            "function invoke(name,payload){try{name=String(name);var h=cache.get(name);if(h===undefined){h=native[name];cache.set(name,h);}"
            "if(typeof payload==='string'){return h.postMessage(payload.length<=1024&&payload.indexOf('\\0')<0&&wf(payload)?token+'s'+payload:{t:token,v:payload});}"
            "return h.postMessage(token+'j'+JSON.stringify(payload));}catch(e){return Promise.reject(e);}}"
            "var posters=new Map();var handlers=new Proxy({},{get:function(t,name){if(typeof name!=='string')return undefined;var p=posters.get(name);"
            "if(!p){p=Object.freeze({postMessage:function(b){return invoke(name,b);}});posters.set(name,p);}return p;}});"
            "Object.defineProperty(window.webkit,'messageHandlers',{value:handlers,enumerable:true});})();",
            WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
        webkit_user_content_manager_add_script(ucm, sdk);
        webkit_user_script_unref(sdk);
    }
    if (getenv("VITRINE_LIKE")) {
        /* What Vitrine adds to every page, minus its SDK: two more handlers in the page's
         * world, one in an isolated world, and a document-start script in each world. */
        webkit_user_content_manager_register_script_message_handler_with_reply(ucm, "page", NULL);
        webkit_user_content_manager_register_script_message_handler_with_reply(ucm, "user", NULL);
        webkit_user_content_manager_register_script_message_handler_with_reply(ucm, "vitrine-frame", "vitrine");
        WebKitUserScript *iso = webkit_user_script_new_for_world(
            "(function(){var t=crypto.getRandomValues(new Uint8Array(16));document.addEventListener('vitrine:hello',function(){});})();",
            WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, "vitrine", NULL, NULL);
        webkit_user_content_manager_add_script(ucm, iso);
        webkit_user_script_unref(iso);
        WebKitUserScript *main = webkit_user_script_new(
            "(function(){document.addEventListener('vitrine:event',function(){});})();",
            WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
        webkit_user_content_manager_add_script(ucm, main);
        webkit_user_script_unref(main);
    }
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
