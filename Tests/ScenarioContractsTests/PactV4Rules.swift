import Foundation
import ScenarioTestSupport

@testable import ScenarioEngine

/// The rules of the Pact specification v4 (pact-foundation/pact-specification, branch version-4)
/// and of its published JSON schema, written as checks: the schema's licence is not stated in a
/// form that allows keeping a copy here. Each problem names the JSON path it is at.
enum PactV4Rules {
    static let interactionKeys: Set<String> = [
        "type", "description", "key", "providerStates", "pending", "comments", "pluginConfiguration", "interactionMarkup", "request",
        "response",
    ]
    static let requestKeys: Set<String> = ["method", "path", "query", "headers", "body", "matchingRules", "generators"]
    static let responseKeys: Set<String> = ["status", "headers", "body", "matchingRules", "generators"]
    static let bodyKeys: Set<String> = ["content", "contentType", "contentTypeHint", "encoded"]
    /// Each matcher of the specification's table, with the attributes it requires.
    static let matchers: [String: [String]] = [
        "equality": [], "regex": ["regex"], "type": [], "include": ["value"], "integer": [], "decimal": [], "number": [],
        "datetime": ["format"], "time": ["format"], "date": ["format"], "null": [], "boolean": [], "contentType": ["value"],
        "values": [], "arrayContains": ["variants"], "statusCode": ["status"], "notEmpty": [], "semver": [],
        "eachKey": ["rules", "value"], "eachValue": ["rules", "value"],
    ]
    static let generators: [String: [String]] = [
        "RandomInt": ["min", "max"], "RandomDecimal": ["digits"], "RandomHexadecimal": ["digits"], "RandomString": ["size"],
        "Regex": ["regex"], "Uuid": [], "Date": [], "Time": [], "DateTime": [], "RandomBoolean": [], "ProviderState": ["expression"],
        "MockServerURL": ["regex", "example"],
    ]

    static func problems(in pact: JSONValue) -> [String] {
        var problems: [String] = []
        func fail(_ path: String, _ message: String) { problems.append("\(path): \(message)") }
        for party in ["consumer", "provider"] where (pact[party]?["name"]?.stringValue ?? "").isEmpty {
            fail("$.\(party)", "needs a name")
        }
        if pact["metadata"]?["pactSpecification"]?["version"] != "4.0" { fail("$.metadata.pactSpecification.version", "must be \"4.0\"") }
        guard let interactions = pact["interactions"]?.arrayValue else {
            fail("$.interactions", "must be an array")
            return problems
        }
        var descriptions: Set<String> = []
        var keys: Set<String> = []
        for (index, interaction) in interactions.enumerated() {
            let path = "$.interactions[\(index)]"
            guard let object = interaction.objectValue else {
                fail(path, "must be an object")
                continue
            }
            for key in object.keys where !interactionKeys.contains(key) { fail(path, "unknown field '\(key)'") }
            if interaction["type"] != "Synchronous/HTTP" { fail(path + ".type", "must be Synchronous/HTTP") }
            guard let description = interaction["description"]?.stringValue, descriptions.insert(description).inserted else {
                fail(path + ".description", "must be a string unique in the file")
                continue
            }
            if let key = interaction["key"] {
                if key.stringValue.map({ keys.insert($0).inserted }) != true { fail(path + ".key", "must be a string unique in the file") }
            }
            for (stateIndex, state) in (interaction["providerStates"]?.arrayValue ?? []).enumerated() {
                if state["name"]?.stringValue == nil { fail(path + ".providerStates[\(stateIndex)]", "needs a name") }
                if let params = state["params"], params.objectValue == nil {
                    fail(path + ".providerStates[\(stateIndex)].params", "must be an object")
                }
            }
            if let comments = interaction["comments"] {
                if comments["testname"].map({ $0.stringValue != nil }) == false { fail(path + ".comments.testname", "must be a string") }
                if let text = comments["text"], text.arrayValue?.allSatisfy({ $0.stringValue != nil }) != true {
                    fail(path + ".comments.text", "must be strings")
                }
            }
            problems += check(request: interaction["request"], at: path + ".request")
            problems += check(response: interaction["response"], at: path + ".response")
        }
        return problems
    }

    static func check(request: JSONValue?, at path: String) -> [String] {
        guard let request, let object = request.objectValue else { return ["\(path): is required"] }
        var problems = object.keys.filter { !requestKeys.contains($0) }.map { "\(path): unknown field '\($0)'" }
        let method = request["method"]?.stringValue ?? ""
        if method.isEmpty || method != method.uppercased() || !method.allSatisfy({ $0.isLetter }) {
            problems.append("\(path).method: an HTTP method")
        }
        if !(request["path"]?.stringValue?.hasPrefix("/") ?? false) { problems.append("\(path).path: must start with /") }
        problems += stringLists(request["query"], at: path + ".query") + stringLists(request["headers"], at: path + ".headers")
        problems +=
            check(body: request["body"], at: path + ".body") + check(rules: request["matchingRules"], body: request["body"], at: path)
        if let declared = request["generators"] {
            for (category, value) in declared.objectValue ?? JSONObject() {
                // pact_verifier reads header generators under "header", as matching rules name them
                // (measured: it injects `Bearer ${accessToken}` from there); "headers" is read too.
                guard ["body", "header", "headers", "path", "query"].contains(category) else {
                    problems.append("\(path).generators: unknown category '\(category)'")
                    continue
                }
                let single = category == "path" ? [value] : (value.objectValue?.map(\.value) ?? [])
                for generator in single {
                    let required = Self.generators[generator["type"]?.stringValue ?? ""]
                    if required == nil || required?.contains(where: { generator[$0] == nil }) == true {
                        problems.append("\(path).generators.\(category): not a generator of the specification")
                    }
                }
            }
        }
        return problems
    }

    static func check(response: JSONValue?, at path: String) -> [String] {
        guard let response, let object = response.objectValue else { return ["\(path): is required"] }
        var problems = object.keys.filter { !responseKeys.contains($0) }.map { "\(path): unknown field '\($0)'" }
        guard let status = response["status"]?.intValue, (100...599).contains(status) else {
            return problems + ["\(path).status: an integer 100-599"]
        }
        problems += stringLists(response["headers"], at: path + ".headers") + check(body: response["body"], at: path + ".body")
        return problems + check(rules: response["matchingRules"], body: response["body"], at: path)
    }

    static func stringLists(_ value: JSONValue?, at path: String) -> [String] {
        guard let value else { return [] }
        guard let object = value.objectValue else { return ["\(path): must be an object"] }
        return object.compactMap { member in
            member.value.arrayValue?.allSatisfy({ $0.stringValue != nil }) == true
                ? nil : "\(path).\(member.key): must be a list of strings"
        }
    }

    static func check(body: JSONValue?, at path: String) -> [String] {
        guard let body else { return [] }
        guard let object = body.objectValue else { return ["\(path): must be an object"] }
        var problems = object.keys.filter { !bodyKeys.contains($0) }.map { "\(path): unknown field '\($0)'" }
        // A body whose message says no media type has none: the tools then detect it from the content.
        problems += bodyKeys.filter { $0 != "contentType" && body[$0] == nil }.map { "\(path).\($0): is required" }
        if let type = body["contentType"], type.stringValue == nil { problems.append("\(path).contentType: a string") }
        if !["TEXT", "BINARY"].contains(body["contentTypeHint"]?.stringValue ?? "") {
            problems.append("\(path).contentTypeHint: TEXT or BINARY")
        }
        switch body["encoded"] {
        case .bool(false)?: break
        case .string?: if body["content"]?.stringValue == nil { problems.append("\(path).content: an encoded body is a string") }
        default: problems.append("\(path).encoded: false or the encoding's name")
        }
        return problems
    }

    static func check(rules: JSONValue?, body: JSONValue?, at path: String) -> [String] {
        guard let rules else { return [] }
        var problems: [String] = []
        for (category, value) in rules.objectValue ?? JSONObject() {
            let here = "\(path).matchingRules.\(category)"
            switch category {
            case "path":
                problems += check(matchers: value, at: here)
            case "body", "header", "query":
                for (key, matchers) in value.objectValue ?? JSONObject() {
                    if category == "body" {
                        if !key.hasPrefix("$") { problems.append("\(here): '\(key)' is not a JSON path") }
                        if let content = body?["content"], !PactPath.exists(key, in: content) {
                            problems.append("\(here): '\(key)' leads nowhere in the body")
                        }
                    }
                    problems += check(matchers: matchers, at: "\(here)['\(key)']")
                }
            default:
                problems.append("\(here): unknown category")
            }
        }
        return problems
    }

    static func check(matchers rule: JSONValue, at path: String) -> [String] {
        var problems: [String] = []
        if let combine = rule["combine"], combine != "AND", combine != "OR" { problems.append("\(path).combine: AND or OR") }
        guard let list = rule["matchers"]?.arrayValue, !list.isEmpty else { return problems + ["\(path).matchers: a non-empty list"] }
        for matcher in list {
            guard let name = matcher["match"]?.stringValue, let required = Self.matchers[name] else {
                problems.append("\(path): not a matcher of the specification: \(matcher.compactText)")
                continue
            }
            for attribute in required where matcher[attribute] == nil { problems.append("\(path): '\(name)' needs '\(attribute)'") }
            if name == "type", [matcher["min"], matcher["max"]].contains(where: { $0 != nil && $0?.numberValue == nil }) {
                problems.append("\(path): min and max are numbers")
            }
            if name == "regex", (try? NSRegularExpression(pattern: matcher["regex"]?.stringValue ?? "(")) == nil {
                problems.append("\(path): the regex does not compile")
            }
        }
        return problems
    }
}

/// Pact's JSON paths (`$.data.users[*].id`, `$['odd key']`, `$[0]`) resolved against a body.
enum PactPath {
    static func exists(_ path: String, in value: JSONValue) -> Bool {
        var values = [value]
        var rest = Substring(path.dropFirst())
        while !rest.isEmpty {
            if rest.hasPrefix("[*]") {
                values = values.flatMap { $0.arrayValue ?? [] }
                rest = rest.dropFirst(3)
            } else if rest.hasPrefix("['"), let end = rest.range(of: "']") {
                let key = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<end.lowerBound]).replacingOccurrences(of: "\\'", with: "'")
                values = values.compactMap { $0[key] }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("["), let end = rest.firstIndex(of: "]"),
                let index = Int(rest[rest.index(after: rest.startIndex)..<end])
            {
                values = values.compactMap { $0.arrayValue.flatMap { index < $0.count ? $0[index] : nil } }
                rest = rest[rest.index(after: end)...]
            } else if rest.hasPrefix(".") {
                let name = rest.dropFirst().prefix { $0 != "." && $0 != "[" }
                values = values.compactMap { $0[String(name)] }
                rest = rest.dropFirst(1 + name.count)
            } else {
                return false
            }
            if values.isEmpty { return false }
        }
        return true
    }
}
