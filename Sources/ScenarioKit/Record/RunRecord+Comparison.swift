import Foundation
import HTTPCore

/// Whether two runs did the same thing: every event, whole, in order. JSON bodies are compared
/// as values (object keys in any order, numbers by value), since `JSONEncoder` promises no key
/// order; everything else byte for byte. What `--repeat` and every "same transcript" check ask.
extension RunRecord {
    /// The index of the first event where `other` differs from this record (a missing event
    /// counts as differing), or `nil` when both did the same thing.
    package func firstDifference(from other: RunRecord) -> Int? {
        let shared = min(events.count, other.events.count)
        for index in 0..<shared where !events[index].isSame(as: other.events[index]) { return index }
        return events.count == other.events.count ? nil : shared
    }
}

extension RunEvent {
    /// Whether `other` is the same event: same request, time, exchange and kind, bodies
    /// compared as ``sameBody(_:_:)`` says.
    func isSame(as other: RunEvent) -> Bool {
        guard number == other.number, at == other.at, exchange == other.exchange else { return false }
        switch (kind, other.kind) {
        case (.sent(let one), .sent(let two)):
            return one.method == two.method && one.target == two.target && one.headers == two.headers
                && Self.sameBody(one.body ?? Data(), two.body ?? Data())
        case (.answered(.response(let one)), .answered(.response(let two))):
            return one.status == two.status && one.headers == two.headers && Self.sameBody(one.body, two.body)
        case (.answered(.fault(let one)), .answered(.fault(let two))): return one == two
        case (.unmatched(let one), .unmatched(let two)): return one == two
        case (.held(let one), .held(let two)): return one == two
        case (.late(let one), .late(let two)): return one == two
        case (.timedOut(let one), .timedOut(let two)): return one == two
        case (.escaped(let one), .escaped(let two)): return one == two
        case (.released, .released), (.cancelledByApp, .cancelledByApp), (.unansweredAtEnd, .unansweredAtEnd),
            (.runOver, .runOver), (.refusedAfterEnd, .refusedAfterEnd):
            return true
        default: return false
        }
    }

    /// Equal bytes, or both JSON and equal as values.
    static func sameBody(_ one: Data, _ two: Data) -> Bool {
        if one == two { return true }
        guard let first = JSONValue.parse(one), let second = JSONValue.parse(two) else { return false }
        return first == second
    }
}
