import JOSETestSupport
import Testing
@testable import JOSE

extension EncodingTests {
    /// Tests for ``JSONOutput`` serialisation.
    @Suite(.tags(.addressSanitized)) struct JSONWriterTests {
        @Test func compactHasNoWhitespaceAndKeepsOrder() {
            let json = JSONOutput.object([
                ("kty", .string("RSA")), ("e", .string("AQAB")), ("n", .integer(-42)),
                ("list", .array([.bool(true), .bool(false), .null, .array([]), .object([])])),
            ])
            #expect(json.serialized() == #"{"kty":"RSA","e":"AQAB","n":-42,"list":[true,false,null,[],{}]}"#)
        }

        @Test func rfc7638ThumbprintInput() {
            let json = JSONOutput.object([("crv", .string("P-256")), ("kty", .string("EC")), ("x", .string("f83O")), ("y", .string("x_FE"))])
            #expect(json.serializedBytes() == Array(#"{"crv":"P-256","kty":"EC","x":"f83O","y":"x_FE"}"#.utf8))
        }

        /// Strings and their escaped JSON form.
        static let escapes: [(String, String)] = [
            ("plain", #""plain""#),
            ("q\"b\\s/", #""q\"b\\s/""#),
            ("\u{08}\u{0C}\n\r\t", #""\b\f\n\r\t""#),
            ("\u{0}\u{1}\u{1F}\u{7F}", #""\u0000\u0001\u001f\u007f""#),
            // C1 controls (CSI among them) and the line separators: never raw on a terminal.
            ("a\u{80}\u{9B}[2Jb\u{2028}\u{2029}\u{A0}", #""a\u0080\u009b[2Jb\u2028\u2029\#u{A0}""#),
            ("é€😀", "\"é€😀\""),
            ("https://example.com/a", #""https://example.com/a""#),
        ]

        @Test(arguments: escapes)
        func stringEscaping(text: String, expected: String) throws {
            #expect(JSONOutput.string(text).serialized() == expected)
            // The escaped form reads back as the original.
            #expect(try JSONDocument(text: expected).root.string == text)
        }

        /// A parsed string that needs no JSON escape used to be copied byte for byte, DEL and C1
        /// controls (U+009B is an 8-bit CSI) included: the raw path escapes what the
        /// ``JSONOutput/string(_:)`` path escapes, members and array elements alike.
        @Test func parsedStringsRawOnATerminalAreEscaped() throws {
            let source = "{\"name\":\"a\u{9B}[2Jb\u{7F}\u{2028}\u{A0}é\",\"list\":[\"\u{85}\",\"plain\"]}"
            let document = try JSONDocument(text: source)
            let expected = #"{"name":"a\u009b[2Jb\u007f\u2028\#u{A0}é","list":["\u0085","plain"]}"#
            #expect(JSONOutput.raw(document.root).serialized() == expected)
            #expect(document.root.output.serialized() == expected)
        }

        @Test func holdsEscapedBeyondJSONFindsEachCharacterAnywhere() {
            for text in ["\u{7F}", "x\u{80}", "\u{9F}y", "ab\u{2028}", "\u{2029}"] {
                #expect(JSONWriter.holdsEscapedBeyondJSON(ArraySlice(text.utf8)), "\(text.unicodeScalars.map(\.value))")
            }
            for text in ["", "plain", "\u{A0}\u{FF}é", "\u{2027}\u{202A}\u{100}", "😀€"] {
                #expect(!JSONWriter.holdsEscapedBeyondJSON(ArraySlice(text.utf8)), "\(text.unicodeScalars.map(\.value))")
            }
        }

        /// Doubles and their shortest JSON form.
        static let doubles: [(Double, String)] = [
            (0, "0"), (-0.0, "-0"), (1, "1"), (-3, "-3"), (1.5, "1.5"), (0.1, "0.1"), (1516239022, "1516239022"),
            (9_007_199_254_740_992, "9007199254740992"), (-9_007_199_254_740_992, "-9007199254740992"),
            (1e300, "1e+300"), (2.5e-7, "2.5e-07"), (.infinity, "null"), (-.infinity, "null"), (.nan, "null"),
            (18_014_398_509_481_984, "1.8014398509481984e+16"), (123.456, "123.456"),
        ]

        @Test(arguments: doubles)
        func numberFormatting(value: Double, expected: String) throws {
            let text = JSONOutput.number(value).serialized()
            #expect(text == expected)
            if value.isFinite {
                let back = try #require(try JSONDocument(text: text).root.number)
                #expect(back == value)
                #expect(back.sign == value.sign)
            }
        }

        @Test func integers() {
            #expect(JSONOutput.integer(.max).serialized() == "9223372036854775807")
            #expect(JSONOutput.integer(.min).serialized() == "-9223372036854775808")
        }

        @Test func prettyOutput() {
            let json = JSONOutput.object([
                ("valid", .bool(true)),
                ("header", .object([("alg", .string("RS256"))])),
                ("aud", .array([.string("a"), .integer(2)])),
                ("empty", .object([])),
                ("none", .array([])),
            ])
            let expected = """
                {
                  "valid": true,
                  "header": {
                    "alg": "RS256"
                  },
                  "aud": [
                    "a",
                    2
                  ],
                  "empty": {},
                  "none": []
                }
                """
            #expect(json.serialized(pretty: true) == expected)
            #expect(JSONOutput.string("x").serialized(pretty: true) == #""x""#)
        }

        @Test func roundTripKeepsOrderAndExactNumbers() throws {
            let source = #"""
                { "z" : 1 , "a" : [ 1.50 , -0 , 1e3, 123456789012345678901234567890 ] ,
                  "m" : { "\u0061" : "\u00e9\n\/" , "b" : null , "c" : false } }
                """#
            let document = try JSONDocument(text: source)
            let expected = #"{"z":1,"a":[1.50,-0,1e3,123456789012345678901234567890],"m":{"a":"é\n/","b":null,"c":false}}"#
            #expect(document.root.output.serialized() == expected)
            #expect(JSONOutput.raw(document.root).serialized() == expected)
            #expect(JSONOutput.object([("wrapped", .raw(try #require(document.root["m"])))]).serialized() == #"{"wrapped":{"a":"é\n/","b":null,"c":false}}"#)
            // Output parses back to the same output.
            let again = try JSONDocument(text: expected)
            #expect(again.root.output.serialized() == expected)
            #expect(again.root.output.serialized(pretty: true) == document.root.output.serialized(pretty: true))
            #expect(JSONOutput.raw(document.root).serialized(pretty: true) == document.root.output.serialized(pretty: true))
        }

        @Test func rawScalars() throws {
            let root = try JSONDocument(text: #"["a\"b",true,null,-1.25e-3]"#).root
            let elements = try #require(root.elements.map(Array.init))
            #expect(elements.map { JSONOutput.raw($0).serialized() } == [#""a\"b""#, "true", "null", "-1.25e-3"])
            #expect(elements.map { $0.output.serialized() } == [#""a\"b""#, "true", "null", "-1.25e-3"])
        }
    }
}
