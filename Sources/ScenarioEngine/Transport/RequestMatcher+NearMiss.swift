import Foundation
import HTTPCore

extension RequestMatcher {
    /// Every rule of this matcher the candidate's request breaks, each as one short phrase:
    /// what the exchange wants and what the request has.
    func differences(_ candidate: MatchCandidate) -> [String] {
        let request = candidate.request
        var out: [String] = []
        if let method, method != request.method { out.append("method: wants \(method), got \(request.method)") }
        if let path, !path.matches(request.path) { out.append("path: wants \(path.text), got \(request.path)") }
        for (name, value) in query where !request.query.contains(where: { $0.name == name && ($0.value ?? "") == value }) {
            let have = request.query.first { $0.name == name }.map { "'\($0.value ?? "")'" } ?? "none"
            out.append("query \(name): wants '\(value)', got \(have)")
        }
        for field in headers where request.headers[field.name] != field.value {
            let have = request.headers[field.name].map { "'\($0)'" } ?? "none"
            out.append("header \(field.name): wants '\(field.value)', got \(have)")
        }
        switch body {
        case nil: break
        case .text(let text)?:
            if String(decoding: request.body ?? Data(), as: UTF8.self) != text { out.append("body: wants the exchange's text") }
        case .jsonSubset(let expected)?:
            if let actual = candidate.json {
                out += JSONMatch.mismatches(expected: expected, actual: actual).prefix(3).map {
                    "JSON body at $\($0.path): wants \($0.expected), got \($0.actual)"
                }
            } else {
                out.append("body: wants JSON, got none or not JSON")
            }
        }
        return out
    }
}

extension PathRule {
    /// The path or pattern as written.
    var text: String {
        switch self {
        case .exact(let path), .pattern(let path): path
        }
    }
}

extension ScriptedBackend {
    /// The exchanges closest to an unmatched request (fewest differences, at most three, in
    /// declaration order on ties) and what differs for each, the way WireMock answers a request
    /// no stub matches.
    static func nearMisses(
        _ candidate: MatchCandidate, exchanges: [Exchange], uses: [Int]
    ) -> String {
        let ranked = exchanges.indices.map { index -> (index: Int, differences: [String]) in
            let exchange = exchanges[index]
            var differences = exchange.request.differences(candidate)
            if let times = exchange.times, uses[index] >= times {
                differences.append("times used up (served \(uses[index]) of \(times))")
            }
            for id in exchange.after {
                if let other = exchanges.firstIndex(where: { $0.id == id }), uses[other] == 0 {
                    differences.append("after: waits for '\(id)', not served yet")
                }
            }
            return (index, differences)
        }
        let nearest = ranked.filter { !$0.differences.isEmpty }.sorted {
            ($0.differences.count, $0.index) < ($1.differences.count, $1.index)
        }
        .prefix(3)
        guard !nearest.isEmpty else { return "" }
        return "; nearest: "
            + nearest.map { "'\(exchanges[$0.index].id)' (\($0.differences.joined(separator: "; ")))" }.joined(separator: ", ")
    }
}
