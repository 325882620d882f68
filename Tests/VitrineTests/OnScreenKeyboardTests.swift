import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// The on-screen keyboard's decisions, without a display: the shipped layouts and a
/// malformed one, what each key does, what the page's reports do, and its two options.
@Suite("On-screen keyboard: layouts, keys, state and options")
struct OnScreenKeyboardTests {
    /// <package>/Resources/keyboard, from this file's place in <package>/Tests/VitrineTests.
    static let layouts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/keyboard")

    private func layout(_ json: String) throws(KeyboardLayoutError) -> KeyboardLayout {
        try KeyboardLayout(json: Data(json.utf8), source: "xx.json")
    }

    private func problem(_ json: String) -> String? {
        do { _ = try layout(json); return nil } catch { return error.description }
    }

    @Test(arguments: KeyboardLayout.shippedNames)
    func eachShippedLayoutParsesUnderItsName(name: String) throws {
        let layout = try KeyboardLayout.load(name, from: Self.layouts)
        #expect(layout.name == name)
        #expect(layout.rows.count == 4)
        #expect(layout.rows.allSatisfy { !$0.isEmpty })
        // Every layout can write an e-mail address and a number.
        let typed = Set(layout.rows.joined().flatMap { [$0.normal, $0.shifted] })
        #expect(typed.isSuperset(of: ["@", ".", "0", "9", "a", "z", "A"]), "\(name) lacks keys: \(typed.sorted())")
    }

    @Test func layoutsDifferWhereTheirCountriesDo() throws {
        let us = try KeyboardLayout.load("us", from: Self.layouts)
        let de = try KeyboardLayout.load("de", from: Self.layouts)
        let fr = try KeyboardLayout.load("fr", from: Self.layouts)
        #expect(us.rows[1].first?.normal == "q" && de.rows[1][5].normal == "z" && fr.rows[1].first?.normal == "a")
        #expect(de.rows.joined().contains(KeyboardLayout.CharacterKey("ü")))
        #expect(de.rows[0].last == KeyboardLayout.CharacterKey("ß", shifted: "?"))
        #expect(fr.rows[0][1] == KeyboardLayout.CharacterKey("é", shifted: "2"))
    }

    @Test func aKeyIsACharacterOrAPairAndShiftDefaultsToUpperCase() throws {
        let parsed = try layout(#"{"name": "xx", "rows": [["a", ["1", "!"], "ß"]]}"#)
        #expect(parsed.rows == [[.init("a", shifted: "A"), .init("1", shifted: "!"), .init("ß", shifted: "SS")]])
    }

    @Test func aMalformedLayoutNamesTheFileAndWhatIsWrong() {
        #expect(problem("{ not json") == "keyboard layout xx.json: is not valid JSON")
        #expect(problem(#"["a"]"#) == #"keyboard layout xx.json: must be a JSON object with "name" and "rows""#)
        #expect(problem(#"{"rows": [["a"]]}"#) == #"keyboard layout xx.json: "name" must be a non-empty string"#)
        #expect(problem(#"{"name": "xx", "rows": []}"#) == #"keyboard layout xx.json: "rows" must be an array of 1 to 6 rows"#)
        #expect(problem(#"{"name": "xx", "rows": [["a"], "bc"]}"#)
                == "keyboard layout xx.json: row 2 must be an array of 1 to 16 keys")
        #expect(problem(#"{"name": "xx", "rows": [["a", 5]]}"#)
                == #"keyboard layout xx.json: row 1, key 2: expected a character such as "a" or a pair such as ["1", "!"], got 5"#)
        #expect(problem(#"{"name": "xx", "rows": [["a", ["1"]]]}"#)?.contains("row 1, key 2") == true)
        #expect(problem(#"{"name": "xx", "rows": [[" "]]}"#)?.contains("row 1, key 1") == true, "a blank key")
        #expect(problem(#"{"name": "xx", "rows": [["toolong"]]}"#)?.contains("row 1, key 1") == true)
        #expect(problem(#"{"name": "xx", "rows": [["\u0007"]]}"#)?.contains("row 1, key 1") == true, "a control character")
        let wide = "[" + Array(repeating: #""a""#, count: 17).joined(separator: ",") + "]"
        #expect(problem(#"{"name": "xx", "rows": [\#(wide)]}"#) == "keyboard layout xx.json: row 1 must be an array of 1 to 16 keys")
    }

    @Test func aMissingLayoutFileIsAnErrorNamingIt() {
        do {
            _ = try KeyboardLayout.load("xx", from: Self.layouts)
            Issue.record("a missing layout loaded")
        } catch {
            #expect(error.description == "keyboard layout \(Self.layouts.appendingPathComponent("xx.json").path): cannot be read")
        }
    }

    @Test func theTextKeysEndInTheSpecialKeysAndEveryKeyHasAnAccessibleName() {
        let rows = KeyboardKey.textRows(.fallback)
        #expect(rows.count == 5)
        #expect(rows[0].last == .backspace && rows[1].first == .tab && rows[2].last == .enter && rows[3].first == .shift)
        #expect(rows[4] == [.hide, .space, .enter])
        let names = rows.joined().map { $0.accessibleName(shifted: false) }
        #expect(names.allSatisfy { !$0.isEmpty })
        #expect(Set(["Shift", "Backspace", "Enter", "Tab", "Space", "Hide keyboard", "q", "1"]).isSubset(of: Set(names)))
        #expect(KeyboardKey.character(normal: "q", shifted: "Q").accessibleName(shifted: true) == "Q")
        let pad = KeyboardKey.numericRows.joined().map { $0.accessibleName(shifted: false) }
        #expect(Set(pad) == ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "-", ".", "+", "Backspace", "Tab", "Enter", "Hide keyboard"])
    }

    @Test func focusShowsTheKeysItAsksForAndBlurHidesThem() {
        var state = OnScreenKeyboardState()
        #expect(!state.isShown)
        state.receive(.focus(.numeric))
        #expect(state.isShown && state.mode == .numeric)
        #expect(state.rows(for: .fallback) == KeyboardKey.numericRows)
        state.receive(.focus(.text))
        #expect(state.mode == .text && state.rows(for: .fallback) == KeyboardKey.textRows(.fallback))
        state.receive(.blur)
        #expect(!state.isShown)
    }

    @Test func shiftTypesOneShiftedCharacterAndEachKeyMapsToItsCommand() {
        var state = OnScreenKeyboardState()
        let q = KeyboardKey.character(normal: "q", shifted: "Q")
        #expect(state.press(q) == nil, "keys do nothing while hidden")
        state.receive(.focus(.text))
        #expect(state.press(.shift) == nil && state.isShifted)
        #expect(state.press(q) == .insert("Q"))
        #expect(!state.isShifted)
        #expect(state.press(q) == .insert("q"))
        #expect(state.press(.space) == .insert(" "))
        #expect(state.press(.backspace) == .deleteBackward)
        #expect(state.press(.enter) == .enter)
        #expect(state.press(.tab) == .nextField)
        _ = state.press(.shift)
        state.receive(.focus(.numeric))
        #expect(!state.isShifted, "a new key set starts unshifted")
        #expect(state.press(.hide) == .hide)
        #expect(!state.isShown)
    }

    @Test func commandsBecomeCallsOfTheKeyboardScriptWithTheTextAsJSON() {
        #expect(KeyboardCommand.insert("é\"'").script == #"vitrineKeyboardPress('insert', "é\"'")"#)
        #expect(KeyboardCommand.deleteBackward.script == "vitrineKeyboardPress('delete', '')")
        #expect(KeyboardCommand.enter.script == "vitrineKeyboardPress('enter', '')")
        #expect(KeyboardCommand.nextField.script == "vitrineKeyboardPress('next', '')")
        #expect(KeyboardCommand.hide.script == nil)
    }

    @Test func onlyTheScriptsThreeReportsAreUnderstood() {
        #expect(KeyboardFocusMessage("focus:text") == .focus(.text))
        #expect(KeyboardFocusMessage("focus:numeric") == .focus(.numeric))
        #expect(KeyboardFocusMessage("blur") == .blur)
        for garbage in ["", "focus", "focus:emoji", "BLUR", "blur ", String(repeating: "x", count: 10_000)] {
            #expect(KeyboardFocusMessage(garbage) == nil)
        }
    }

    @Test func theOptionsSetTheKioskKeyboardAndItsLayout() throws {
        let configuration = try ConfigFile(text: """
            preset = "kiosk"
            start-url = "https://example.org/"
            [kiosk]
            on-screen-keyboard = true
            [keyboard]
            layout = "de"
            """, path: "kiosk.toml").configuration()
        #expect(configuration.kiosk?.onScreenKeyboard == true)
        #expect(configuration.keyboardLayout == "de")
        let summary = ConfigFile.summary(of: configuration, preset: .kiosk)
        #expect(summary.contains { $0.0 == "kiosk" && $0.1.hasSuffix(", on-screen keyboard (de)") }, "\(summary)")
        let plain = try ConfigFile(text: #"preset = "kiosk""# + "\nstart-url = \"https://example.org/\"\n", path: "k.toml").configuration()
        #expect(plain.kiosk?.onScreenKeyboard == false && plain.keyboardLayout == "us")
    }

    @Test func anUnknownLayoutIsAnErrorAtItsPositionListingTheKnownOnes() throws {
        do {
            _ = try ConfigFile(text: "start-url = \"https://example.org/\"\n[keyboard]\nlayout = \"dvorak\"\n", path: "kiosk.toml")
                .configuration()
            Issue.record("an unknown layout was accepted")
        } catch {
            let message = error.allErrors.map(\.description).joined(separator: "\n")
            #expect(message.hasPrefix("kiosk.toml:3:10:"), "\(message)")
            #expect(message.contains("dvorak") && message.contains("us, de, fr"), "\(message)")
        }
    }
}
