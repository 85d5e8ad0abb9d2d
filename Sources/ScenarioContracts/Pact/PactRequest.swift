import Foundation
import ScenarioEngine
import ScenarioTraces

/// An interaction's request in Pact v4 form: what the app sent, with a `ProviderState` generator
/// at each credential (`Bearer ${accessToken}`) and at a path pattern's parameters, and matchers
/// only where a value varies: the credentials (by type, or by their scheme's form) and those
/// path segments. Everything else is the exact value sent.
enum PactRequest {
    static func json(_ draft: PactExport.Draft, _ sent: HARLog.Request) -> JSONValue {
        let components = URLComponents(string: sent.url)
        var object: JSONObject = ["method": .string(sent.method), "path": .string(components?.percentEncodedPath ?? "/")]
        if let items = components?.queryItems, !items.isEmpty {
            var query = JSONObject()
            for item in items { query[item.name] = .array((query[item.name]?.arrayValue ?? []) + [.string(item.value ?? "")]) }
            object["query"] = .object(query)
        }
        if !sent.headers.isEmpty { object["headers"] = headers(sent.headers) }
        if let text = sent.body, !text.isEmpty {
            let contentType = sent.mimeType
            let json = contentType.map(MediaTypes.essence).map(MediaTypes.isJSON) == true ? JSONValue.parse(Data(text.utf8)) : nil
            object["body"] = body(content: json ?? .string(text), contentType: contentType, encoded: false)
        }
        var generators = JSONObject()
        var rules = JSONObject()
        for credential in draft.credentials {
            let generator: JSONValue = ["type": "ProviderState", "expression": .string(credential.expression)]
            switch credential.place {
            case .header(let name):
                generators["header"] = merged(generators["header"], name, generator)
                let prefix = credential.expression.components(separatedBy: "${").first ?? ""
                let form = "^" + NSRegularExpression.escapedPattern(for: prefix) + ".+$"
                rules["header"] = merged(rules["header"], name, PactMatchers.regex(form))
            case .body(let path):
                generators["body"] = merged(generators["body"], path, generator)
                rules["body"] = merged(rules["body"], path, PactMatchers.rule(["match": "type"]))
            case .query(let name):
                generators["query"] = merged(generators["query"], name, generator)
                rules["query"] = merged(rules["query"], name, PactMatchers.rule(["match": "type"]))
            }
        }
        if let pattern = draft.pattern {
            let regex =
                "^"
                + pattern.split(separator: "/", omittingEmptySubsequences: false).map { part in
                    part.hasPrefix("{") ? "[^/]+" : NSRegularExpression.escapedPattern(for: String(part))
                }.joined(separator: "/") + "$"
            rules["path"] = PactMatchers.regex(regex)
            generators["path"] = ["type": "ProviderState", "expression": .string(pattern.replacingOccurrences(of: "{", with: "${"))]
        }
        if !rules.isEmpty { object["matchingRules"] = .object(rules) }
        if !generators.isEmpty { object["generators"] = .object(generators) }
        return .object(object)
    }

    private static func merged(_ existing: JSONValue?, _ key: String, _ value: JSONValue) -> JSONValue {
        var object = existing?.objectValue ?? JSONObject()
        object[key] = value
        return .object(object)
    }

    /// Header values as lists, as v4 writes them (a repeated header keeps every value).
    static func headers(_ fields: [HARLog.Field]) -> JSONValue {
        var object = JSONObject()
        for field in fields { object[field.name] = .array((object[field.name]?.arrayValue ?? []) + [.string(field.value)]) }
        return .object(object)
    }

    /// A v4 body: its content type only when the message said one.
    static func body(content: JSONValue, contentType: String?, encoded: Bool) -> JSONValue {
        var object: JSONObject = [
            "content": content, "contentTypeHint": .string(encoded ? "BINARY" : "TEXT"), "encoded": encoded ? "base64" : false,
        ]
        if let contentType { object["contentType"] = .string(contentType) }
        return .object(object)
    }
}
