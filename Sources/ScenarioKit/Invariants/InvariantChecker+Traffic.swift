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
}
