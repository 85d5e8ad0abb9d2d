import HTTPCore
import ScenarioEngine

/// An exchange as written in its scenario file: the parsed node with every key's line and
/// column, so a finding points at the key it is about.
package struct ExchangeSource: Sendable {
    package let file: String
    package let node: JSONNode
    /// `$.exchanges[3]`.
    package let path: String

    package init(file: String, node: JSONNode, path: String) {
        self.file = file
        self.node = node
        self.path = path
    }

    /// The exchanges of a scenario paired with their nodes in `root` (the parsed file).
    package static func pairs(_ scenario: Scenario, root: JSONNode) -> [(Exchange, ExchangeSource)] {
        let nodes = root[K.exchanges]?.elements ?? []
        return zip(scenario.exchanges, nodes.indices).map { exchange, index in
            (exchange, ExchangeSource(file: scenario.file, node: nodes[index], path: JSONPath.appending("$.exchanges", index: index)))
        }
    }

    /// The node at `keys` below the exchange.
    package func node(_ keys: String...) -> JSONNode? {
        var current: JSONNode? = node
        for key in keys { current = current?[key] }
        return current
    }

    /// Where the key at `keys` is written (names compared ignoring case, as header names are);
    /// where its nearest written parent is when it is not.
    package func location(_ keys: String...) -> ScenarioLocation { location(keys) }

    package func location(_ keys: [String]) -> ScenarioLocation {
        var current = node
        var result = ScenarioLocation(file: file, line: node.line, column: node.column, path: path)
        for key in keys {
            guard let member = current.members?.first(where: { $0.key.caseInsensitiveCompare(key) == .orderedSame }) else { break }
            result = ScenarioLocation(
                file: file, line: member.keyLine, column: member.keyColumn, path: JSONPath.appending(result.path, key: member.key))
            current = member.value
        }
        return result
    }

    /// Where the key at `keys` is written, when it is (names compared ignoring case).
    package func written(_ keys: String...) -> ScenarioLocation? {
        var current = node
        for key in keys {
            guard let member = current.members?.first(where: { $0.key.caseInsensitiveCompare(key) == .orderedSame }) else { return nil }
            current = member.value
        }
        return location(keys)
    }

    /// A place inside the JSON value written under `keys` (a body): at `line`/`column` when the
    /// value has places of its own, at the key holding it when not; the path is the scenario's
    /// path to the value followed by `bodyPath` (`$.data.id`).
    package func location(in keys: [String], line: Int?, column: Int?, bodyPath: String) -> ScenarioLocation {
        var holder = location(keys)
        holder.path += bodyPath.dropFirst()
        guard let line, let column else { return holder }
        holder.line = line
        holder.column = column
        return holder
    }

    /// The reason given in `"verify": {"skip": ...}`, if any.
    package var skipReason: String? { node[K.verify]?[K.skip]?.value.stringValue }

    /// The response's body form (`json`, `text`, `file`, `base64`), if it has one.
    package var bodyKey: String? {
        ScenarioKeys.responseBodies.first { node[K.response]?[$0] != nil }
    }

    /// `GET /feed → 403`, as the exchange scripts it.
    package static func route(_ exchange: Exchange) -> String {
        let method = exchange.request.method?.rawValue ?? "any method"
        let path: String
        switch exchange.request.path {
        case .exact(let exact)?: path = exact
        case .pattern(let pattern)?: path = pattern
        case nil: path = "any path"
        }
        switch exchange.reply {
        case .response(let response): return "\(method) \(path) → \(response.status.code)"
        case .fault(let code): return "\(method) \(path) → fault \(code.rawValue)"
        }
    }
}

/// What checks scripted exchanges (an API document, captures): every exchange not left out is
/// handed to ``check(_:source:into:)``.
package protocol ExchangeVerifier: Sendable {
    /// Records what `exchange` (written at `source`) disagrees on, or could not be checked for.
    func check(_ exchange: Exchange, source: ExchangeSource, into verdict: inout ExchangeVerdict)
}

extension ExchangeVerifier {
    /// The verdict on every exchange of `scenario`, whose parsed file is `root`.
    package func verify(_ scenario: Scenario, root: JSONNode) -> ScenarioVerdict {
        let verdicts = ExchangeSource.pairs(scenario, root: root).map { exchange, source in
            var verdict = ExchangeVerdict(id: exchange.id, location: source.location(), route: ExchangeSource.route(exchange))
            verdict.skipReason = source.skipReason
            if verdict.skipReason == nil { check(exchange, source: source, into: &verdict) }
            return verdict
        }
        return ScenarioVerdict(id: scenario.id, name: scenario.name, location: scenario.location, exchanges: verdicts)
    }
}

private typealias K = ScenarioKey
