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
        for index in 0..<shared where !events[index].isSame(as: other.events[index], in: self, and: other) { return index }
        return events.count == other.events.count ? nil : shared
    }
}

extension RunEvent {
    /// Whether `other` (of `theirs`) is the same event as this one (of `mine`): same request,
    /// time, exchange and kind, and the same request or answer, bodies compared as
    /// ``sameBody(_:_:)`` says.
    func isSame(as other: RunEvent, in mine: RunRecord, and theirs: RunRecord) -> Bool {
        guard number == other.number, at == other.at, exchange == other.exchange else { return false }
        switch (kind, other.kind) {
        case (.sent, .sent):
            guard let one = mine.request(number)?.request, let two = theirs.request(number)?.request else { return false }
            return one.method == two.method && one.target == two.target && one.headers == two.headers
                && Self.sameBody(one.body ?? Data(), two.body ?? Data())
        case (.answered, .answered):
            guard let one = mine.answer(to: number), let two = theirs.answer(to: number) else { return false }
            return one.status == two.status && one.fault == two.fault && one.headers == two.headers && Self.sameBody(one.body, two.body)
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
