import Foundation

/// Secrets found by their shape or by a name written in free text: keys whose prefix says what
/// they are (`sk_live_…`, `AKIA…`), and `name: "value"` pairs in a script, a GraphQL query or an
/// attribute (`login(password: "…")`, `csrfToken: "…"`, `data-csrf="…"`).
extension RedactionPolicy {
    /// Values of credential names written as literals in text: token-like ones only (eight
    /// characters or more, a digit or sixteen characters), so `token: "expired"` stays a message.
    func collect(literals text: String, into found: inout Findings) {
        guard text.utf8.contains(UInt8(ascii: "\"")) || text.utf8.contains(UInt8(ascii: "'")) else { return }
        let whole = NSRange(text.startIndex..., in: text)
        for match in Self.literals?.matches(in: text, range: whole) ?? [] {
            guard let nameRange = Range(match.range(at: 1), in: text), let valueRange = Range(match.range(at: 2), in: text) else {
                continue
            }
            let name = String(text[nameRange])
            let value = String(text[valueRange])
            guard value.count >= 8, value.count >= 16 || value.contains(where: \.isNumber), isCredentialName(name),
                !Self.isConstant(value, under: name)
            else { continue }
            found.add(value, Self.kind(forName: name))
        }
    }

    /// Keys of services that say what they are by their prefix: secret and restricted Stripe
    /// keys and webhook secrets, GitHub and Slack tokens, AWS access key ids.
    static func keyShaped(in text: String) -> [String] {
        var found: [String] = []
        // Every string of a body comes here: a byte scan per prefix, as for JWTs, before any search.
        for prefix in keyPrefixes where SecretRedactor.bytes(of: text, contain: prefix) {
            var rest = text[...]
            while let start = rest.range(of: prefix) {
                let key = rest[start.lowerBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
                if key.count >= prefix.count + 16 { found.append(String(key)) }
                rest = rest[start.upperBound...]
            }
        }
        return found
    }

    private static let keyPrefixes = [
        "sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "xoxb-", "xoxp-",
        "xoxa-", "xoxs-", "AKIA",
    ]

    // `name: "value"`, `"name": "value"`, `name="value"`; `[^"'\s<>]` keeps it to one word.
    private static let literalText = #"([A-Za-z_][\w-]{0,63})["']?\s*[:=]\s*["']([^"'\s<>]{4,512})["']"#
    #if canImport(Darwin)
        // Not Sendable in every Apple SDK (Linux's Foundation marks it so); matching is thread-safe.
        nonisolated(unsafe) private static let literals = try? NSRegularExpression(pattern: literalText)
    #else
        private static let literals = try? NSRegularExpression(pattern: literalText)
    #endif
}
