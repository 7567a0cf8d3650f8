import Foundation
import Testing
import TouchdScene

/// The strict command decoder (issue #20, hostile clients): StrictJSON's grammar and positions,
/// and CommandFields' types, each error naming its field or column.
@Suite("Strict command decoding")
struct CommandDecodingTests {
  /// The error a line gets, or nil when it parses.
  private func syntaxError(_ bytes: [UInt8]) -> String? {
    do {
      _ = try StrictJSON.parse(bytes)
      return nil
    } catch {
      return error.description
    }
  }

  private func syntaxError(_ text: String) -> String? { syntaxError(Array(text.utf8)) }

  /// The error `SceneCommand.parse(json:)` gives, or nil.
  private func commandError(_ json: String) -> String? {
    do {
      _ = try SceneCommand.parse(json: json)
      return nil
    } catch {
      return error.message
    }
  }

  @Test("Valid JSON parses; numbers keep their text, objects their order and duplicates")
  func validJSON() throws {
    let value = try StrictJSON.parse(
      #" {"b":[1,-0.50,2E+3,true,false,null],"a":{"x":"\u00e9\ud83d\ude00\n\"\\\/"},"b":{}} "#)
    #expect(
      value
        == .object([
          .init(
            key: "b",
            value: .array([.number("1"), .number("-0.50"), .number("2E+3"), .bool(true), .bool(false), .null])),
          .init(key: "a", value: .object([.init(key: "x", value: .string("é😀\n\"\\/"))])),
          .init(key: "b", value: .object([])),
        ]))
    #expect(value.compact == #"{"b":[1,-0.50,2E+3,true,false,null],"a":{"x":"é😀\n\"\\/"},"b":{}}"#)
    #expect(try StrictJSON.parse("\"\\u0000\"") == .string("\u{0}"), "an escaped NUL is a valid string")
    #expect(try StrictJSON.parse("[[]]") == .array([.array([])]))
    #expect(try StrictJSON.parse("1e400").numberValue == .infinity)
  }

  @Test("Malformed JSON is reported at its column, counted in bytes from 1")
  func syntaxErrorsNameTheColumn() {
    #expect(syntaxError("") == "at column 1: empty line, expected a JSON value")
    #expect(syntaxError(#"{"cmd" "ping"}"#) == #"at column 8: unexpected '"', expected ':' after the key "cmd""#)
    #expect(syntaxError(#"{"a":1,}"#) == "at column 8: unexpected '}', expected a key in double quotes")
    #expect(syntaxError("[1,2") == "at column 5: unexpected end of the line, expected ',' or ']'")
    #expect(syntaxError("[1 2]") == "at column 4: unexpected '2', expected ',' or ']'")
    #expect(syntaxError("{} x") == "at column 4: unexpected 'x' after the JSON value")
    #expect(syntaxError("[tru]") == "at column 5: unexpected ']', expected true")
    #expect(syntaxError("[NaN]") == "at column 2: unexpected 'N', expected a value")
    #expect(syntaxError("[01]") == "at column 3: a number must not start with 0 (found a digit after it)")
    #expect(syntaxError("[1.]") == "at column 4: unexpected ']', expected a digit after the decimal point")
    #expect(syntaxError("[1e]") == "at column 4: unexpected ']', expected a digit in the exponent")
    #expect(syntaxError("[-]") == "at column 3: unexpected ']', expected a digit in the number")
    #expect(
      syntaxError(#"["abc"#) == "at column 6: unexpected end of the line, the string opened at column 2 is not closed")
    #expect(syntaxError(#"["\q"]"#) == #"at column 3: invalid escape \q in a string"#)
    #expect(syntaxError(#"["\u12G4"]"#) == "at column 7: unexpected 'G', a \\u escape needs four hex digits")
    #expect(
      syntaxError(#"["\ud800"]"#)
        == "at column 3: \\u escape of a lone surrogate (a high surrogate needs a low one after it)")
    #expect(
      syntaxError(#"["\udc00"]"#) == "at column 3: \\u escape of a lone surrogate (a low surrogate without a high one)")
    #expect(
      syntaxError(#"["\ud800\u0041"]"#)
        == "at column 9: \\u escape of a lone surrogate (expected a low surrogate \\uDC00-\\uDFFF)")
    #expect(syntaxError("{\"a\":1}\u{1}") == "at column 8: unexpected byte 0x01 after the JSON value")
  }

  @Test("Invalid UTF-8 and NUL bytes are errors at their byte, never repaired")
  func invalidUTF8AndNUL() {
    let quote = UInt8(ascii: "\"")
    #expect(syntaxError([quote, 0xFF, quote]) == "at column 2: invalid UTF-8 (byte 0xFF)")
    #expect(syntaxError([quote, 0xC0, 0x80, quote]) == "at column 2: invalid UTF-8 (byte 0xC0)", "overlong NUL")
    #expect(syntaxError([quote, 0xED, 0xA0, 0x80, quote]) == "at column 3: invalid UTF-8 (byte 0xA0)", "a surrogate")
    #expect(syntaxError([quote, 0xF4, 0x90, 0x80, 0x80, quote]) == "at column 3: invalid UTF-8 (byte 0x90)")
    #expect(syntaxError([quote, 0xE2, 0x82, quote]) == "at column 4: invalid UTF-8 (byte 0x22)", "cut short")
    #expect(
      syntaxError([quote, 0xE2, 0x82]) == "at column 4: invalid UTF-8 (a character cut short by the end of the line)")
    #expect(
      syntaxError([quote, 0x61, 0x00, 0x62, quote])
        == "at column 3: control character U+0000 in a string (write it as an escape)")
    #expect(
      syntaxError([UInt8(ascii: "{"), 0x00, UInt8(ascii: "}")])
        == "at column 2: unexpected byte 0x00, expected a key in double quotes")
    #expect(
      syntaxError([0xEF, 0xBB, 0xBF, UInt8(ascii: "1")]) == "at column 1: unexpected byte 0xEF, expected a value")
    #expect(throws: Never.self) { try StrictJSON.parse([quote, 0xF0, 0x9F, 0x98, 0x80, quote]) }
  }

  @Test("100,000 levels of nesting stop at level 65 with an error, quickly and without recursion")
  func deepNesting() throws {
    let start = Date()
    let arrays = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(syntaxError(arrays) == "at column 65: nesting deeper than 64 levels")
    let objects = String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000)
    #expect(syntaxError(objects) == "at column 321: nesting deeper than 64 levels")
    let unclosed = String(repeating: "[", count: 100_000)
    #expect(syntaxError(unclosed) == "at column 65: nesting deeper than 64 levels")
    #expect(Date().timeIntervalSince(start) < 1)
    // 64 levels are fine, and survive the round trip.
    let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(try StrictJSON.parse(deepest).compact == deepest)
    let line = #"{"cmd":"ping","id":"# + arrays + "}"
    #expect(commandError(line) == "not JSON at column 83: nesting deeper than 64 levels")
  }

  @Test("A boolean field takes true or false only: 1, \"true\" and null are errors naming it")
  func booleans() throws {
    #expect(commandError(#"{"cmd":"set","view":"x","hidden":1}"#) == "'hidden' must be true or false, found 1")
    #expect(commandError(#"{"cmd":"set","view":"x","hidden":0}"#) == "'hidden' must be true or false, found 0")
    #expect(
      commandError(#"{"cmd":"set","view":"x","hidden":"true"}"#) == #"'hidden' must be true or false, found "true""#)
    #expect(commandError(#"{"cmd":"set","view":"x","hidden":null}"#) == "'hidden' must be true or false, found null")
    #expect(commandError(#"{"cmd":"ignoreInteraction","value":1}"#) == "'value' must be true or false, found 1")
    #expect(
      commandError(#"{"cmd":"set","view":"x","userInteractionEnabled":[true]}"#)
        == "'userInteractionEnabled' must be true or false, found an array")
    #expect(try SceneCommand.parse(json: #"{"cmd":"set","view":"x","hidden":true}"#) == .set(view: "x", hidden: true))
  }

  @Test("Numbers: finite; integers without a fraction; strings and booleans are not numbers")
  func numbers() throws {
    #expect(commandError(#"{"cmd":"set","view":"x","alpha":true}"#) == "'alpha' must be a number, found true")
    #expect(commandError(#"{"cmd":"set","view":"x","alpha":"0.5"}"#) == #"'alpha' must be a number, found "0.5""#)
    #expect(commandError(#"{"cmd":"set","view":"x","alpha":1e400}"#) == "'alpha' must be a finite number, found 1e400")
    #expect(
      commandError(#"{"cmd":"set","view":"x","value":-1e309}"#) == "'value' must be a finite number, found -1e309")
    #expect(
      commandError(#"{"cmd":"set","view":"x","selectedSegmentIndex":1.5}"#)
        == "'selectedSegmentIndex' must be an integer, found 1.5")
    #expect(
      commandError(#"{"cmd":"set","view":"x","selectedSegmentIndex":1e30}"#)
        == "'selectedSegmentIndex' must be an integer, found 1e30")
    #expect(
      commandError(#"{"cmd":"set","view":"x","selectedSegmentIndex":"2"}"#)
        == #"'selectedSegmentIndex' must be an integer, found "2""#)
    let integral = try SceneCommand.parse(json: #"{"cmd":"set","view":"x","selectedSegmentIndex":2.0}"#)
    #expect(integral == .set(view: "x", control: ControlChange(selectedSegmentIndex: 2)))
    let exponent = try SceneCommand.parse(json: #"{"cmd":"set","view":"x","selectedSegmentIndex":-1e0}"#)
    #expect(exponent == .set(view: "x", control: ControlChange(selectedSegmentIndex: -1)))
    #expect(
      try SceneCommand.parse(json: #"{"cmd":"set","view":"x","alpha":0.25,"value":-3}"#)
        == .set(view: "x", alpha: 0.25, control: ControlChange(value: -3)))
  }

  @Test("Nested objects: errors give the path, frame.width")
  func nestedPaths() {
    #expect(
      commandError(#"{"cmd":"set","view":"x","frame":{"x":0,"y":0,"width":"wide","height":1}}"#)
        == #"'frame.width' must be a number, found "wide""#)
    #expect(
      commandError(#"{"cmd":"set","view":"x","frame":{"x":0,"y":0,"width":1}}"#)
        == "missing field 'frame.height' (a number)")
    #expect(
      commandError(#"{"cmd":"set","view":"x","frame":{"x":0,"y":0,"width":1,"height":1,"depth":1}}"#)
        == "unknown field 'frame.depth' (frame takes x, y, width, height)")
    #expect(
      commandError(#"{"cmd":"set","view":"x","contentOffset":{"x":0,"y":0,"y":1}}"#)
        == "duplicate field 'contentOffset.y'")
    #expect(
      commandError(#"{"cmd":"set","view":"x","contentSize":{"width":1,"hieght":2}}"#)
        == "unknown field 'contentSize.hieght' (did you mean 'height'? contentSize takes width, height)")
    #expect(
      commandError(#"{"cmd":"set","view":"x","contentOffset":5}"#)
        == #"'contentOffset' must be an object {"x":..,"y":..}, found 5"#)
  }

  @Test("Unknown, missing and duplicate fields are errors naming the field")
  func unknownMissingDuplicate() {
    #expect(
      commandError(#"{"cmd":"ignoreInteraction","value":true,"depth":2}"#)
        == "unknown field 'depth' (ignoreInteraction takes value)")
    #expect(commandError(#"{"cmd":"ignoreInteraction"}"#) == "missing field 'value' (true or false)")
    #expect(
      commandError(#"{"cmd":"set"}"#) == "missing field 'view' (a string: the view id, or 'window' with a window id)")
    #expect(commandError(#"{"cmd":"set","view":7}"#) == "'view' must be a string, found 7")
    #expect(commandError(#"{"cmd":"set","view":"x","hidden":true,"hidden":false}"#) == "duplicate field 'hidden'")
    #expect(commandError(#"{"cmd":5}"#) == "'cmd' must be a string, found 5")
    #expect(commandError(#"{"cmd":"set","cmd":"set","view":"x"}"#) == "duplicate field 'cmd'")
    #expect(commandError(#""set""#) == #"a command must be a JSON object, found "set""#)
    // The unknown field comes first: a misspelt name explains the missing one.
    #expect(
      commandError(#"{"cmd":"set","vew":"x"}"#)
        == "unknown field 'vew' (did you mean 'view'? set takes view, hidden, alpha, userInteractionEnabled, frame, "
        + "contentOffset, zoomScale, zoomTo, animated, contentSize, scrollEnabled, enabled, selected, on, value, "
        + "selectedSegmentIndex, currentPage, "
        + "firstResponder)")
  }

  @Test("What a client sent is quoted at most 40 characters long: a message stays short")
  func longNamesAreCut() {
    let long = String(repeating: "a", count: 1000)
    let forty = String(repeating: "a", count: 40) + "…"
    #expect(
      commandError(#"{"cmd":"\#(long)"}"#)
        == "unknown command '\(forty)' (known: set, ignoreInteraction, update, announce, signature)")
    #expect(
      commandError(#"{"cmd":"ignoreInteraction","\#(long)":1}"#)
        == "unknown field '\(forty)' (ignoreInteraction takes value)")
    #expect(commandError(#"{"cmd":"set","view":"x","\#(long)":1,"\#(long)":2}"#) == "duplicate field '\(forty)'")
    #expect(
      commandError(#"{"cmd":"set","view":"x","hidden":"\#(long)"}"#)
        == "'hidden' must be true or false, found \"\(forty)\"")
    #expect(
      syntaxError(#"{"\#(long)" 1}"#) == #"at column 1005: unexpected '1', expected ':' after the key ""# + forty + "\""
    )
  }

  @Test("The id is any JSON value and comes back as written; failures before it is read have none")
  func ids() throws {
    let object = try CommandObject.parse(#"{"cmd":"ping","id":{"n":[1.50,2E3,-0],"s":"é\u0001"}}"#)
    #expect(object.idJSON == #"{"n":[1.50,2E3,-0],"s":"é\u0001"}"#)
    #expect(try CommandObject.parse(#"{"cmd":"ping"}"#).idJSON == "null")
    #expect(
      try CommandObject.parse(#"{"cmd":"ping","id":12345678901234567890123}"#).idJSON == "12345678901234567890123")
    do {
      _ = try CommandObject.parse(#"{"id":"a","cmd":false}"#)
      Issue.record("parsed")
    } catch {
      #expect(error.idJSON == #""a""#)
      #expect(error.error.message == "'cmd' must be a string, found false")
    }
    do {
      _ = try CommandObject.parse(#"{"id":"a","cmd":"ping""#)
      Issue.record("parsed")
    } catch {
      #expect(error.idJSON == "null")
    }
  }

  @Test("Everything the strict parser accepts, Foundation's parser accepts and reads alike")
  func agreesWithFoundation() throws {
    let documents = [
      #"{"cmd":"set","view":"door","frame":{"x":1,"y":2.5,"width":3e2,"height":4E-1},"hidden":false}"#,
      #"[1,-0,0.0,1e-7,"\u00e9\ud83d\ude00\t",null,true,{"":[]}]"#, #""\\\"\/\b\f\n\r\t""#,
      #"{"a":{"b":{"c":[[[{"d":-12.5e+3}]]]}}}"#,
    ]
    for document in documents {
      let strict = try StrictJSON.parse(document)
      func canonical(_ text: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        let data = try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
      }
      #expect(try canonical(document) == canonical(strict.compact), "\(document)")
    }
  }
}
