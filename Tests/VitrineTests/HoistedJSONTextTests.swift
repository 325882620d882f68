import Testing
@testable import Vitrine

/// JSON text whose long strings travelled beside it (`HoistedJSONText`): each place is
/// replaced by its string's JSON text, and nothing else is.
@Suite("Hoisted JSON text")
struct HoistedJSONTextTests {
    let mark = String(HoistedJSONText.mark)
    let quoted = [1: #""first \"long\" string""#, 2: #""second \u0000""#, 12: #""twelfth""#]

    func splice(_ text: String) -> String {
        HoistedJSONText.splice(text) { quoted[$0] }
    }

    @Test func eachPlaceBecomesItsStringAtAnyDepth() {
        #expect(splice(#"{"s":"\#(mark)1","n":1,"a":[{"z":"\#(mark)2"},"\#(mark)12"]}"#)
                == #"{"s":"first \"long\" string","n":1,"a":[{"z":"second \u0000"},"twelfth"]}"#)
        #expect(splice(#"["\#(mark)2"]"#) == #"["second \u0000"]"#)
        #expect(splice(#""\#(mark)1""#) == #""first \"long\" string""#, "a whole text that is one place")
    }

    @Test func keysAndLookAlikesInsideOtherStringsStay() {
        let text = #"{"\#(mark)1":"x\"\#(mark)1","k":"\\\#(mark)2","é😀":"\#(mark)","m":"\#(mark)1x","e":"\#(mark)"}"#
        #expect(splice(text) == text, "a key, an escaped quote before the mark, a mark without digits or with more")
        #expect(splice(#"{"a":"\#(mark)9"}"#) == #"{"a":"\#(mark)9"}"#, "an index no string has stays as it is")
        #expect(splice(#"{"a":"\#(mark)99999999999"}"#) == #"{"a":"\#(mark)99999999999"}"#, "too many digits")
    }

    @Test func textWithoutPlacesIsReturnedAsItIs() {
        for text in [#"{"a":1}"#, "", #""unterminated"#, #"{"a":"\#(mark)1"#, "é😀\u{0}"] {
            #expect(splice(text) == text)
        }
    }

    @Test func multibyteTextAroundPlacesIsKept() {
        #expect(splice(#"{"é":"😀","s":"\#(mark)12","ü":["\#(mark)1"]}"#)
                == #"{"é":"😀","s":"twelfth","ü":["first \"long\" string"]}"#)
    }
}
