import Foundation
import HTTPCore
import ScenarioEngine
import ScenarioTraces

/// Scripted exchanges as a Pact specification v4 file for one consumer-provider pair: each
/// exchange an HTTP interaction whose provider state is its scenario's name, the request as the
/// exchange matches it, and the answer with type matchers for its body (loose on answers, as Pact
/// is), so a team with a Pact broker gets provider verification and `can-i-deploy` from the
/// scenarios it already has. Secrets are replaced by the stable placeholders `scenario redact`
/// writes (`redacted-token-1`) unless kept.
package struct PactExport {
    /// An exchange that is not exported, and why.
    package struct LeftOut: Sendable {
        package var location: ScenarioLocation
        package var exchange: String
        package var reason: String
    }

    /// An exchange on its way to an interaction.
    struct Draft {
        var description: String
        var key: String
        var state: String
        var comment: String
        var method: String
        /// `/users/{id}/block` for a path pattern: the path gets a provider-state generator.
        var pattern: String?
        var request: HARLog.Request
        var response: HARLog.Response
        var requestIsJSON: Bool
    }

    package let consumer: String
    package let provider: String
    var drafts: [Draft] = []
    package private(set) var leftOut: [LeftOut] = []

    package init(consumer: String, provider: String) {
        self.consumer = consumer
        self.provider = provider
    }

    /// How many interactions the file will have.
    package var interactionCount: Int { drafts.count }

    /// `consumer-provider.json`, with anything but letters, digits, `.`, `-` and `_` made `_`.
    package var fileName: String {
        func safe(_ name: String) -> String {
            String(
                name.unicodeScalars.map {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
                        ? Character($0) : "_"
                })
        }
        return "\(safe(consumer))-\(safe(provider)).json"
    }

    /// Adds the exchanges of `scenario` (whose parsed file is `root`).
    package mutating func add(_ scenario: Scenario, root: JSONNode) {
        for (exchange, source) in ExchangeSource.pairs(scenario, root: root) {
            let leave = { (reason: String) in LeftOut(location: source.location(), exchange: exchange.id, reason: reason) }
            if let reason = source.skipReason {
                leftOut.append(leave("left out of verification: \(reason)"))
                continue
            }
            guard case .response(let response) = exchange.reply else {
                leftOut.append(leave("a scripted fault is no answer a provider can be verified against"))
                continue
            }
            guard let method = exchange.request.method?.rawValue.uppercased(), let rule = exchange.request.path else {
                leftOut.append(leave("a Pact interaction needs a method and a path; the exchange matches any"))
                continue
            }
            if case .pattern(let pattern) = rule, pattern.hasSuffix("*") {
                leftOut.append(leave("the path pattern \(pattern) ends in '*': no one path stands for it"))
                continue
            }
            drafts.append(draft(scenario, exchange, method: method, rule: rule, response: response))
        }
    }

    private func draft(_ scenario: Scenario, _ exchange: Exchange, method: String, rule: PathRule, response: HTTPResponse) -> Draft {
        var path: String
        var pattern: String?
        switch rule {
        case .exact(let exact): path = exact
        case .pattern(let written):
            pattern = written
            // The example path names each parameter; the generator lets the provider state give it.
            path = written.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")
        }
        var components = URLComponents()
        components.percentEncodedPath = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        if !exchange.request.query.isEmpty {
            components.queryItems = exchange.request.query.map { URLQueryItem(name: $0.name, value: $0.value) }
        }
        let url = "http://provider" + (components.string ?? path)
        var body: String?
        var requestIsJSON = false
        switch exchange.request.body {
        case .jsonSubset(let json)?:
            body = json.compactText
            requestIsJSON = true
        case .text(let text)?:
            body = text
        case nil:
            break
        }
        let request = HARLog.Request(
            method: method, url: url, headers: exchange.request.headers.map { HARLog.Field($0.name, $0.value) }, body: body,
            mimeType: requestIsJSON ? "application/json" : exchange.request.headers[HTTPFields.Name.contentType])
        let answer = HARLog.Response(
            status: response.status.code, headers: response.headers.map { HARLog.Field($0.name, $0.value) }, body: response.body,
            mimeType: response.headers[HTTPFields.Name.contentType])
        return Draft(
            description: "\(scenario.name): \(exchange.id)", key: Self.key(scenario.id + "\n" + exchange.id), state: scenario.name,
            comment: "\(exchange.location) exchange '\(exchange.id)'", method: method, pattern: pattern, request: request, response: answer,
            requestIsJSON: requestIsJSON)
    }

    /// A stable key: FNV-1a over the scenario and exchange ids, in hexadecimal.
    static func key(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }

    // MARK: The file

    /// The Pact v4 document: secrets replaced by placeholders unless `keepSecrets`.
    package func document(keepSecrets: Bool, version: String) -> JSONValue {
        var log = HARLog(
            creator: "SessionScenarios",
            entries: drafts.map {
                HARLog.Entry(started: Date(timeIntervalSince1970: 0), time: 0, request: $0.request, response: $0.response)
            })
        if !keepSecrets { _ = TraceRedactor().redact(&log) }
        let interactions = zip(drafts, log.entries).map { draft, entry in interaction(draft, entry) }
        return [
            "consumer": ["name": .string(consumer)],
            "provider": ["name": .string(provider)],
            "interactions": .array(interactions),
            "metadata": ["pactSpecification": ["version": "4.0"], "scenario": ["version": .string(version)]],
        ]
    }

    private func interaction(_ draft: Draft, _ entry: HARLog.Entry) -> JSONValue {
        var object: JSONObject = [
            "type": "Synchronous/HTTP", "description": .string(draft.description), "key": .string(draft.key),
            "providerStates": [["name": .string(draft.state)]],
            "comments": ["testname": .string(draft.state), "text": [.string(draft.comment)]],
        ]
        object["request"] = request(draft, entry.request)
        if let response = entry.response { object["response"] = Self.response(response) }
        return .object(object)
    }

    private func request(_ draft: Draft, _ captured: HARLog.Request) -> JSONValue {
        let components = URLComponents(string: captured.url)
        var object: JSONObject = ["method": .string(draft.method), "path": .string(components?.path ?? "/")]
        if let items = components?.queryItems, !items.isEmpty {
            var query = JSONObject()
            for item in items { query[item.name] = .array((query[item.name]?.arrayValue ?? []) + [.string(item.value ?? "")]) }
            object["query"] = .object(query)
        }
        if !captured.headers.isEmpty { object["headers"] = Self.headers(captured.headers) }
        if let text = captured.body {
            let json = draft.requestIsJSON ? JSONValue.parse(Data(text.utf8)) : nil
            object["body"] = Self.body(content: json ?? .string(text), contentType: captured.mimeType ?? "text/plain", encoded: false)
        }
        if let pattern = draft.pattern {
            let expression = pattern.replacingOccurrences(of: "{", with: "${")
            let regex =
                "^"
                + pattern.split(separator: "/", omittingEmptySubsequences: false).map { part in
                    part.hasPrefix("{") ? "[^/]+" : NSRegularExpression.escapedPattern(for: String(part))
                }.joined(separator: "/") + "$"
            object["matchingRules"] = ["path": ["combine": "AND", "matchers": [["match": "regex", "regex": .string(regex)]]]]
            object["generators"] = ["path": ["type": "ProviderState", "expression": .string(expression)]]
        }
        return .object(object)
    }

    private static func response(_ response: HARLog.Response) -> JSONValue {
        var object: JSONObject = ["status": .number(Double(response.status))]
        if !response.headers.isEmpty { object["headers"] = headers(response.headers) }
        var rules = JSONObject()
        if !response.body.isEmpty {
            let contentType = response.mimeType ?? "application/octet-stream"
            if MediaTypes.isJSON(MediaTypes.essence(contentType)), let json = JSONValue.parse(response.body) {
                object["body"] = body(content: json, contentType: contentType, encoded: false)
                let matchers = PactMatchers.typeRules(for: json)
                if !matchers.isEmpty { rules["body"] = .object(matchers) }
                rules["header"] = ["Content-Type": PactMatchers.rule(["match": "regex", "regex": "^application/(.+\\+)?json(;.*)?$"])]
            } else if let text = String(data: response.body, encoding: .utf8) {
                object["body"] = body(content: .string(text), contentType: contentType, encoded: false)
            } else {
                object["body"] = body(content: .string(response.body.base64EncodedString()), contentType: contentType, encoded: true)
            }
        }
        if !rules.isEmpty { object["matchingRules"] = .object(rules) }
        return .object(object)
    }

    /// Header values as lists, as v4 writes them (a repeated header keeps every value).
    private static func headers(_ fields: [HARLog.Field]) -> JSONValue {
        var object = JSONObject()
        for field in fields { object[field.name] = .array((object[field.name]?.arrayValue ?? []) + [.string(field.value)]) }
        return .object(object)
    }

    private static func body(content: JSONValue, contentType: String, encoded: Bool) -> JSONValue {
        [
            "content": content, "contentType": .string(contentType), "contentTypeHint": .string(encoded ? "BINARY" : "TEXT"),
            "encoded": encoded ? "base64" : false,
        ]
    }
}

/// Pact matching rules: a type matcher at every leaf of a body and at every array (`min: 0`), so
/// a provider may answer other values of the same types, and more members than scripted.
enum PactMatchers {
    static func rule(_ matcher: JSONValue) -> JSONValue {
        ["combine": "AND", "matchers": [matcher]]
    }

    static func typeRules(for value: JSONValue) -> JSONObject {
        var rules = JSONObject()
        collect(value, path: "$", into: &rules)
        return rules
    }

    private static func collect(_ value: JSONValue, path: String, into rules: inout JSONObject) {
        switch value {
        case .object(let object):
            for (key, member) in object { collect(member, path: path + segment(key), into: &rules) }
        case .array(let elements):
            rules[path] = rule(["match": "type", "min": 0])
            for element in elements { collect(element, path: path + "[*]", into: &rules) }
        default:
            if rules[path] == nil { rules[path] = rule(["match": "type"]) }
        }
    }

    /// `.name` for a plain key, `['odd key']` otherwise, as Pact's JSON paths write them.
    static func segment(_ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
            && !(key.first?.isNumber ?? true)
        return plain ? "." + key : "['" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "']"
    }
}
