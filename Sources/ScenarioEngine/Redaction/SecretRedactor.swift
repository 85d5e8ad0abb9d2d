import Foundation

/// Masks secrets in everything a run reports: tokens, passwords, cookies and codes that the
/// scenario mentions, and any credential in an `Authorization`, `Cookie` or `Set-Cookie` field.
package struct SecretRedactor: Sendable {
    /// What the `number`th distinct secret reads as once masked: `‹redacted#2›`. Numbers let a
    /// diff show that two tokens differ without showing either.
    package static func mask(_ number: Int) -> String { "‹redacted#\(number)›" }

    /// Secrets shorter than this are not masked: a one-character password must not mask every
    /// `1` in a report. Such values are too short to be real credentials anyway.
    package static let minimumLength = 4

    private let masker: SecretMasker
    private let enabled: Bool

    /// Creates a redactor for these secret values, numbered in the order given (repeats keep
    /// their first number); `enabled: false` leaves text as it is. `policy` says which names a
    /// secret of digits only must follow to be masked (`"pin": 1234`, never `total: 1234`).
    package init(secrets: some Sequence<String>, enabled: Bool = true, policy: RedactionPolicy = RedactionPolicy()) {
        var numbered: [(secret: String, mask: String)] = []
        var seen: Set<String> = []
        for secret in secrets where secret.count >= Self.minimumLength && seen.insert(secret).inserted {
            numbered.append((secret, Self.mask(numbered.count + 1)))
        }
        self.masker = SecretMasker(numbered, policy: policy)
        self.enabled = enabled
    }

    /// Every secret-looking string in a JSON value (see ``RedactionPolicy``).
    package static func secrets(in value: JSONValue, extraKeys: Set<String> = []) -> [String] {
        var found = RedactionPolicy.Findings()
        RedactionPolicy(extraKeys: extraKeys).collect(json: value, into: &found)
        return found.values
    }

    /// Whether values under this name are secrets (see ``RedactionPolicy/isCredentialName(_:)``).
    static func isSecretKey(_ name: String, extra: Set<String> = []) -> Bool {
        RedactionPolicy(extraKeys: extra).isCredentialName(name)
    }

    /// A member name as secret names are compared: lower case, without `_`, `-` and `.`.
    package static func normalized(_ name: String) -> String { RedactionPolicy.normalized(name) }

    /// JWT-shaped values (`eyJ…` header, payload and signature), wherever they stand in `text`.
    package static func jwtShaped(in text: String) -> [String] { RedactionPolicy.jwtShaped(in: text) }

    /// Whether `text` contains `part`, compared byte for byte (both are ASCII here, and UTF-8
    /// never matches an ASCII needle in the middle of a character).
    package static func bytes(of text: String, contain part: String) -> Bool {
        let needle = Array(part.utf8)
        guard let first = needle.first else { return true }
        var haystack = text
        return haystack.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            var index = 0
            let last = bytes.count - needle.count
            while index <= last {
                if bytes[index] == first {
                    var offset = 1
                    while offset < needle.count, bytes[index + offset] == needle[offset] { offset += 1 }
                    if offset == needle.count { return true }
                }
                index += 1
            }
            return false
        }
    }

    /// Path segments that are credentials (see ``RedactionPolicy``).
    package static func secrets(inPath path: String) -> [String] {
        var found = RedactionPolicy.Findings()
        RedactionPolicy().collect(path: path, into: &found)
        return found.values
    }

    /// Values of query parameters whose names are secret (`?token=...`).
    package static func secrets(inQuery items: [(name: String, value: String)], extraKeys: Set<String> = []) -> [String] {
        var found = RedactionPolicy.Findings()
        RedactionPolicy(extraKeys: extraKeys).collect(query: items, into: &found)
        return found.values
    }

    /// Values of secret fields in a form-encoded body (`password=...&email=...`), decoded.
    package static func secrets(inForm body: String, extraKeys: Set<String> = []) -> [String] {
        var found = RedactionPolicy.Findings()
        RedactionPolicy(extraKeys: extraKeys).collect(form: body, into: &found)
        return found.values
    }

    /// The secret parts of a header value: `Bearer X` gives `X`;
    /// `a=1; b=2` cookie lists give each value.
    package static func credentials(in value: String) -> [String] { RedactionPolicy.credentials(in: value) }

    /// The text with every secret, in every form it can take, replaced by its ``mask(_:)``
    /// (see ``SecretMasker``).
    package func redact(_ text: String) -> String {
        guard enabled else { return text }
        return masker.mask(text)
    }

    /// Bytes with every secret they hold replaced by its mask (see ``SecretMasker/mask(binary:)``).
    package func redact(binary body: Data) -> Data {
        guard enabled else { return body }
        return masker.mask(binary: body)
    }
}
