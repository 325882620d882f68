#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `[kiosk]` and its on-screen keyboard's `[keyboard]`.
extension ConfigOptions {
    static let kioskOptions: [ConfigOption] = [
        // Any [kiosk] table makes the window a kiosk, refining the preset's kiosk options.
        ConfigOption.section("kiosk", "kiosk behaviour") { $0.kiosk($0.kiosk ?? KioskOptions()) }
            .summarized(as: "kiosk") { configuration, _ in
                configuration.kiosk.map { kiosk in
                    let idle = kiosk.idleReset.map { "idle reset after \(seconds($0))" } ?? "no idle reset"
                    let keyboard = kiosk.onScreenKeyboard ? ", on-screen keyboard (\(configuration.keyboardLayout))" : ""
                    return "yes, \(kiosk.lockdown ? "locked down" : "not locked down"), \(idle)\(keyboard)"
                }
            }.printable { Printed.bool($0.kiosk != nil) },
        ConfigOption.bool("kiosk.lockdown", "no context menu, inspector, zoom or history shortcuts", kiosk(\.lockdown))
            .printable { $0.kiosk.map { Printed.bool($0.lockdown) } },
        ConfigOption.bool("kiosk.hide-cursor", "hide the mouse pointer over the window", kiosk(\.hidesCursor))
            .printable { $0.kiosk.map { Printed.bool($0.hidesCursor) } },
        ConfigOption.seconds("kiosk.idle-reset", allowsZero: true, zeroMeaning: "never", "seconds without input before going back to the start page") {
            kiosk(\.idleReset)($0, $1 == .zero ? nil : $1)
        }.printable { $0.kiosk.map { $0.idleReset.map(Printed.seconds) ?? "0" } },
        ConfigOption.bool("kiosk.idle-clear-data", "on idle reset, also clear cookies, storage and caches", kiosk(\.clearsDataOnIdleReset))
            .printable { $0.kiosk.map { Printed.bool($0.clearsDataOnIdleReset) } },
        ConfigOption.bool("kiosk.inhibit-screen-blanking", "keep the screen from blanking", kiosk(\.inhibitsScreenBlanking))
            .printable { $0.kiosk.map { Printed.bool($0.inhibitsScreenBlanking) } },
        ConfigOption.integer("kiosk.crash-loop-limit",
                 .integer(expected: "an integer of at least 1", refusal: "be at least 1", where: KioskOptions.acceptsCrashLoopLimit),
                 "more crashes than this within crash-loop-window: error page and countdown", kiosk(\.crashLoopLimit))
            .example("3").printable { $0.kiosk.map { String($0.crashLoopLimit) } },
        ConfigOption.seconds("kiosk.crash-loop-window", allowsZero: false, "the window crash-loop-limit counts crashes in", kiosk(\.crashLoopWindow))
            .example("60").printable { $0.kiosk.map { Printed.seconds($0.crashLoopWindow) } },
        ConfigOption.seconds("kiosk.crash-loop-backoff", allowsZero: true, "how long the crash-loop page waits before trying again",
                             kiosk(\.crashLoopBackoff))
            .printable { $0.kiosk.map { Printed.seconds($0.crashLoopBackoff) } },
        ConfigOption.seconds("kiosk.unresponsive-timeout", allowsZero: false, "seconds before a hung page is terminated and reloaded",
                             kiosk(\.unresponsiveTimeout))
            .example("10").printable { $0.kiosk.map { Printed.seconds($0.unresponsiveTimeout) } },
        ConfigOption.seconds("kiosk.load-timeout", allowsZero: true, zeroMeaning: "never",
                 "seconds a page's server may take to begin answering before the error page shows and it is tried again") {
            kiosk(\.loadTimeout)($0, $1 == .zero ? nil : $1)
        }.printable { $0.kiosk.map { $0.loadTimeout.map(Printed.seconds) ?? "0" } },
        // Unset: WebKit's own handling of memory pressure.
        ConfigOption.integer("kiosk.web-memory-limit",
                 .integer(expected: "a number of megabytes from 64 to 1048576", refusal: "be from 64 to 1048576 (megabytes)",
                          where: KioskOptions.acceptsWebMemoryLimit),
                 "megabytes a web process may use before it is killed and recovered like a crash", kiosk(\.webMemoryLimit))
            .example("300").printable { $0.kiosk?.webMemoryLimit.map(String.init) },
        // The kiosk-session script reads this one: "0" without a kiosk too.
        ConfigOption.integer("kiosk.rotation",
                 .integer(expected: "0, 90, 180 or 270", refusal: "be 0, 90, 180 or 270", where: KioskOptions.rotations.contains),
                 "degrees clockwise the kiosk-session script turns the screen (cage -r)", kiosk(\.rotation))
            .printable { String($0.kiosk?.rotation ?? 0) },
        ConfigOption.string("kiosk.external-links", .choice(["block", "browser"]),
                "block: the chain decides; browser: links leaving the app open in the desktop's browser") { configurator, choice in
            choice == "browser" ? configurator.mapChain(ConfigAssembly.insertingExternalBrowser) : configurator
        }.printable { configuration in
            configuration.kiosk.map { _ in
                configuration.navigationChain.names.contains(ExternalBrowserHandler.typeName) ? "browser" : "block"
            }
        },

        ConfigOption.bool("kiosk.on-screen-keyboard", "Vitrine's own keyboard slides up below the page when an editable field gets the focus",
              kiosk(\.onScreenKeyboard))
            .printable { $0.kiosk.map { Printed.bool($0.onScreenKeyboard) } },

        .section("keyboard", "the on-screen keyboard ([kiosk] on-screen-keyboard)"),
        ConfigOption.string("keyboard.layout", .choice(KeyboardLayout.shippedNames),
                "its layout: \(KeyboardLayout.shippedNames.joined(separator: ", ")) (Resources/keyboard/NAME.json)") {
            $0.preference(\.keyboardLayout, $1)
        }.printable { $0.keyboardLayout },
    ]

    /// Sets one field of the kiosk options (the preset's, else the defaults).
    private static func kiosk<Value: Sendable>(_ field: WritableKeyPath<KioskOptions, Value> & Sendable) -> ConfigOption.Apply<Value> {
        { configurator, value in
            var options = configurator.kiosk ?? KioskOptions()
            options[keyPath: field] = value
            return configurator.kiosk(options)
        }
    }

}
