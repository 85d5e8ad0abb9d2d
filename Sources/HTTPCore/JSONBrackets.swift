/// How a JSON text's arrays and objects open and close, found without parsing it: brackets inside
/// strings do not count, and the text need not be valid JSON.
///
/// Parsers stop (or, Foundation's, trap) past a nesting limit, so a text must be measured before
/// it reaches one, and a text too deep to parse can still be told whole from cut short.
public enum JSONBrackets {
    /// The deepest nesting of `bytes` (the scan stops once it passes `limit`), and whether every
    /// bracket is closed by one of its own kind, in order.
    public static func scan(_ bytes: some Sequence<UInt8>, stoppingAbove limit: Int = .max) -> (deepest: Int, closesEvery: Bool) {
        var open: [UInt8] = []
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                open.append(byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}"))
                deepest = max(deepest, open.count)
                if deepest > limit { return (deepest, false) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard open.popLast() == byte else { return (deepest, false) }
            default: break
            }
        }
        return (deepest, open.isEmpty && !inString)
    }
}
