import Foundation
import HTTPCore
import ScenarioEngine

/// Which action a step of an imported trace calls, with what arguments.
extension TraceImporter {
    /// The action a step item becomes, and its arguments. A dedicated action is claimed only
    /// when it sends this request as captured: a JSON body with each argument as a string;
    /// otherwise the entry is a plain request.
    func call(_ item: Item, action: String, file: String, summary: inout Summary) throws(Failure) -> (
        action: String, arguments: JSONValue
    ) {
        if let dedicated = dedicatedCall(item) { return dedicated }
        if spec.actionRules.contains(where: { $0.endpoint.matches(method: item.entry.request.method, path: item.path) }) {
            summary.plainInsteadOfAction += 1
        }
        return (action, try requestArguments(item, file: file))
    }

    /// The dedicated action that sends `item` as captured, if one does.
    func dedicatedCall(_ item: Item) -> (action: String, arguments: JSONValue)? {
        let method = item.entry.request.method
        guard let rule = spec.actionRules.first(where: { $0.endpoint.matches(method: method, path: item.path) }) else { return nil }
        let body = item.entry.request.body.flatMap { JSONValue.parse(Data($0.utf8)) }
        var arguments = JSONObject()
        guard rule.arguments.isEmpty || body?.objectValue != nil else { return nil }
        for (argument, member) in rule.arguments.sorted(by: { $0.key < $1.key }) {
            guard let value = body?[member], case .string = value else { return nil }
            arguments[argument] = value
        }
        return (rule.action, .object(arguments))
    }

    private func requestArguments(_ item: Item, file: String) throws(Failure) -> JSONValue {
        var arguments: JSONObject = [:]
        if item.entry.request.method != "GET" { arguments[K.method] = .string(item.entry.request.method) }
        arguments[K.path] = .string(decodedPath(item.path))
        if let flag = spec.requestWithoutCredentials, item.entry.request.headers.first(named: "Authorization") == nil {
            arguments[flag] = false
        }
        if !item.query.isEmpty {
            var countedWithItsExchange = Summary()
            arguments[K.query] = queryObject(item.query, summary: &countedWithItsExchange)
        }
        if let body = item.entry.request.body, !body.isEmpty {
            let json: JSONValue?
            do {
                json = try JSONTextParser(data: Data(body.utf8), file: "").parseDocument().value
            } catch {
                // Too deep for the parser and whole (not cut short by the capture) is still JSON,
                // and still too deep for an argument.
                json = nil
                let brackets = JSONBrackets.scan(body.utf8)
                if brackets.deepest > JSONTextParser.maximumDepth, brackets.closesEvery {
                    throw tooDeep("more than \(JSONTextParser.maximumDepth)")
                }
            }
            if let json {
                guard json.depth <= Self.maximumBodyDepth else { throw tooDeep("\(json.depth)") }
                arguments[K.json] = json
            }
        }
        return .object(arguments)

        func tooDeep(_ levels: String) -> Failure {
            Failure(
                file: file, entry: item.entry, index: item.index, at: ".request.postData.text",
                "the request body nests \(levels) levels deep; a step's JSON argument may nest at most \(Self.maximumBodyDepth)",
                hint: "leave this entry out of the export, or flatten its body")
        }
    }
}

private typealias K = ScenarioKey
