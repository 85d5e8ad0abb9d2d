/// Text from files and servers made safe to print: control characters, line and paragraph
/// separators and bidirectional overrides become visible `\u{…}` escapes, so a value cannot
/// clear the screen, move the cursor, or fake a `file:1:1: error:` line of its own.
package enum TerminalSafe {
    /// `text` with every character a terminal would act on escaped; `\n` stays when
    /// `keepingNewlines` (multi-line diffs), tabs always stay.
    package static func escape(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0, keepingNewlines: keepingNewlines) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar, keepingNewlines: keepingNewlines) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar, keepingNewlines: Bool) -> Bool {
        switch scalar.value {
        case 0x0A: return !keepingNewlines
        case 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }
}
