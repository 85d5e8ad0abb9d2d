import Foundation
import HTTPCore

/// Checks on how requests overlap and repeat.
extension InvariantChecker {
    static func maxInFlight(_ events: Events, _ requests: RequestMatcher?, _ max: Int, _ fail: Fail) {
        var away: [Int] = []
        var reported = false
        for event in events.all {
            switch event {
            case .sent(let request):
                guard matches(requests, request.request) else { continue }
                away.append(request.number)
                if away.count > max, !reported {
                    fail("\(away.count) requests were away at once (at most \(max)): \(list(away))", away, [])
                    reported = true
                }
            case .answered(let request, _):
                away.removeAll { $0 == request.number }
                if away.count <= max { reported = false }
            }
        }
    }

    static func maxRepeats(_ events: Events, _ requests: RequestMatcher?, _ max: Int, _ after: StatusSet, _ fail: Fail) {
        // Per identity, the chains whose last copy was refused and not repeated yet: (first number, repeats so far).
        var open: [String: [(first: Int, depth: Int)]] = [:]
        var chain: [Int: (first: Int, depth: Int, key: String)] = [:]
        for event in events.all {
            switch event {
            case .sent(let request):
                guard matches(requests, request.request) else { continue }
                let key = identity(request.request)
                var link = (first: request.number, depth: 0)
                if var waiting = open[key], !waiting.isEmpty {
                    let previous = waiting.removeFirst()
                    open[key] = waiting
                    link = (previous.first, previous.depth + 1)
                }
                chain[request.number] = (link.first, link.depth, key)
                if link.depth > max {
                    fail(
                        "#\(request.number) \(request.request.method) \(request.request.path) repeats #\(link.first) for the \(ordinal(link.depth)) time (at most \(max))",
                        [link.first, request.number], [])
                }
            case .answered(let request, let answer):
                guard let link = chain[request.number], let status = answer.status, after.contains(status) else { continue }
                open[link.key, default: []].append((link.first, link.depth))
            }
        }
    }

    static func repeatsWithinSession(
        _ record: RunRecord, _ events: Events, _ requests: RequestMatcher?, _ after: StatusSet, _ sessions: SessionSpec, _ fail: Fail
    ) {
        struct Copy {
            /// What identical requests share (``identity(_:)``), worked out once when it is sent.
            var key: String
            var first: Int
            var session: Int
            var status: Int
            /// The actions that were running when the first copy left: its callers.
            var callers: [RunRecord.Action]
        }
        var tracker = SessionTracker(sessions)
        // Per identity, refused copies not repeated yet; a copy's first request and callers pass down its chain.
        var open: [String: [Copy]] = [:]
        var chain: [Int: Copy] = [:]
        for event in events.all {
            switch event {
            case .sent(let request):
                tracker.sent(request)
                guard matches(requests, request.request) else { continue }
                let key = identity(request.request)
                // Only a caller still waiting has its request repeated; a later identical request is a new call.
                open[key]?.removeAll { copy in !copy.callers.contains { $0.ended.map { $0 >= request.order } ?? true } }
                guard var copy = open[key]?.first else {
                    let callers = record.actions.filter { $0.began < request.order && ($0.ended.map { $0 >= request.order } ?? true) }
                    chain[request.number] = Copy(
                        key: key, first: request.number, session: tracker.session(of: request.number), status: 0, callers: callers)
                    continue
                }
                open[key]?.removeFirst()
                let what =
                    "#\(request.number) \(request.request.method) \(request.request.path) repeats #\(copy.first) (refused \(copy.status))"
                let session = tracker.session(of: request.number)
                let now = [copy.first, request.number] + (tracker.start(of: tracker.current).map { [$0] } ?? [])
                if session != copy.session {
                    fail(
                        "\(what) with a credential of \(tracker.describe(session)), but #\(copy.first) is a request of \(tracker.describe(copy.session))",
                        now, [])
                } else if tracker.current != copy.session {
                    fail(
                        "\(what) after its session ended: #\(copy.first) is a request of \(tracker.describe(copy.session)), and \(tracker.describe(tracker.current)) was under way",
                        now, [])
                }
                copy.status = 0
                chain[request.number] = copy
            case .answered(let request, let answer):
                tracker.answered(request, answer)
                guard var copy = chain[request.number], !copy.callers.isEmpty, let status = answer.status, after.contains(status) else {
                    continue
                }
                copy.status = status
                open[copy.key, default: []].append(copy)
            }
        }
    }
}
