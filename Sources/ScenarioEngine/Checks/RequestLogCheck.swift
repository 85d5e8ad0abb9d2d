import HTTPCore

/// Checks `expect.requests` against the log of requests the stack sent.
struct RequestLogCheck {
    let log: [RunRecord.Request]
    let exchanges: [Exchange]

    /// The name the log uses for requests nothing served.
    static let unmatched = "unmatched"

    /// `locate` finds where a check is written from its path (`requests.total`).
    func evaluate(_ expect: RequestExpectations, location locate: (String) -> ScenarioLocation?) -> [AssertionResult] {
        var out: [AssertionResult] = []
        let location = locate("requests.total")
        if let total = expect.total {
            out.append(
                total == log.count
                    ? AssertionResult(label: "requests.total", passed: true)
                    : AssertionResult(
                        label: "requests.total", passed: false, message: "expected \(total) request(s), the stack sent \(log.count)",
                        expected: "\(total)", actual: "\(log.count)\n" + shaped(like: []), location: location,
                        subjects: [FailureSubject(.expectation, "requests.total")]))
        }
        for (exchange, count) in expect.counts {
            let actual = log.count { ($0.exchange ?? Self.unmatched) == exchange }
            out.append(
                count == actual
                    ? AssertionResult(label: "requests.counts.\(exchange)", passed: true)
                    : AssertionResult(
                        label: "requests.counts.\(exchange)", passed: false,
                        message: "expected exchange '\(exchange)' to serve \(count) request(s), it served \(actual)",
                        expected: "\(count)", actual: "\(actual)", location: locate("requests.counts.\(exchange)"),
                        subjects: [FailureSubject(.expectation, "requests.counts.\(exchange)")]))
        }
        if let patterns = expect.log { out.append(checkLog(patterns, location: locate("requests.log"))) }
        return out
    }

    private func checkLog(_ patterns: [RequestLogPattern], location: ScenarioLocation?) -> AssertionResult {
        let expected = patterns.map(describe).joined(separator: "\n")
        let fail = { (message: String, at: ScenarioLocation?) in
            failure(message, expected, at ?? location, patterns: patterns)
        }
        var position = 0
        for (number, pattern) in patterns.enumerated() {
            for copy in 0..<pattern.count {
                guard position < log.count else {
                    return fail("the log ends after \(log.count) request(s); entry \(number + 1) expects more", pattern.location)
                }
                if let why = mismatch(pattern, log[position]) {
                    let which = pattern.count > 1 ? " (copy \(copy + 1) of \(pattern.count))" : ""
                    return fail("request #\(position + 1) does not fit log entry \(number + 1)\(which): \(why)", pattern.location)
                }
                position += 1
            }
        }
        guard position == log.count else {
            return fail("the log has \(log.count - position) request(s) more than the \(position) expected", nil)
        }
        return AssertionResult(label: "requests.log", passed: true)
    }

    private func failure(_ message: String, _ expected: String, _ location: ScenarioLocation?, patterns: [RequestLogPattern])
        -> AssertionResult
    {
        let actual = shaped(like: patterns)
        // The log's first misfit is what it saw: counts change as steps go, the misfit does not.
        return AssertionResult(
            label: "requests.log", passed: false, message: message, expected: expected, actual: actual,
            diff: TextDiff.lines(expected: expected, actual: actual), location: location,
            subjects: [FailureSubject(.expectation, "requests.log", observed: message)])
    }

    /// The log described with the same fields the patterns ask about, run by run, so the
    /// diff against the expected entries shows only real differences.
    private func shaped(like patterns: [RequestLogPattern]) -> String {
        var lines: [String] = []
        var position = 0
        for pattern in patterns {
            for _ in 0..<min(pattern.count, log.count - position) {
                lines.append(describe(log[position], like: pattern))
                position += 1
            }
        }
        let rest = RequestLogPattern(exchange: "", method: "", path: "")
        while position < log.count {
            lines.append(describe(log[position], like: rest))
            position += 1
        }
        return Self.collapse(lines)
    }

    /// One request, naming the fields `pattern` names, in the order ``describe(_:)`` uses.
    private func describe(_ entry: RunRecord.Request, like pattern: RequestLogPattern) -> String {
        var parts: [String] = []
        if pattern.method != nil { parts.append("\(entry.request.method)") }
        if pattern.path != nil { parts.append(entry.request.path) }
        if pattern.exchange != nil { parts.append("via \(entry.exchange ?? Self.unmatched)") }
        for (name, _) in pattern.headers { parts.append("\(name): \(entry.request.headers[name] ?? "absent")") }
        if let json = pattern.json {
            parts.append(JSONMatch.project(entry.request.body.flatMap(JSONValue.parse), onto: json).compactText)
        }
        return parts.isEmpty ? "any request" : parts.joined(separator: " ")
    }

    /// Consecutive equal lines as `N × line`.
    private static func collapse(_ lines: [String]) -> String {
        var runs: [(String, Int)] = []
        for line in lines {
            if let last = runs.last, last.0 == line { runs[runs.count - 1].1 += 1 } else { runs.append((line, 1)) }
        }
        return runs.map { $0.1 > 1 ? "\($0.1) × \($0.0)" : $0.0 }.joined(separator: "\n")
    }

    private func mismatch(_ pattern: RequestLogPattern, _ entry: RunRecord.Request) -> String? {
        let served = entry.exchange ?? Self.unmatched
        if let exchange = pattern.exchange, exchange != served { return "served by '\(served)', expected '\(exchange)'" }
        if let method = pattern.method, HTTPMethod(rawValue: method) != entry.request.method {
            return "method \(entry.request.method), expected \(method.uppercased())"
        }
        if let path = pattern.path, path != entry.request.path { return "path \(entry.request.path), expected \(path)" }
        for (name, value) in pattern.headers where entry.request.headers[name] != value {
            return
                "header \(name) is \(entry.request.headers[name].map { "'\($0)'" } ?? "absent"), expected \(value.map { "'\($0)'" } ?? "absent")"
        }
        if let json = pattern.json {
            let body = entry.request.body.flatMap(JSONValue.parse)
            let problems = JSONMatch.mismatches(expected: json, actual: body)
            if let first = problems.first { return "body\(first)" }
        }
        return nil
    }

    private func describe(_ pattern: RequestLogPattern) -> String {
        var parts: [String] = []
        if let method = pattern.method { parts.append(method.uppercased()) }
        if let path = pattern.path { parts.append(path) }
        if let exchange = pattern.exchange { parts.append("via \(exchange)") }
        for (name, value) in pattern.headers { parts.append("\(name): \(value ?? "absent")") }
        if let json = pattern.json { parts.append(json.compactText) }
        let text = parts.isEmpty ? "any request" : parts.joined(separator: " ")
        return pattern.count > 1 ? "\(pattern.count) × \(text)" : text
    }
}
