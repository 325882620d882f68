#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

extension ConfigOptions {
    /// `[update]`: the signed update feed `vitrine bundle --sign-key` writes, and its key.
    static let update: [ConfigOption] = [
        .section("update", "signed updates: the feed vitrine bundle --sign-key writes, checked with the app's public key"),
        // A push may not point the app at another feed: it would still need the key, but stays local.
        ConfigOption.string("update.feed", .string(
            expected: #"an https URL such as "https://updates.example.org/shop/update.json" (http only to 127.0.0.1, ::1 or localhost)"#,
            refusal: "be an https URL (http only to a loopback host)") { (try? UpdateFeedCheck.checkFeedURL($0).get()) != nil },
            "the update.json the app checks (the --update-url folder of vitrine bundle --sign-key)"
        ) { configurator, text in
            configurator.update { $0.feed = try? UpdateFeedCheck.checkFeedURL(text).get() }
        }.example(#""https://updates.example.org/shop/update.json""#).localOnly().printable { $0.update.feed?.absoluteString },
        ConfigOption.string("update.public-key", .string(
            expected: "the one-line public key vitrine bundle --new-key FILE writes into FILE.pub (44 characters of base64)",
            refusal: "be a public key from vitrine bundle --new-key") { UpdatePublicKey($0) != nil },
            "the Ed25519 key every update's manifest must be signed with"
        ) { configurator, text in
            configurator.update { $0.publicKey = UpdatePublicKey(text) }
        }.example(#""11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=""#).localOnly().printable { $0.update.publicKey?.description },
        ConfigOption.seconds("update.check-every", allowsZero: true, zeroMeaning: "only when the page calls vitrine.update.check()",
                             "seconds between background checks of the feed (default 21600: six hours); a newer version is an available event") {
            configurator, every in configurator.update { $0.checkEvery = every }
        }.printable { Printed.seconds($0.update.checkEvery) },
        ConfigOption.string("update.channel", .string(
            expected: #"a channel name such as "stable" or "beta": 1 to 32 letters, digits or '-'"#,
            refusal: "be 1 to 32 letters, digits or '-'", where: UpdateSettings.acceptsChannel),
            "the release channel the app follows: manifests signed for another (vitrine bundle --channel) are refused (default stable)"
        ) { configurator, channel in
            configurator.update { $0.channel = channel }
        }.example(#""beta""#).printable { $0.update.channel },
        ConfigOption.strings("update.install-command", .strings(expected: "a non-empty program name or argument") { !$0.isEmpty },
                             "what a verified .deb or .rpm update is handed to, its path appended, never through a shell (default: pkexec apt-get install -y, or pkexec dnf install -y)") {
            configurator, command in configurator.update { $0.installCommand = command.isEmpty ? nil : command }
        }.example(#"["pkexec", "apt-get", "install", "-y"]"#).localOnly().printable { $0.update.installCommand.map { Printed.lines($0) } },
    ]
}
