/// Text for roff's man macros: what the manual pages' generators write.
enum Roff {
    /// `text` as roff prints it: backslashes and hyphens escaped, other than ASCII as
    /// `\[uXXXX]` (groff reads Latin-1 unless told otherwise), and a line that starts with a
    /// control character (`.` or `'`) kept as text.
    static func escaped(_ text: String) -> String {
        var body = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": body += "\\e"
            case "-": body += "\\-"
            case _ where !scalar.isASCII: body += "\\[u" + hex(scalar.value) + "]"
            default: body.unicodeScalars.append(scalar)
            }
        }
        return body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    /// Four or more upper-case hex digits, as groff's `\[uXXXX]` wants them.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func bold(_ text: String) -> String { "\\fB\(escaped(text))\\fR" }
    static func italic(_ text: String) -> String { "\\fI\(escaped(text))\\fR" }

    /// Paragraphs separated by blank lines, as `.PP` paragraphs; a single line break stays one.
    static func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n\n").enumerated().flatMap { index, paragraph in
            (index == 0 ? [] : [".PP"]) + paragraph.split(separator: "\n").enumerated().flatMap { line, text in
                (line == 0 ? [] : [".br"]) + [escaped(String(text))]
            }
        }
    }

    /// An example block: lines kept as written, in a fixed-width font.
    static func example(_ text: String) -> [String] {
        [".RS", ".EX"] + text.split(separator: "\n").map { escaped(String($0)) } + [".EE", ".RE"]
    }
}
