import ScenarioEngine

/// Explicit keys: `? key` with its `: value` on the next line at the same indentation, as
/// emitters write a key too long for the simple form (PyYAML: over 128 characters; Twilio's
/// document has two). The key is a scalar, plain (over several lines, folded) or quoted; a
/// collection as a key, or an explicit key with no `: value`, is refused by name.
extension YAMLReader.Scanner {
    /// Reads `? key` at `indent` and leaves the cursor on the `:` of its value.
    mutating func readExplicitKey(indent: Int) throws(LoadIssue) -> DocumentTree.Node {
        let question = offset
        offset += 1  // the '?'
        skipBlanks()
        if atEnd || Self.isBreak(peek()) || peek() == UInt8(ascii: "#") {
            throw issue("an explicit key ('? ') with no key on its line is not supported", at: question, hint: "write '? key' on one line")
        }
        switch peek() {
        case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "-"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "*"),
            UInt8(ascii: "&"), UInt8(ascii: "!"):
            throw issue("only a plain or quoted text can be an explicit key here; got \(describe(peek()))", at: offset)
        default:
            break
        }
        let scalar = try readScalarStart(flow: false)
        if scalar.isKey { throw issue("a mapping as a key is not supported", at: offset) }
        let value = try finishScalar(scalar, parentIndent: indent, properties: nil)
        let key: DocumentTree.Node
        if tree.kind(value) == .string {
            key = value
        } else if let range = scalar.range {
            // Keys are text: `? 200` is the key "200", as `200:` is.
            key = addRawString(range, at: scalar.start)
        } else {
            key = addString(scalar.text ?? "", at: scalar.start)
        }
        guard nextIndent == indent, peek() == UInt8(ascii: ":"), Self.isSeparator(peek(1)) else {
            throw issue(
                "the explicit key ('? ') needs its ': value' on the next line, at the key's indentation", at: question,
                hint: "write ': value' under the '?'")
        }
        return key
    }
}
