import Foundation
import HTTPCore

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
        JSONBrackets.scan(data, stoppingAbove: limit).deepest > limit
    }
}
