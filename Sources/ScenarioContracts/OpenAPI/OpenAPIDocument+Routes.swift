import Foundation
import ScenarioEngine

/// Which operation of the document an exchange's request matcher stands for.
package enum RouteMatch: Sendable {
    /// The operation, with the values an exact path gives its path parameters.
    case operation(OpenAPIOperation, pathValues: [String: String])
    /// The path is documented, for other methods.
    case methodNotDocumented(template: String, documented: [String], at: DocumentNode)
    /// No path template matches; the nearest, if one is close.
    case pathNotDocumented(nearest: String?)
    /// The matcher leaves so much open (no path, a final `*`) that no one operation stands for it.
    case tooBroad(String)
}

extension OpenAPIDocument {
    /// The operation for `method` on `path` (any method when `nil`).
    package func route(method: String?, path: PathRule?) -> RouteMatch {
        guard let path else { return .tooBroad("the exchange matches any path") }
        let text: String
        let pattern: Bool
        switch path {
        case .exact(let exact):
            text = exact
            pattern = false
        case .pattern(let written):
            if written.hasSuffix("*") { return .tooBroad("the exchange's path pattern \(written) ends in '*' and matches many routes") }
            text = written
            pattern = true
        }
        var candidates = matches(text, pattern: pattern)
        if candidates.isEmpty {
            for prefix in serverPrefixes where text.hasPrefix(prefix + "/") {
                candidates = matches(String(text.dropFirst(prefix.count)), pattern: pattern)
                if !candidates.isEmpty { break }
            }
        }
        guard !candidates.isEmpty else { return .pathNotDocumented(nearest: nearestTemplate(to: text)) }
        guard let method else { return .tooBroad("the exchange matches any method") }
        let forMethod = candidates.filter { operations[$0.index].method == method.uppercased() }
        guard let best = forMethod.max(by: { $0.literals < $1.literals }) else {
            let best = candidates.max { $0.literals < $1.literals }
            let template = best.map { operations[$0.index].template } ?? text
            let documented = operations.filter { $0.template == template }.map(\.method)
            return .methodNotDocumented(
                template: template, documented: documented, at: best.map { operations[$0.index].key } ?? root)
        }
        return .operation(operations[best.index], pathValues: best.values)
    }

    /// The template closest to `path`, segment by segment (a parameter takes any segment), when
    /// it is close enough to be a slip.
    private func nearestTemplate(to path: String) -> String? {
        let given = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        var best: (template: String, distance: Int)?
        for operation in operations where operation.segments.count == given.count {
            let distance = zip(operation.segments, given).reduce(0) { total, pair in
                if case .literal(let literal) = pair.0 { return total + Suggestion.distance(literal, pair.1) }
                return total
            }
            if distance > 0, distance <= max(2, path.count / 4), distance < (best?.distance ?? .max) {
                best = (operation.template, distance)
            }
        }
        return best?.template
    }

    /// The operations whose template matches: by index, how many literal segments matched (the
    /// most specific template wins, as OpenAPI says), and the path parameters' values.
    private func matches(_ path: String, pattern: Bool) -> [(index: Int, literals: Int, values: [String: String])] {
        let given = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        var found: [(index: Int, literals: Int, values: [String: String])] = []
        for (index, operation) in operations.enumerated() where operation.segments.count == given.count {
            var literals = 0
            var values: [String: String] = [:]
            var matched = true
            for (segment, part) in zip(operation.segments, given) {
                let open = pattern && part.hasPrefix("{") && part.hasSuffix("}")
                switch segment {
                case .literal(let literal):
                    if open || literal != part { matched = false } else { literals += 1 }
                case .parameter(let name, let prefix, let suffix):
                    if open {
                        if !prefix.isEmpty || !suffix.isEmpty { matched = false }
                    } else if part.count > prefix.count + suffix.count, part.hasPrefix(prefix), part.hasSuffix(suffix) {
                        let value = String(part.dropFirst(prefix.count).dropLast(suffix.count))
                        values[name] = value.removingPercentEncoding ?? value
                    } else {
                        matched = false
                    }
                }
                if !matched { break }
            }
            if matched { found.append((index, literals, values)) }
        }
        return found
    }
}
