import Foundation

/// How deeply a JSON text nests, found without parsing it.
///
/// Foundation's JSON scanner traps on some inputs nested past its own limit (a body whose 513th
/// opening bracket is its last byte ends the process), so nothing from a server reaches a
/// decoder before this check says it is shallow enough.
enum JSONNesting {
    /// The deepest nesting the stack accepts; real API bodies stay far below it.
    static let limit = 128

    /// Whether `data` opens more than `limit` arrays or objects inside each other. Brackets
    /// inside strings do not count; the text need not be valid JSON.
    static func isTooDeep(_ data: Data, limit: Int = limit) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in data {
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
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return false
    }
}
