import CWebKitGTK
import Vitrine

/// The web context every view of this process uses.
///
/// WebKit fixes a context's web-process memory settings and its website data manager when
/// it is made, so the first container's configuration decides: WebKit's default context
/// (persistent data in WebKit's folders, WebKit's memory handling), or one of Vitrine's own
/// made with a memory limit, ephemeral data or a data folder. Everything that acts on "the"
/// context (URI schemes, downloads, trusted certificates, website data, the proxy) uses
/// this one.
@MainActor
enum ProcessWebContext {
    private static var context: UnsafeMutablePointer<WebKitWebContext>?
    /// A WebDriver session drives this process (`--automation`): the context allows
    /// automation and every view is made controlled by it. Set before the first container.
    static var automation = false

    /// The process's context, made for `configuration` the first time.
    @discardableResult
    static func prepare(for configuration: Configuration) -> UnsafeMutablePointer<WebKitWebContext> {
        if let context { return context }
        let memory = configuration.webProcessMemory, storage = configuration.websiteDataStorage
        let made = memory == nil && storage == .persistent(directory: nil)
            ? webkit_web_context_get_default()!
            : makeContext(memory: memory, storage: storage)
        // Before any view, so before the first web process. The network process stays
        // outside (WebKitGTK confines web processes only): it writes downloads and the
        // website data, so the download folder needs no path in the sandbox; app:// is read
        // by this process (AppSchemeHandler) and streamed to the page, so the app folder
        // needs none either. Nothing is added with webkit_web_context_add_path_to_sandbox.
        webkit_web_context_set_sandbox_enabled(made, configuration.sandboxesWebProcesses ? 1 : 0)
        if automation { webkit_web_context_set_automation_allowed(made, 1) }
        PageSnapshotScheme.register(in: made)
        context = made
        StartupTrace.process.mark(.webContext)
        return made
    }

    /// The process's context (WebKit's default until a container prepared another).
    static var current: UnsafeMutablePointer<WebKitWebContext> {
        if let context { return context }
        let fallback = webkit_web_context_get_default()!
        context = fallback
        return fallback
    }

    /// A new view of the process's context, with `contentManager` and `autoplay` (floating,
    /// as GTK makes it).
    static func makeView(contentManager: UnsafeMutablePointer<WebKitUserContentManager>,
                         autoplay: AutoplayPolicy) -> UnsafeMutablePointer<WebKitWebView> {
        let policies = vitrine_website_policies(webkitAutoplay(autoplay))!
        defer { g_object_unref(gptr(policies)) } // the view keeps its own
        var properties = [
            ("web-context", objectValue(current, webkit_web_context_get_type())),
            ("user-content-manager", objectValue(contentManager, webkit_user_content_manager_get_type())),
            // Construct-only: a view's autoplay policy is fixed when it is made.
            ("website-policies", objectValue(policies, webkit_website_policies_get_type())),
        ]
        if automation {
            // Construct-only: WebKit hands the session only views made controlled by it.
            var controlled = GValue()
            g_value_init(&controlled, GType(5 << 2)) // G_TYPE_BOOLEAN, a macro Swift cannot import
            g_value_set_boolean(&controlled, 1)
            properties.append(("is-controlled-by-automation", controlled))
        }
        return newObject(webkit_web_view_get_type(), properties)
    }

    private static func webkitAutoplay(_ policy: AutoplayPolicy) -> WebKitAutoplayPolicy {
        switch policy {
        case .allow: WEBKIT_AUTOPLAY_ALLOW
        case .muted: WEBKIT_AUTOPLAY_ALLOW_WITHOUT_SOUND
        case .deny: WEBKIT_AUTOPLAY_DENY
        }
    }

    /// A GValue holding a new reference to `object`.
    private static func objectValue<Object>(_ object: UnsafeMutablePointer<Object>, _ type: GType) -> GValue {
        var value = GValue()
        g_value_init(&value, type)
        g_value_set_object(&value, gptr(object))
        return value
    }

    private static func makeContext(memory: WebProcessMemory?, storage: WebsiteDataStorage) -> UnsafeMutablePointer<WebKitWebContext> {
        var properties: [(String, GValue)] = []
        if let memory {
            let settings = webkit_memory_pressure_settings_new()
            defer { webkit_memory_pressure_settings_free(settings) }
            webkit_memory_pressure_settings_set_memory_limit(settings, guint(memory.limit))
            webkit_memory_pressure_settings_set_poll_interval(settings, memory.pollInterval.inSeconds)
            webkit_memory_pressure_settings_set_kill_threshold(settings, memory.killThreshold)
            var value = GValue()
            g_value_init(&value, webkit_memory_pressure_settings_get_type())
            g_value_set_boxed(&value, UnsafeRawPointer(settings)) // a copy
            properties.append(("memory-pressure-settings", value))
        }
        let manager = makeDataManager(storage)
        defer { g_object_unref(gptr(manager)) } // the context keeps its own
        properties.append(("website-data-manager", objectValue(manager, webkit_website_data_manager_get_type())))
        return newObject(webkit_web_context_get_type(), properties)
    }

    /// A data manager for `storage`: ephemeral, or kept under a folder of its own.
    private static func makeDataManager(_ storage: WebsiteDataStorage) -> UnsafeMutablePointer<WebKitWebsiteDataManager> {
        guard case .persistent(let directory?) = storage else { return webkit_website_data_manager_new_ephemeral()! }
        let properties = [("base-data-directory", "data"), ("base-cache-directory", "cache")].map { name, folder in
            var value = GValue()
            g_value_init(&value, GType(16 << 2)) // G_TYPE_STRING, a macro Swift cannot import
            g_value_set_string(&value, directory.appendingPathComponent(folder).path)
            return (name, value)
        }
        return newObject(webkit_website_data_manager_get_type(), properties)
    }

    /// `g_object_new` with `properties` (their values unset here).
    private static func newObject<T>(_ type: GType, _ properties: [(String, GValue)]) -> UnsafeMutablePointer<T> {
        var values = properties.map(\.1)
        defer { for index in values.indices { g_value_unset(&values[index]) } }
        let object = properties.map(\.0).withCStringArray { names in
            g_object_new_with_properties(type, guint(values.count), names, values)
        }
        return UnsafeMutableRawPointer(object!).assumingMemoryBound(to: T.self)
    }
}
