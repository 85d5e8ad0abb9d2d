import Foundation
import HTTPCore

/// Checks a finished run against invariants: a pure function of the invariants and the record.
package enum InvariantChecker {
    /// Every way the run broke the invariants, in invariant order; empty when it broke none.
    package static func check(_ invariants: [Invariant], _ record: RunRecord) -> [InvariantViolation] {
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
            case .refreshesOnlyForCurrent(let value, let refresh, let answerPath, let after):
                refreshesOnlyForCurrent(events, value, refresh, answerPath, after, fail)
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
            case .alertAtMost(let alert, let max, let sessions, let cause, let required):
                alertAtMost(record, events, alert, max, sessions, cause, required, fail)
            case .repeatsWithinSession(let requests, let after, let sessions):
                repeatsWithinSession(record, events, requests, after, sessions, fail)
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

    // MARK: - Helpers

    static func matches(_ matcher: RequestMatcher?, _ request: HTTPRequest) -> Bool {
        matcher.map { $0.matches(MatchCandidate(request)) } ?? true
    }

    static func happens(_ event: EventPattern, _ happened: Events.Event) -> Bool {
        switch (event, happened) {
        case (.sent(let matcher), .sent(let request)): matcher.matches(MatchCandidate(request.request))
        case (.answered(let matcher), .answered(let request, let answer)): matcher.matches(request.request, answer)
        default: false
        }
    }

    /// Method, target and body (JSON as a value, keys sorted): what makes two requests the same one.
    static func identity(_ request: HTTPRequest) -> String {
        let body = request.body ?? Data()
        let text = JSONValue.parse(body).map { $0.sortedKeys.compactText } ?? String(decoding: body, as: UTF8.self)
        return "\(request.method) \(request.target) \(text)"
    }

    static func list(_ numbers: [Int]) -> String {
        let shown = numbers.prefix(8).map { "#\($0)" }.joined(separator: ", ")
        return numbers.count > 8 ? shown + " and \(numbers.count - 8) more" : shown
    }

    static func ordinal(_ number: Int) -> String {
        switch number {
        case 1: "1st"
        case 2: "2nd"
        case 3: "3rd"
        default: "\(number)th"
        }
    }

    static func format(_ duration: Duration) -> String { VirtualClock.Instant.format(duration) }
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
    /// The value at `path` in a JSON body. The body is parsed only when it can hold one: every key
    /// the path names is then written in it, as it is or, in a body with a `\`, escaped.
    static func value(at path: String, inBody body: Data) -> JSONValue? {
        // Through the bytes, not `Data`'s iterator: answers are read for this over and over.
        if !body.withUnsafeBytes({ $0.contains(UInt8(ascii: "\\")) }) {
            for key in path.split(separator: ".") where Int(key) == nil {
                guard contains(Array(("\"" + key + "\"").utf8), in: body) else { return nil }
            }
        }
        return parse(body)?.at(path: path)
    }

    private static func contains(_ needle: [UInt8], in body: Data) -> Bool {
        body.withUnsafeBytes { raw in
            guard needle.count <= raw.count else { return false }
            for start in 0...(raw.count - needle.count) where raw[start] == needle[0] {
                if needle.indices.allSatisfy({ raw[start + $0] == needle[$0] }) { return true }
            }
            return false
        }
    }

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
