import Foundation
import HTTPCore
import ScenarioEngine

/// The credentials a request the app sent carries, each named for the provider state that
/// gives it (`accessToken` for `Authorization: Bearer …`, the member's name in camel case for a
/// body or query credential: `refreshToken`), so the pact holds `${accessToken}` and the
/// provider's state handler issues a real one.
struct PactCredentials {
    /// Where a credential stands in the request.
    enum Place: Hashable {
        /// A header, the credential a part of its value (`Bearer X`).
        case header(String)
        /// A JSON body member, by its Pact JSON path (`$.refresh_token`).
        case body(String)
        /// A query item.
        case query(String)
    }

    struct Credential {
        var place: Place
        /// The name the provider state gives its value under.
        var name: String
        /// The credential as sent.
        var value: String
        /// The whole value at its place with the credential as `${name}`: `Bearer ${accessToken}`.
        var expression: String
    }

    private(set) var found: [Credential] = []
    private var names: [String: String] = [:]

    /// The credentials of `request`: the `Authorization`, cookie and API-key headers, query items
    /// and JSON body members the redaction policy calls secret, and any value the scenario
    /// mentions as secret (`known`) standing whole in a body member.
    init(_ request: HTTPRequest, policy: RedactionPolicy, known: Set<String>) {
        for field in request.headers {
            var own = RedactionPolicy.Findings()
            policy.collect(header: field.name, value: field.value, into: &own)
            guard let secret = own.ordered.first?.value, !secret.isEmpty, let range = field.value.range(of: secret) else { continue }
            let scheme = field.value[..<range.lowerBound].trimmingCharacters(in: .whitespaces).lowercased()
            let base: String
            switch (field.name.lowercased(), scheme) {
            case ("authorization", "bearer"): base = "accessToken"
            case ("authorization", "basic"): base = "basicCredentials"
            default: base = Self.camelCase(field.name)
            }
            let name = self.name(for: secret, base: base)
            found.append(
                Credential(
                    place: .header(field.name), name: name, value: secret,
                    expression: field.value.replacingCharacters(in: range, with: "${\(name)}")))
        }
        for item in request.query {
            guard let value = item.value, !value.isEmpty, policy.isCredentialName(item.name) || known.contains(value) else { continue }
            let name = self.name(for: value, base: Self.camelCase(item.name))
            found.append(Credential(place: .query(item.name), name: name, value: value, expression: "${\(name)}"))
        }
        let contentType = request.headers[HTTPFields.Name.contentType].map(MediaTypes.essence) ?? ""
        if MediaTypes.isJSON(contentType), let body = request.body, let json = JSONValue.parse(body) {
            collect(json, path: "$", under: nil, policy: policy, known: known)
        }
    }

    private mutating func collect(_ value: JSONValue, path: String, under key: String?, policy: RedactionPolicy, known: Set<String>) {
        switch value {
        case .object(let object):
            for (member, inner) in object {
                collect(inner, path: path + PactMatchers.segment(member), under: member, policy: policy, known: known)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collect(element, path: path + "[\(index)]", under: key, policy: policy, known: known)
            }
        case .string(let text):
            guard !text.isEmpty, let key, policy.isCredentialName(key) || known.contains(text) else { return }
            let name = self.name(for: text, base: Self.camelCase(key))
            found.append(Credential(place: .body(path), name: name, value: text, expression: "${\(name)}"))
        default:
            return
        }
    }

    /// One name per value: the same token twice is one name; two tokens under one name are
    /// `accessToken` and `accessToken2`.
    private mutating func name(for value: String, base: String) -> String {
        if let known = names[value] { return known }
        var name = base.isEmpty ? "credential" : base
        var number = 2
        while names.values.contains(name) {
            name = base + String(number)
            number += 1
        }
        names[value] = name
        return name
    }

    /// `refresh_token` and `X-Api-Key` as `refreshToken` and `xApiKey`.
    static func camelCase(_ name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard let first = words.first else { return "" }
        let lowered = first.prefix(1).lowercased() + first.dropFirst()
        return words.dropFirst().reduce(lowered) { $0 + $1.prefix(1).uppercased() + $1.dropFirst() }
    }
}
