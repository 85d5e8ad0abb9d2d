import Foundation
import HTTPCore

/// Checks on the driver's alerts and timeline.
extension InvariantChecker {
    static func alertAtMost(
        _ record: RunRecord, _ events: Events, _ alert: JSONValue, _ max: Int, _ starts: [RequestMatcher], _ cause: AnswerMatcher?,
        _ required: Bool, _ fail: Fail
    ) {
        let shown = record.alerts.count { JSONMatch.mismatches(expected: alert, actual: $0).isEmpty }
        var needing: Set<Int> = []
        // Sessions begin at each sign-in answered 2xx; a request belongs to the session it was sent in.
        var session = 0
        var sessionOf: [Int: Int] = [:]
        var withCause: Set<Int> = []
        var causes: [Int] = []
        for event in events.all {
            switch event {
            case .sent(let request):
                sessionOf[request.number] = session
            case .answered(let request, let answer):
                if let cause, cause.matches(request.request, answer) {
                    withCause.insert(session)
                    withCause.insert(sessionOf[request.number] ?? session)
                    if sessionOf[request.number] == session { needing.insert(session) }
                    causes.append(request.number)
                }
                if starts.contains(where: { $0.matches(MatchCandidate(request.request)) }), let status = answer.status,
                    StatusSet.success.contains(status)
                {
                    session += 1
                }
            }
        }
        let sessions = session + 1
        let allowed = max * (cause == nil ? sessions : withCause.count)
        let what = alert["title"]?.stringValue.map { "'\($0)'" } ?? alert.compactText
        if required, shown < needing.count {
            fail(
                "the alert \(what) was shown \(shown) time(s), but \(needing.count) session(s) got an answer that causes it (\(list(causes)))",
                causes, [])
            return
        }
        guard shown > allowed else { return }
        if cause != nil {
            let why =
                causes.isEmpty
                ? "no answer caused it" : "answers that cause it (\(list(causes))) came in \(withCause.count) of \(sessions) session(s)"
            fail("the alert \(what) was shown \(shown) time(s), at most \(allowed) allowed: \(why)", causes, [])
        } else {
            fail("the alert \(what) was shown \(shown) time(s) in \(sessions) session(s), at most \(max) per session", [], [])
        }
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
