import Foundation
import HTTPCore

/// Checks a finished run against invariants: a pure function of the invariants and the record.
public enum InvariantChecker {
    /// Every way the run broke the invariants, in invariant order; empty when it broke none.
    public static func check(_ invariants: [Invariant], _ record: RunRecord) -> [InvariantViolation] {
        let events = Events(record)
        return invariants.flatMap { invariant -> [InvariantViolation] in
            var found: [InvariantViolation] = []
            func fail(_ message: String, requests: [Int] = [], quoted: [String] = []) {
                found.append(InvariantViolation(invariant: invariant.id, message: message, requests: requests, quoted: quoted))
            }
            switch invariant.rule {
            case .neverSentTwice(let requests, let value):
                neverSentTwice(record, requests, value, fail)
            case .notAfterReplaced(let value, let replacedBy, let answerPath):
                notAfterReplaced(events, value, replacedBy, answerPath, fail)
            case .noneAfter(let after, let until, let requests, let carrying):
                noneAfter(events, after, until, requests, carrying, fail)
            case .maxInFlight(let requests, let max):
                maxInFlight(events, requests, max, fail)
            case .maxRepeats(let requests, let max, let after):
                maxRepeats(events, requests, max, after, fail)
            case .respectsRetryAfter(let requests, let statuses):
                respectsRetryAfter(events, record.clockStart, requests, statuses, fail)
            case .reportsRetryAfter(let statuses, let field):
                reportsRetryAfter(record, events, statuses, field, fail)
            case .alertAtMost(let alert, let max, let starts, let cause, let required):
                alertAtMost(record, events, alert, max, starts, cause, required, fail)
            case .timeline(let initial, let transitions):
                timeline(record.timeline, initial, transitions, fail)
            }
            return found
        }
    }

    typealias Fail = (String, [Int], [String]) -> Void

    /// Sends and answers merged in the order they happened.
    struct Events {
        enum Event {
            case sent(RunRecord.Request)
            case answered(RunRecord.Request, RunRecord.Answer)
        }
        let all: [Event]

        init(_ record: RunRecord) {
            var list: [(Int, Event)] = []
            for request in record.requests {
                list.append((request.order, .sent(request)))
                if let answer = request.answer { list.append((answer.order, .answered(request, answer))) }
            }
            all = list.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    // MARK: - Rules

    private static func neverSentTwice(
        _ record: RunRecord, _ requests: RequestMatcher?, _ value: ValueReference, _ fail: (String, [Int], [String]) -> Void
    ) {
        var seen: [String: [Int]] = [:]
        var order: [String] = []
        for request in record.requests where matches(requests, request.request) {
            guard let found = value.read(from: request.request) else { continue }
            if seen[found] == nil { order.append(found) }
            seen[found, default: []].append(request.number)
        }
        for found in order {
            guard let numbers = seen[found], numbers.count > 1 else { continue }
            fail("\(numbers.count) requests carry the same \(value) '\(found)': \(list(numbers))", numbers, [found])
        }
    }

    private static func notAfterReplaced(
        _ events: Events, _ value: ValueReference, _ replacedBy: RequestMatcher?, _ answerPath: String, _ fail: Fail
    ) {
        var known: [String] = []
        var replaced: [String: Int] = [:]
        for event in events.all {
            switch event {
            case .sent(let request):
                guard let found = value.read(from: request.request) else { continue }
                if let by = replaced[found] {
                    fail(
                        "#\(request.number) carries \(value) '\(found)', which the answer to #\(by) had already replaced",
                        [request.number, by], [found])
                } else if !known.contains(found) {
                    known.append(found)
                }
            case .answered(let request, let answer):
                guard matches(replacedBy, request.request), let status = answer.status, StatusSet.success.contains(status),
                    let json = JSONValue.parse(answer.body), let new = ValueReference.text(json.at(path: answerPath))
                else { continue }
                for old in known where old != new && replaced[old] == nil { replaced[old] = request.number }
                known = [new]
                replaced[new] = nil
            }
        }
    }

    private static func noneAfter(
        _ events: Events, _ after: [RunEvent], _ until: [RunEvent], _ requests: RequestMatcher?, _ carrying: ValueReference?,
        _ fail: Fail
    ) {
        var armedBy: Int?
        var reset = 0
        for event in events.all {
            if case .sent(let request) = event, let by = armedBy, matches(requests, request.request) {
                if let carrying {
                    if let found = carrying.read(from: request.request) {
                        fail(
                            "#\(request.number) \(request.request.method) \(request.request.path) carries \(carrying) after #\(by) ended the session",
                            [request.number, by], [found])
                    }
                } else {
                    fail(
                        "#\(request.number) \(request.request.method) \(request.request.path) was sent after #\(by)", [request.number, by],
                        [])
                }
            }
            if until.contains(where: { happens($0, event) }) {
                armedBy = nil
                if case .answered(_, let answer) = event {
                    reset = answer.order
                } else if case .sent(let request) = event {
                    reset = request.order
                }
            }
            if armedBy == nil, after.contains(where: { happens($0, event) }) {
                switch event {
                case .sent(let request): armedBy = request.number
                case .answered(let request, _) where request.order > reset: armedBy = request.number
                case .answered: break
                }
            }
        }
    }

    private static func maxInFlight(_ events: Events, _ requests: RequestMatcher?, _ max: Int, _ fail: Fail) {
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

    private static func maxRepeats(_ events: Events, _ requests: RequestMatcher?, _ max: Int, _ after: StatusSet, _ fail: Fail) {
        // Per identity, the chains whose last copy was refused and not repeated yet: (first number, repeats so far).
        var open: [String: [(first: Int, depth: Int)]] = [:]
        var chain: [Int: (first: Int, depth: Int)] = [:]
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
                chain[request.number] = link
                if link.depth > max {
                    fail(
                        "#\(request.number) \(request.request.method) \(request.request.path) repeats #\(link.first) for the \(ordinal(link.depth)) time (at most \(max))",
                        [link.first, request.number], [])
                }
            case .answered(let request, let answer):
                guard let link = chain[request.number], let status = answer.status, after.contains(status) else { continue }
                open[identity(request.request), default: []].append(link)
            }
        }
    }

    private static func respectsRetryAfter(
        _ events: Events, _ clockStart: Date, _ requests: RequestMatcher?, _ statuses: StatusSet, _ fail: Fail
    ) {
        var closed: [String: (until: Duration, by: Int, header: String)] = [:]
        for event in events.all {
            switch event {
            case .sent(let request):
                let route = "\(request.request.method) \(request.request.path)"
                guard matches(requests, request.request), let wait = closed[route], request.at < wait.until else { continue }
                fail(
                    "#\(request.number) \(route) was sent at \(VirtualClock.Instant(offset: request.at)), before the wait the answer to #\(wait.by) asked for (Retry-After: \(wait.header)) ended at \(VirtualClock.Instant(offset: wait.until))",
                    [wait.by, request.number], [])
            case .answered(let request, let answer):
                guard let status = answer.status, statuses.contains(status), let header = answer.headers[HTTPFields.Name.retryAfter],
                    let wait = RetryAfterValue.wait(header, at: clockStart.addingTimeInterval(answer.at.seconds))
                else { continue }
                closed["\(request.request.method) \(request.request.path)"] = (answer.at + wait, request.number, header)
            }
        }
    }

    private static func reportsRetryAfter(
        _ record: RunRecord, _ events: Events, _ statuses: StatusSet, _ field: String, _ fail: Fail
    ) {
        for action in record.actions {
            guard case .error(let error)? = action.result, let ended = action.ended else { continue }
            var last: (request: RunRecord.Request, answer: RunRecord.Answer)?
            for event in events.all {
                guard case .answered(let request, let answer) = event, answer.order > action.began, answer.order <= ended,
                    let status = answer.status, statuses.contains(status)
                else { continue }
                last = (request, answer)
            }
            guard let last, let header = last.answer.headers[HTTPFields.Name.retryAfter],
                let wait = RetryAfterValue.wait(header, at: record.clockStart.addingTimeInterval(last.answer.at.seconds))
            else { continue }
            let code = error["code"]?.stringValue ?? "?"
            guard let reported = error[field]?.numberValue else {
                fail(
                    "'\(action.name)' failed (\(code)) after the \(last.answer.status ?? 0) to #\(last.request.number) asked to wait \(format(wait)) (Retry-After: \(header)), but its error has no '\(field)'",
                    [last.request.number], [])
                continue
            }
            if abs(reported - wait.seconds) > 0.001 {
                fail(
                    "'\(action.name)' failed (\(code)) with \(field) \(JSONValue.number(reported).compactText) s after the \(last.answer.status ?? 0) to #\(last.request.number) asked to wait \(format(wait)) (Retry-After: \(header))",
                    [last.request.number], [])
            }
        }
    }

    private static func alertAtMost(
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

    private static func timeline(_ values: [JSONValue], _ initial: [String]?, _ transitions: [String: [String]], _ fail: Fail) {
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

    // MARK: - Helpers

    private static func matches(_ matcher: RequestMatcher?, _ request: HTTPRequest) -> Bool {
        matcher.map { $0.matches(MatchCandidate(request)) } ?? true
    }

    private static func happens(_ event: RunEvent, _ happened: Events.Event) -> Bool {
        switch (event, happened) {
        case (.sent(let matcher), .sent(let request)): matcher.matches(MatchCandidate(request.request))
        case (.answered(let matcher), .answered(let request, let answer)): matcher.matches(request.request, answer)
        default: false
        }
    }

    /// Method, target and body (JSON as a value, keys sorted): what makes two requests the same one.
    private static func identity(_ request: HTTPRequest) -> String {
        let body = request.body ?? Data()
        let text = JSONValue.parse(body).map { $0.sortedKeys.compactText } ?? String(decoding: body, as: UTF8.self)
        return "\(request.method) \(request.target) \(text)"
    }

    private static func list(_ numbers: [Int]) -> String {
        let shown = numbers.prefix(8).map { "#\($0)" }.joined(separator: ", ")
        return numbers.count > 8 ? shown + " and \(numbers.count - 8) more" : shown
    }

    private static func ordinal(_ number: Int) -> String {
        switch number {
        case 1: "1st"
        case 2: "2nd"
        case 3: "3rd"
        default: "\(number)th"
        }
    }

    private static func format(_ duration: Duration) -> String { VirtualClock.Instant.format(duration) }
}

extension AnswerMatcher {
    func matches(_ request: HTTPRequest, _ answer: RunRecord.Answer) -> Bool {
        if let matcher = self.request, !matcher.matches(MatchCandidate(request)) { return false }
        if let status, !(answer.status.map(status.contains) ?? false) { return false }
        if notRequest.contains(where: { $0.matches(MatchCandidate(request)) }) { return false }
        guard json != nil || !notJSON.isEmpty else { return true }
        let body = JSONValue.parse(answer.body)
        if let json, !(body.map { JSONMatch.mismatches(expected: json, actual: $0).isEmpty } ?? false) { return false }
        for excluded in notJSON where body.map({ JSONMatch.mismatches(expected: excluded, actual: $0).isEmpty }) ?? false {
            return false
        }
        return true
    }
}

extension ValueReference {
    /// The value in `request`, as text; `nil` when the request does not carry it.
    func read(from request: HTTPRequest) -> String? {
        switch self {
        case .header(let name, let scheme):
            guard let value = request.headers[name], !value.isEmpty else { return nil }
            if let scheme, value.lowercased().hasPrefix(scheme.lowercased() + " ") {
                return String(value.dropFirst(scheme.count + 1)).trimmingCharacters(in: .whitespaces)
            }
            return value
        case .json(let path):
            guard let body = request.body, let json = JSONValue.parse(body) else { return nil }
            return Self.text(json.at(path: path))
        case .form(let name):
            guard let body = request.body else { return nil }
            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (text: Substring) in
                    String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
                }
                if parts.count == 2, decode(parts[0]) == name { return decode(parts[1]) }
            }
            return nil
        case .query(let name):
            return request.query.first { $0.name == name }?.value
        }
    }

    static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .number?, .bool?: value?.compactText
        default: nil
        }
    }
}

extension JSONValue {
    /// The value at a dotted path (`data.refresh_token`, `items.0.id`).
    func at(path: String) -> JSONValue? {
        var current: JSONValue? = self
        for part in path.split(separator: ".") {
            switch current {
            case .object(let object)?: current = object[String(part)]
            case .array(let elements)?: current = Int(part).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            default: return nil
            }
        }
        return current
    }

    /// The same value with every object's keys sorted.
    var sortedKeys: JSONValue {
        switch self {
        case .array(let elements): .array(elements.map(\.sortedKeys))
        case .object(let object): .object(JSONObject(object.members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.sortedKeys) }))
        default: self
        }
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

/// `Retry-After` as RFC 9110 section 10.2.3 reads it: delta-seconds, or an HTTP-date (IMF-fixdate,
/// RFC 850 or asctime) whose wait is measured from the answer's wall time, rounded up to whole seconds.
enum RetryAfterValue {
    static func wait(_ header: String, at now: Date) -> Duration? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if text.allSatisfy({ ("0"..."9").contains($0) }) { return .seconds(Int(text) ?? Int.max) }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                let interval = date.timeIntervalSince(now)
                return interval > 0 ? .seconds(interval.rounded(.up)) : .zero
            }
        }
        return nil
    }
}
