import Foundation
import HTTPCore

/// Checks on the driver's alerts and timeline.
extension InvariantChecker {
    static func alertAtMost(
        _ record: RunRecord, _ events: Events, _ alert: JSONValue, _ max: Int, _ sessions: SessionSpec, _ cause: AnswerMatcher?,
        _ required: Bool, _ fail: Fail
    ) {
        let shown = record.alerts.count { JSONMatch.mismatches(expected: alert, actual: $0).isEmpty }
        var tracker = SessionTracker(sessions)
        // Sessions one of whose requests got a cause while they lasted, and those causes.
        var due: Set<Int> = []
        var causes: [Int] = []
        // Causes that came after their request's session had ended: they make nothing due.
        var late: [(request: Int, status: Int, session: Int, current: Int)] = []
        for event in events.all {
            switch event {
            case .sent(let request):
                tracker.sent(request)
            case .answered(let request, let answer):
                if let cause, cause.matches(request.request, answer) {
                    let session = tracker.session(of: request.number)
                    if session == tracker.current {
                        due.insert(session)
                        causes.append(request.number)
                    } else {
                        late.append((request.number, answer.status ?? 0, session, tracker.current))
                    }
                }
                tracker.answered(request, answer)
            }
        }
        let count = tracker.current + 1
        let allowed = max * (cause == nil ? count : due.count)
        let what = alert["title"]?.stringValue.map { "'\($0)'" } ?? alert.compactText
        if required, shown < due.count {
            fail(
                "the alert \(what) was shown \(shown) time(s), but \(due.count) session(s) got an answer that causes it (\(list(causes)))",
                causes, [])
            return
        }
        guard shown > allowed else { return }
        guard cause != nil else {
            fail("the alert \(what) was shown \(shown) time(s) in \(count) session(s), at most \(max) per session", [], [])
            return
        }
        var why =
            causes.isEmpty
            ? "no answer to a request of a session under way caused it"
            : "answers that cause it (\(list(causes))) came in \(due.count) of \(count) session(s)"
        for stale in late.prefix(3) {
            why +=
                "; the \(stale.status) to #\(stale.request), a request of \(tracker.describe(stale.session)), came when \(tracker.describe(stale.current)) was under way, and an answer of an ended session makes nothing due"
        }
        let involved = causes + late.map(\.request) + Set(late.compactMap { tracker.start(of: $0.current) }).sorted()
        fail("the alert \(what) was shown \(shown) time(s), at most \(allowed) allowed: \(why)", involved, [])
    }

    static func timeline(_ values: [JSONValue], _ initial: [String]?, _ transitions: [String: [String]], _ fail: Fail) {
        let states = values.map { $0.stringValue ?? $0.compactText }
        if let first = states.first, let initial, !initial.contains(first) {
            fail("the timeline starts at '\(first)'; it may start at \(initial.map { "'\($0)'" }.joined(separator: ", "))", [], [])
        }
        for (from, to) in zip(states, states.dropFirst()) where !(transitions[from] ?? []).contains(to) {
            let allowed = (transitions[from] ?? []).map { "'\($0)'" }.joined(separator: ", ")
            fail(
                "the timeline moves from '\(from)' to '\(to)' (\(states.joined(separator: " → "))); from '\(from)' it may move to \(allowed.isEmpty ? "nothing" : allowed)",
                [], [])
            return
        }
    }
}
