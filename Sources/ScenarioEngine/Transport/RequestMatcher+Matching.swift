import Foundation
import HTTPCore

/// A request being matched against the exchanges: its body is parsed as JSON at most once,
/// however many exchanges look at it.
final class MatchCandidate {
    let request: HTTPRequest
    private(set) lazy var json: JSONValue? = request.body.flatMap(JSONValue.parse)

    init(_ request: HTTPRequest) { self.request = request }
}

extension RequestMatcher {
    /// Whether the candidate's request meets every rule this matcher sets.
    func matches(_ candidate: MatchCandidate) -> Bool {
        let request = candidate.request
        if let method, method != request.method { return false }
        if let path, !path.matches(request.path) { return false }
        for (name, value) in query where !request.query.contains(where: { $0.name == name && ($0.value ?? "") == value }) {
            return false
        }
        for field in headers where request.headers[field.name] != field.value {
            return false
        }
        switch body {
        case nil: return true
        case .text(let text)?: return String(decoding: request.body ?? Data(), as: UTF8.self) == text
        case .jsonSubset(let expected)?:
            guard let actual = candidate.json else { return false }
            return JSONMatch.mismatches(expected: expected, actual: actual).isEmpty
        }
    }
}

extension PathRule {
    /// Whether the path meets the rule; patterns take `{name}` for one segment and a final `*`.
    package func matches(_ path: String) -> Bool {
        switch self {
        case .exact(let exact): return exact == path
        case .pattern(let pattern):
            let want = pattern.split(separator: "/", omittingEmptySubsequences: false)
            let have = path.split(separator: "/", omittingEmptySubsequences: false)
            for (index, part) in want.enumerated() {
                if part == "*", index == want.count - 1 { return have.count >= index }
                guard index < have.count else { return false }
                if part.hasPrefix("{"), part.hasSuffix("}") {
                    if have[index].isEmpty { return false }
                } else if part != have[index] {
                    return false
                }
            }
            return want.count == have.count
        }
    }
}
