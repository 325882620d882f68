import Foundation
import Testing
import Vitrine
@testable import VitrineConfigFile

/// The locator that gives configuration errors their line and column.
@Suite("Config file: TOML source map")
struct ConfigFileSourceMapTests {
    typealias Position = TOMLSourceMap.Position

    private func at(_ line: Int, _ column: Int) -> Position { Position(line: line, column: column) }
    private func key(_ parts: Any...) -> TOMLSourceMap.Path {
        parts.map { part in
            if let index = part as? Int { return .index(index) }
            return .key(part as! String)
        }
    }

    @Test func topLevelKeysAndValues() {
        let map = TOMLSourceMap("""
            preset = "kiosk"
              title   =   'Lobby'   # comment
            width=3
            """)
        #expect(map.keys[key("preset")] == at(1, 1))
        #expect(map.values[key("preset")] == at(1, 10))
        #expect(map.keys[key("title")] == at(2, 3))
        #expect(map.values[key("title")] == at(2, 15))
        #expect(map.values[key("width")] == at(3, 7))
    }

    @Test func tableHeadersAndDottedKeys() {
        let map = TOMLSourceMap("""
            [window]
            width = 1280
            [ kiosk . "inner" ]
            a.b.c = 1
            """)
        #expect(map.values[key("window")] == at(1, 1))
        #expect(map.keys[key("window")] == at(1, 2))
        #expect(map.values[key("window", "width")] == at(2, 9))
        #expect(map.keys[key("kiosk", "inner")] == at(3, 11))
        #expect(map.values[key("kiosk", "inner")] == at(3, 1))
        #expect(map.keys[key("kiosk", "inner", "a", "b", "c")] == at(4, 5))
        #expect(map.values[key("kiosk", "inner", "a", "b", "c")] == at(4, 9))
        // Implicit tables made by a dotted key point at the key that made them.
        #expect(map.values[key("kiosk", "inner", "a")] == at(4, 1))
    }

    @Test func arraysOfTablesAreNumberedPerParent() {
        let map = TOMLSourceMap("""
            [[navigation.handlers]]
            type = "home"

            [[navigation.handlers]]
            type = "deep-link"
            [[a]]
            [[a.b]]
            x = 1
            [[a]]
            [[a.b]]
            x = 2
            [[a.b]]
            x = 3
            [a.c]
            y = 4
            """)
        #expect(map.values[key("navigation", "handlers")] == at(1, 1))
        #expect(map.values[key("navigation", "handlers", 0)] == at(1, 1))
        #expect(map.values[key("navigation", "handlers", 0, "type")] == at(2, 8))
        #expect(map.values[key("navigation", "handlers", 1)] == at(4, 1))
        #expect(map.values[key("navigation", "handlers", 1, "type")] == at(5, 8))
        #expect(map.values[key("a", 0, "b", 0, "x")] == at(8, 5))
        #expect(map.values[key("a", 1, "b", 0, "x")] == at(11, 5))
        #expect(map.values[key("a", 1, "b", 1, "x")] == at(13, 5))
        #expect(map.values[key("a", 1, "c", "y")] == at(15, 5))
    }

    @Test func arrayElementsAndInlineTables() {
        let map = TOMLSourceMap("""
            origins = ["https://a.example", 'https://b.example',
                # a comment inside an array
                "https://c.example", ]
            routes = { "/product/:id" = "product", shop = { deep = [1, 2] } }
            tabs = [ { title = "Home", url = "app://app/" }, {title="B"} ]
            """)
        #expect(map.values[key("origins", 0)] == at(1, 12))
        #expect(map.values[key("origins", 1)] == at(1, 33))
        #expect(map.values[key("origins", 2)] == at(3, 5))
        #expect(map.keys[key("routes", "/product/:id")] == at(4, 12))
        #expect(map.values[key("routes", "/product/:id")] == at(4, 29))
        #expect(map.values[key("routes", "shop", "deep", 1)] == at(4, 60))
        #expect(map.values[key("tabs", 0)] == at(5, 10))
        #expect(map.values[key("tabs", 0, "url")] == at(5, 34))
        #expect(map.values[key("tabs", 1, "title")] == at(5, 57))
    }

    @Test func stringsThatLookLikeSyntaxAreSkipped() {
        let map = TOMLSourceMap(#"""
            a = "not [a] header # nor a comment \" = still a string"
            b = """
            [fake]
            c = 1 ""\"
            """
            d = '''
            [[also.fake]] ''''
            e = 'C:\path\'
            "quoted \u00e9 key" = { f = "}" }
            [real]
            g = 7
            """#)
        #expect(map.values[key("b")] == at(2, 5))
        #expect(map.values[key("d")] == at(6, 5))
        #expect(map.values[key("e")] == at(8, 5))
        #expect(map.keys[key("fake")] == nil)
        #expect(map.keys[key("c")] == nil)
        #expect(map.keys[key("also")] == nil)
        #expect(map.keys[key("quoted é key")] == at(9, 1))
        #expect(map.values[key("quoted é key", "f")] == at(9, 29))
        #expect(map.values[key("real", "g")] == at(11, 5))
    }

    @Test func columnsCountUnicodeScalarsAndCRLFEndsLines() {
        let map = TOMLSourceMap("title = \"Café\" ; x = 1\r\nwidth = 5\r\n\u{FEFF}")
        #expect(map.values[key("width")] == at(2, 9))
        let withMark = TOMLSourceMap("\u{FEFF}é = 1\nb = \"→\"\nc = 2")
        #expect(withMark.keys[key("é")] == nil)  // not a bare key; quoted it would be
        #expect(withMark.values[key("c")] == at(3, 5))
        let unicode = TOMLSourceMap("\"é\" = \"→→\"  \nk = 1")
        #expect(unicode.values[key("é")] == at(1, 7))
        #expect(unicode.values[key("k")] == at(2, 5))
    }

    @Test func datesWithSpacesAndNumbers() {
        let map = TOMLSourceMap("""
            when = 1979-05-27 07:32:00Z
            list = [1979-05-27 07:32:00, -1.5e3, +inf]
            after = true
            """)
        #expect(map.values[key("list", 1)] == at(2, 30))
        #expect(map.values[key("list", 2)] == at(2, 38))
        #expect(map.values[key("after")] == at(3, 9))
    }

    @Test func fallbacksPointAtTheNearestKnownPlace() {
        let map = TOMLSourceMap("[window]\nwidth = 1\n")
        #expect(map.position(ofValue: key("window", "height")) == at(1, 1))
        #expect(map.position(ofKey: key("window", "width")) == at(2, 1))
        #expect(map.position(ofValue: key("nothing")) == .start)
    }

    @Test func invalidTextStillTerminates() {
        for text in ["[", "[[", "a = [1, 2", "a = {", "a = \"open", "a = '''open", "= = =", "]]]", "a.", "\"", "a = [{]"] {
            _ = TOMLSourceMap(text)
        }
    }
}

/// The locator against the real parser: every key and element TOMLKit reads has a position.
@Suite("Config file: source map agrees with the TOML parser")
struct ConfigFileSourceMapParserTests {
    /// Most of TOML 1.0's syntax, after the examples of toml.io.
    static let everything = #"""
        # This is a TOML document
        title = "TOML Example"
        "quoted key" = 1
        'literal key' = 2
        "" = "empty quoted key"
        site."google.com" = true
        fruit . color = "yellow"
        3.14159 = "pi"
        bare_key-1 = 'x'
        str1 = """
        Roses are red
        Violets are blue"""
        str2 = """\
               The quick brown \
               fox."""
        str3 = """Here are fifteen quotation marks: ""\"""\"""\"""\"""\"."""
        str4 = '''I [dw]on't need \d{2} apples'''
        str5 = ''''That,' she said, 'is still pointless.''''
        winpath = 'C:\Users\nodejs\templates'
        int = +99
        hex = 0xDEADBEEF
        oct = 0o755
        bin = 0b11010110
        big = 5_349_221
        flt = -6.626e-34
        specials = [inf, -inf, nan, +0.0]
        odt = 1979-05-27T07:32:00Z
        odt2 = 1979-05-27 07:32:00.999999-07:00
        ldt = 1979-05-27T07:32:00
        ld = 1979-05-27
        lt = 00:32:00.999999
        nested = [ [ 1, 2 ], ["a", "b", "c"], [ { x = 1 }, { y = [ { z = "}" } ] } ] ]
        multiline = [
          "first", # comment, with a comma
          'second',
          """third
        line""",
        ]
        point = { x = 1, y = 2, "q.k" = { deep.er = 3 } }

        [owner]
        name = "Tom Preston-Werner"
        dob = 1979-05-27T07:32:00-08:00

        [ database ] # spaces in the header
        enabled = true
        ports = [ 8000, 8001, 8002 ]
        data = [ ["delta", "phi"], [3.14] ]
        temp_targets = { cpu = 79.5, case = 72.0 }

        [servers]

        [servers.alpha]
        ip = "10.0.0.1"
        role = "frontend"

        [servers . "beta"]
        ip = "10.0.0.2"

        [ dog."tater.man" ]
        type.name = "pug"

        [[fruits]]
        name = "apple"

        [fruits.physical]  # subtable
        color = "red"
        shape = "round"

        [[fruits.varieties]]  # nested array of tables
        name = "red delicious"

        [[fruits.varieties]]
        name = "granny smith"

        [[fruits]]
        name = "banana"

        [[fruits.varieties]]
        name = "plantain"

        [[ products ]]
        name = "Hammer"
        sku = 738594937

        [[products]]  # empty table within the array

        [[products]]
        name = "Nail"
        sku = 284758393
        color = "gray"

        [x.y.z.w] # for this to work you don't need to specify all the super-tables
        [x] # defining a super-table afterward is ok
        k = "v"
        """#

    @Test func everyPathOfAWideDocumentIsLocated() throws {
        let missing = try #require(ConfigFileDecoder.unlocatedPaths(in: Self.everything), "the document must be valid TOML")
        #expect(missing.isEmpty, "\(missing)")
    }

    @Test func windowsLineEndingsAndTabs() throws {
        let text = "[window]\r\n\twidth\t=\t1\r\n[[navigation.handlers]]\r\ntype = \"home\"\r\n"
        let missing = try #require(ConfigFileDecoder.unlocatedPaths(in: text))
        #expect(missing.isEmpty, "\(missing)")
    }

    @Test(arguments: ConfigFileSampleTests.samples)
    func everyPathOfEachSampleIsLocated(name: String) throws {
        let text = try String(contentsOf: ConfigFileSampleTests.folder.appendingPathComponent(name), encoding: .utf8)
        let missing = try #require(ConfigFileDecoder.unlocatedPaths(in: text))
        #expect(missing.isEmpty, "\(missing)")
    }
}
