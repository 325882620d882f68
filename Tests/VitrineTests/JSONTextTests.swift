import Foundation
import Testing
@testable import Vitrine

/// JSONValue's own reader and writer: member order at every depth, numbers, strings with
/// every kind of character, and clear errors for malformed text.
@Suite("JSON text")
struct JSONTextTests {
    @Test func membersKeepTheirOrderAtEveryDepth() throws {
        let text = #"{"s":"x","n":1,"a":[1,{"z":1,"b":2,"m":{"y":0,"c":null,"10":"ten"}}],"zz":-0.5}"#
        let value = try JSONValue(parsing: text)
        guard case .object(let top) = value, case .object(let inner) = value["a"]?.arrayElement(1),
              case .object(let deepest) = inner["m"]
        else { Issue.record("not objects: \(value)"); return }
        #expect(top.keys == ["s", "n", "a", "zz"])
        #expect(inner.keys == ["z", "b", "m"])
        #expect(deepest.keys == ["y", "c", "10"])
        #expect(value.jsonText == text, "printed back exactly")
    }

    @Test func equalityIsJSONsAndTheOrderShowsInKeysAndText() throws {
        let ab = try JSONValue(parsing: #"{"a":1,"b":2}"#), ba = try JSONValue(parsing: #"{"b":2,"a":1}"#)
        #expect(ab == ba && ab.hashValue == ba.hashValue)
        #expect(ab.jsonText != ba.jsonText)
        #expect(ab != ["a": 1, "b": 3] && ab != ["a": 1] && ab != ["a": 1, "c": 2])
    }

    @Test func aRepeatedKeyKeepsItsFirstPlaceAndLastValue() throws {
        let value = try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#)
        #expect(value.jsonText == #"{"a":3,"b":2}"#, "as JSON.parse does")
    }

    @Test func objectsAreEditedInPlace() {
        var members: JSONObject = ["one": 1, "two": 2, "three": 3]
        members["two"] = "deux"
        members["four"] = 4
        members["one"] = nil
        #expect(members.keys == ["two", "three", "four"])
        #expect(members["three"] == 3 && members["one"] == nil)
        #expect(JSONValue.object(members).jsonText == #"{"two":"deux","three":3,"four":4}"#)
        #expect(Array(members.map(\.key)) == ["two", "three", "four"])
    }

    @Test(arguments: [
        ("0", "0"), ("1", "1"), ("-1", "-1"), ("1.0", "1"), ("1e3", "1000"), ("-0", "0"), ("0.1", "0.1"),
        ("2.5e-7", "2.5e-07"), ("9007199254740991", "9007199254740991"), ("1e300", "1e+300"),
    ])
    func numbersPrintAsJavaScriptReadsThem(_ text: String, _ printed: String) throws {
        let value = try JSONValue(parsing: text)
        #expect(value.jsonText == printed)
        #expect(try JSONValue(parsing: value.jsonText) == value, "reads back as the same number")
    }

    @Test func integersStayIntegersInsideObjects() throws {
        #expect(try JSONValue(parsing: #"{"n":1,"list":[2,3.5,-4]}"#).jsonText == #"{"n":1,"list":[2,3.5,-4]}"#)
        #expect(JSONValue.number(.infinity).jsonText == "null" && JSONValue.number(.nan).jsonText == "null")
    }

    @Test func stringsKeepEveryCharacter() throws {
        let text = "a\u{0}b \u{1F600} é \u{2028} \"q\" \\ / \t\n\r\u{8}\u{C}\u{1F}"
        let printed = JSONValue.string(text).jsonText
        #expect(printed == #""a\u0000b 😀 é "# + "\u{2028}" + #" \"q\" \\ / \t\n\r\b\f\u001f""#)
        #expect(try JSONValue(parsing: printed) == .string(text))
        #expect(try JSONValue(parsing: #""\ud83d\ude00 \u00e9\/""#) == "😀 é/", "escaped pairs join")
    }

    @Test func aLoneSurrogateBecomesTheReplacementCharacter() throws {
        #expect(try JSONValue(parsing: #""a\ud800b""#) == "a\u{FFFD}b")
        #expect(try JSONValue(parsing: #""\udc00""#) == "\u{FFFD}")
        #expect(try JSONValue(parsing: #""\ud800\u0041""#) == "\u{FFFD}A", "the escape after is read on its own")
    }

    @Test func bytesAreWrittenAsBase64Text() throws {
        #expect(JSONValue.bytes([0, 1, 2, 255]).jsonText == #""AAEC/w==""#)
        #expect(JSONValue.object(["data": .bytes([104, 105])]).jsonText == #"{"data":"aGk="}"#)
        #expect(ScriptReply(.bytes([1])) == .bytes([1]) && ScriptReply(["a": 1]) == .json(#"{"a":1}"#))
    }

    @Test(arguments: [
        ("", 0, "unexpected end of text"), ("{", 1, "expected a member name in quotes"),
        ("[1,", 3, "unexpected end of text"), ("tru", 3, "expected 'true'"),
        ("{'a': 1}", 1, "expected a member name in quotes"), ("undefined", 0, "unexpected character 'u'"),
        ("[1 2]", 3, "expected ',' or ']' in an array"), (#"{"a" 1}"#, 5, "expected ':' after a member name"),
        ("01", 1, "unexpected text after the value"), ("1.", 2, "expected a digit after '.'"),
        ("-", 1, "expected a digit"), (#""\x""#, 2, #"unknown escape '\x'"#), (#""\u12""#, 3, "expected four hex digits after \\u"),
        ("\"a\nb\"", 2, "control character in a string (escape it)"), (#""open"#, 5, "unterminated string"),
    ])
    func malformedTextGetsAClearError(_ text: String, _ offset: Int, _ reason: String) {
        #expect(throws: JSONTextError(reason: reason, offset: offset)) { try JSONValue(parsing: text) }
    }

    @Test func deepNestingIsRefusedNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONTextError.self) { try JSONValue(parsing: deep) }
        let fine = String(repeating: "[", count: JSONTextReader.maximumDepth) + String(repeating: "]", count: JSONTextReader.maximumDepth)
        #expect(try JSONValue(parsing: fine).jsonText == fine)
    }

    @Test func largeTextsRoundTrip() throws {
        for size in [16, 1024, 100 * 1024] {
            let members = (0..<max(1, size / 64)).map { ("k\(($0 * 7919) % 1000)-\($0)", JSONValue.string(String(repeating: "x", count: 40))) }
            let value = JSONValue.object(JSONObject(members))
            let parsed = try JSONValue(parsing: value.jsonText)
            #expect(parsed == value)
            #expect(parsed.jsonText == value.jsonText)
        }
    }

    @Test func messagesCarryBytesAndExactText() {
        let bytes = ScriptMessage(name: "ping", body: .bytes([7, 8]))
        #expect(bytes.body == .bytes([7, 8]) && bytes.bodyBytes == [7, 8])
        let text = #"{"b":"\ud800","a":1}"#
        let exact = ScriptMessage(name: "ping", bodyJSON: text)
        #expect(exact.bodyJSON == text, "the page's own text, lone surrogate escape included")
        #expect(exact.body["b"] == "\u{FFFD}")
        let view = ScriptMessageView(name: "x", pageURL: nil, makeBodyJSON: { "null" }, makeBodyBytes: { [1, 2, 3] })
        #expect(view.hasBytes && view.body == .bytes([1, 2, 3]) && view.message.bodyBytes == [1, 2, 3])
    }
}

extension JSONValue {
    fileprivate func arrayElement(_ index: Int) -> JSONValue? {
        if case .array(let values) = self, values.indices.contains(index) { return values[index] }
        return nil
    }
}
