import Foundation

/// Masks secrets in everything a run reports: tokens, passwords, cookies and codes that the
/// scenario mentions, and any credential in an `Authorization`, `Cookie` or `Set-Cookie` field.
public struct SecretRedactor: Sendable {
    /// What the `number`th distinct secret reads as once masked: `‹redacted#2›`. Numbers let a
    /// diff show that two tokens differ without showing either.
    public static func mask(_ number: Int) -> String { "‹redacted#\(number)›" }

    /// Member names whose string values are secrets (compared without case, `_` and `-`).
    static let secretKeys: Set<String> = [
        "accesstoken", "refreshtoken", "token", "idtoken", "password", "newpassword", "secret",
        "clientsecret", "apikey", "code", "otp", "cookie", "setcookie", "authorization", "sessionid",
    ]

    /// Each secret with its mask, longest first, so a secret that contains another is masked whole.
    private let masks: [(secret: String, mask: String)]
    private let enabled: Bool

    /// Creates a redactor for these secret values, numbered in the order given (repeats keep
    /// their first number); `enabled: false` leaves text as it is.
    public init(secrets: some Sequence<String>, enabled: Bool = true) {
        var numbered: [(secret: String, mask: String)] = []
        var seen: Set<String> = []
        for secret in secrets where !secret.isEmpty && seen.insert(secret).inserted {
            numbered.append((secret, Self.mask(numbered.count + 1)))
        }
        self.masks = numbered.sorted { ($0.secret.count, $0.secret) > ($1.secret.count, $1.secret) }
        self.enabled = enabled
    }

    /// Every secret-looking string in a JSON value: values of secret keys, and the credential
    /// part of authorization-like header values.
    public static func secrets(in value: JSONValue) -> [String] {
        switch value {
        case .object(let object):
            return object.flatMap { member -> [String] in
                if isSecretKey(member.key), let string = member.value.stringValue {
                    // A password is secret whole; an authorization-like value also by its parts.
                    return [string] + credentials(in: string)
                }
                if isSecretKey(member.key), case .number = member.value {
                    return [member.value.compactText]  // a numeric one-time code
                }
                return secrets(in: member.value)
            }
        case .array(let elements): return elements.flatMap(secrets(in:))
        default: return []
        }
    }

    /// Whether values under this name are secrets (case, `_` and `-` ignored).
    static func isSecretKey(_ name: String) -> Bool {
        secretKeys.contains(name.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    /// Values of query parameters whose names are secret (`?token=...`).
    public static func secrets(inQuery items: [(name: String, value: String)]) -> [String] {
        items.filter { isSecretKey($0.name) && !$0.value.isEmpty }.map(\.value)
    }

    /// Values of secret fields in a form-encoded body (`password=...&email=...`).
    public static func secrets(inForm body: String) -> [String] {
        let pairs = body.split(separator: "&").compactMap { pair -> (name: String, value: String)? in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
            return (decode(parts[0]), decode(parts[1]))
        }
        return secrets(inQuery: pairs)
    }

    /// The secret parts of a header value: `Bearer X` gives `X`;
    /// `a=1; b=2` cookie lists give each value.
    public static func credentials(in value: String) -> [String] {
        let parts = value.split(separator: " ", maxSplits: 1)
        // `Bearer X`: the scheme is no secret, so transcripts keep it and mask only X.
        var found = parts.count == 2 && !parts[0].contains("=") ? [String(parts[1])] : [value]
        for pair in value.split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { found.append(String(kv[1]).trimmingCharacters(in: .whitespaces)) }
        }
        return found.filter { $0.count >= 2 }
    }

    /// The text with every secret replaced by its ``mask(_:)``. A secret is replaced only where it
    /// stands alone (not inside a longer word), so short tokens such as `A1` do not eat text.
    public func redact(_ text: String) -> String {
        guard enabled, !masks.isEmpty else { return text }
        var result = text
        for (secret, mask) in masks { result = Self.replaceStandalone(secret, with: mask, in: result) }
        return result
    }

    private static func replaceStandalone(_ secret: String, with mask: String, in text: String) -> String {
        guard text.contains(secret) else { return text }
        var out = ""
        var rest = text[...]
        while let range = rest.range(of: secret) {
            let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : nil
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : nil
            let standalone = !(before.map(isWordCharacter) ?? false) && !(after.map(isWordCharacter) ?? false)
            out += rest[..<range.lowerBound]
            out += standalone ? mask : String(rest[range])
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
    }
}
