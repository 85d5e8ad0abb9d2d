import Foundation

/// Which values are secret: the one rule every output shares (run reports through
/// ``SecretRedactor``, traces through ``TraceRedactor``, lint messages, imports).
///
/// A value is secret when it is:
/// - the credential of an `Authorization` or `Proxy-Authorization` header (`Bearer X` gives `X`;
///   `Basic` also gives the decoded password), a cookie value of 8 characters or more, the whole
///   value of a header whose name says key, token, secret, auth, session, password or signature;
/// - the value of a credential name in a JSON member, a query item, a form field or a multipart
///   part; a text body (or a JSON string) that parses as JSON or as a form is looked into the same
///   way. A credential name is one whose last word is a credential (`token`, `access_token`,
///   `current_password`, `api_secret`, `bearer`, `csrf`, ...; or exactly `code`, `pin`, `otp`,
///   `sid`, `jwt`, `authorization`, `signature`, ...), possibly followed by a word that qualifies
///   the value (`password_confirmation`, `token_hash`). `passwordReset`, `tokenType` or
///   `passwordPolicy` name something else: their values are judged member by member. Every value
///   under `tokens`, `credentials` or `secrets` (or a credential name holding an object) is secret;
/// - a path segment that follows a credential path word (`/reset/<token>`, `/verify/`,
///   `/confirm/`, `/activate/`, `/invite/`, `/magic-link/`, `/unsubscribe/`, `/tokens/`, ...) and
///   holds a digit or mixes cases, or any segment of 24 characters or more mixing letters and
///   digits;
/// - JWT-shaped (`eyJ…` header, payload and signature) anywhere.
///
/// Numbers are secret only as the value of a credential name, and only masked there.
package struct RedactionPolicy: Sendable, Hashable {
    /// A secret value and what it was found as.
    package struct Finding: Sendable, Hashable {
        /// The secret, as found (decoded).
        package var value: String
        /// What it was found as.
        package var kind: SecretKind

        /// A finding of `value` as `kind`.
        package init(_ value: String, _ kind: SecretKind) {
            self.value = value
            self.kind = kind
        }
    }

    /// Secrets in the order found, each once.
    package struct Findings: Sendable {
        /// The findings, in the order found.
        package private(set) var ordered: [Finding] = []
        private var seen: Set<String> = []

        /// No findings yet.
        package init() {}

        /// Adds a value (trimmed; empty ones, values ``RedactionPolicy/isPlainlyNotSecret(_:)``
        /// and repeats are dropped: a flag or a status word is never a credential, and masking it
        /// would mask every place the word stands).
        package mutating func add(_ value: String, _ kind: SecretKind) {
            // Values are rarely padded: trimming is asked of Foundation only when an end may be space.
            let trimmed = Self.mayNeedTrimming(value) ? value.trimmingCharacters(in: .whitespaces) : value
            guard !trimmed.isEmpty, !RedactionPolicy.isPlainlyNotSecret(trimmed), seen.insert(trimmed).inserted else { return }
            ordered.append(Finding(trimmed, kind))
        }

        /// The values, in order.
        package var values: [String] { ordered.map(\.value) }

        /// Whether either end of `value` is a space or tab, or not ASCII (other spaces are).
        private static func mayNeedTrimming(_ value: String) -> Bool {
            guard let first = value.utf8.first, let last = value.utf8.last else { return false }
            func mayBeSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte >= 0x80 }
            return mayBeSpace(first) || mayBeSpace(last)
        }
    }

    /// Whether a value is plainly no secret, whatever name it stands under: `true`, `false`,
    /// `null`, or one of ``statusWords`` (any case; `_`, `-` and spaces ignored; after `not` or
    /// `no`, as in `not_set`). A snapshot's `"tokens": {"access": "present"}` says a token
    /// exists without being one.
    static func isPlainlyNotSecret(_ value: String) -> Bool {
        // The longest status word with `not` before it and separators: longer values are not one.
        guard value.utf8.count <= 20 else { return false }
        let word = value.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " }
        if word == "true" || word == "false" || word == "null" || statusWords.contains(word) { return true }
        return ["not", "no"].contains { word.hasPrefix($0) && statusWords.contains(String(word.dropFirst($0.count))) }
    }

    /// Words that say whether or how a credential is, never what it is.
    static let statusWords: Set<String> = [
        "present", "absent", "missing", "none", "nil", "empty", "set", "unset", "stored", "saved", "cleared", "valid", "invalid",
        "expired", "revoked", "active", "inactive", "pending", "unknown", "available", "unavailable", "enabled", "disabled",
        "yes", "no", "on", "off", "ok", "required", "optional", "granted", "denied", "hidden", "redacted", "bearer", "basic",
    ]

    /// More names whose values are secret (a scenario's `secrets`, a driver's `secretKeys`),
    /// normalized.
    package let extraKeys: Set<String>

    /// A policy with these extra secret names beyond the built-in ones.
    package init(extraKeys: some Sequence<String> = [String]()) {
        self.extraKeys = Set(extraKeys.map(Self.normalized))
    }

    // MARK: - Names

    /// Names that are credentials whole (compared normalized: lower case, no `_`, `-`, `.`).
    static let exactNames: Set<String> = [
        "code", "otp", "pin", "pincode", "sid", "jwt", "cookie", "setcookie", "authorization", "proxyauthorization",
        "sessionid", "apikey", "xapikey", "privatekey", "clientsecret", "signature", "credentials", "passcode", "bearer",
        "sig", "jscode", "pwd", "pass", "samlresponse",
    ]

    /// Last words that make a name a credential (`auth_token`, `current_password`, `api_secret`).
    static let credentialWords = [
        "token", "password", "passwd", "passphrase", "secret", "apikey", "privatekey", "sessionid", "csrf", "xsrf", "otp",
        "otpcode", "authcode", "verificationcode", "smscode", "resetcode", "credential", "bearer", "passcode", "pincode", "jwt",
        "signature", "cookie", "sessionkey", "jsapiticket", "serviceticket", "accesskey", "secretkey", "clientkey",
        "subscriptionkey", "appkey", "mfacode", "confirmationcode", "securitycode", "logincode", "onetimecode",
        "verifier", "devicecode", "factorcode", "2facode", "tfacode", "emailcode", "backupcode", "recoverycode",
    ]

    /// Words after a credential word that still name the credential's value.
    static let qualifiers = [
        "confirmation", "confirm", "again", "repeat", "hash", "digest", "value", "plain", "plaintext", "raw", "encoded", "base64",
        "b64", "string", "str", "new", "old", "current",
    ]

    /// Names everything under which is secret.
    static let containerNames: Set<String> = ["tokens", "credentials", "secrets", "secret"]

    /// A name as secret names are compared: lower case, without `_`, `-` and `.`.
    package static func normalized(_ name: String) -> String {
        // `user[password]`, `credentials[pin]`: a nested form field is named by its last bracket.
        var name = Substring(name)
        if name.hasSuffix("]"), let open = name.lastIndex(of: "["), name.index(after: open) < name.index(before: name.endIndex) {
            name = name[name.index(after: open)..<name.index(before: name.endIndex)]
        }
        return name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." }
    }

    /// Whether the value of this name is a credential (`access_token`, `password`, `pin`,
    /// `passwordConfirmation`), by the built-in names or the extra ones. `passwordReset` is not.
    package func isCredentialName(_ name: String) -> Bool {
        // Names repeat in every entry of a capture: the built-in answer is remembered per name.
        guard extraKeys.isEmpty else { return decideCredentialName(name) }
        return Self.builtInAnswers.answer(for: name) { decideCredentialName(name) }
    }

    /// Answers of ``isCredentialName(_:)`` without extra keys, shared by every policy.
    private static let builtInAnswers = NameAnswers<Bool>()

    private func decideCredentialName(_ name: String) -> Bool {
        let key = Self.normalized(name)
        guard !key.isEmpty else { return false }
        if Self.exactNames.contains(key) || extraKeys.contains(key) || Self.containerNames.contains(key) { return true }
        // A page's cursor, not a credential (`nextPageToken`, `continuationToken`).
        if key.hasSuffix("pagetoken") || key == "continuationtoken" { return false }
        var stem = Substring(key)
        if let qualifier = Self.qualifiers.first(where: { stem.hasSuffix($0) && stem.count > $0.count }) {
            stem = stem.dropLast(qualifier.count)
        }
        if stem.hasSuffix("s") { stem = stem.dropLast() }
        return Self.credentialWords.contains { stem.hasSuffix($0) }
    }

    /// Whether a number under this credential name is a count, not a code: the name is a plural
    /// (`max_tokens`, `secrets`) the user did not name a secret.
    package func holdsCounts(_ name: String) -> Bool {
        let key = Self.normalized(name)
        return key.hasSuffix("s") && !extraKeys.contains(key)
    }

    /// Whether `value`, written as text under `name` (a query, a form), is such a count.
    func isCount(_ value: String, under name: String) -> Bool {
        !value.isEmpty && value.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } && holdsCounts(name)
    }

    /// Whether every value under this name is secret (`tokens`, `credentials`, `secrets`).
    package func isContainerName(_ name: String) -> Bool {
        let key = Self.normalized(name)
        return Self.containerNames.contains(key) || extraKeys.contains(key)
    }

    /// Whether a query item `key` holds an API key (`?key=AIzaSy…`): key-shaped, 16 characters or
    /// more mixing letters and digits. Elsewhere `key` names anything (`?sort=asc&key=name`).
    static func isQueryKey(name: String, value: String) -> Bool {
        normalized(name) == "key" && value.count >= 16 && value.contains(where: \.isLetter) && value.contains(where: \.isNumber)
    }

    /// Whether the value of a member named exactly `code` is a constant of the API rather than a
    /// one-time code, as in the `{code, msg, data}` envelope: upper-case letters and underscores,
    /// with an underscore or longer than 8 (`USER_BLOCKED`, `UNAUTHORIZED`). A short word of
    /// capitals (`KXJQWP`) may be a code, and stays secret, as does every value under `otp`,
    /// `pin` or `passcode`.
    static func isConstant(_ value: String, under name: String) -> Bool {
        guard normalized(name) == "code" else { return false }
        let capitals = value.utf8.allSatisfy { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == UInt8(ascii: "_") }
        // `card_declined`, `rate_limit_exceeded`: lower-case words joined by underscores name an error.
        let snake = value.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "_") }
        return (capitals || snake) && (value.utf8.contains(UInt8(ascii: "_")) || capitals && value.utf8.count > 8)
    }

    /// Whether a number under `code` sits beside a message: the API's error number
    /// (`{"code": 40101, "msg": "token expired"}`), not a one-time code.
    static func isEnvelopeCode(_ key: String, in object: JSONObject) -> Bool {
        normalized(key) == "code"
            && object.contains { ["msg", "message", "errmsg", "error", "errormessage", "success"].contains(normalized($0.key)) }
    }

    /// The kind a secret found under this name has.
    static func kind(forName name: String) -> SecretKind {
        let key = normalized(name)
        if key.contains("password") || key.contains("passwd") || key.contains("passphrase") { return .password }
        if key == "code" || key == "otp" || key == "pin" || key.hasSuffix("code") { return .code }
        if key.contains("secret") { return .secret }
        if key.contains("cookie") { return .cookie }
        if key == "authorization" { return .authorization }
        if key == "apikey" || key == "xapikey" { return .apiKey }
        return .token
    }

    // MARK: - Shapes

    /// The secret parts of a header value: `Bearer X` gives `X`; `a=1; b=2` cookie lists give
    /// each value.
    package static func credentials(in value: String) -> [String] {
        let parts = value.split(separator: " ", maxSplits: 1)
        // `Bearer X`: the scheme is no secret, so transcripts keep it and mask only X.
        var found = parts.count == 2 && !parts[0].contains("=") ? [String(parts[1])] : [value]
        for pair in value.split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { found.append(String(kv[1]).trimmingCharacters(in: .whitespaces)) }
        }
        return found.filter { $0.count >= 2 }
    }

    /// JWT-shaped values (`eyJ…` header, payload and signature), wherever they stand in `text`.
    package static func jwtShaped(in text: String) -> [String] {
        // Most strings hold no JWT: a byte scan says so without Foundation's slower search.
        guard SecretRedactor.bytes(of: text, contain: "eyJ") else { return [] }
        var found: [String] = []
        var rest = text[...]
        while let start = rest.range(of: "eyJ") {
            let tail = rest[start.lowerBound...]
            let token = tail.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 3 || parts.count == 5, token.count >= 20, parts[1].count >= 2 { found.append(String(token)) }
            rest = rest[start.upperBound...]
        }
        return found
    }
}

/// A bounded memo of name → answer, safe to share between threads.
final class NameAnswers<Answer>: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String: Answer] = [:]

    /// The answer remembered for `name`, or the one `decide` gives, remembered.
    func answer(for name: String, deciding decide: () -> Answer) -> Answer {
        if let known = lock.withLock({ answers[name] }) { return known }
        let answer = decide()
        lock.withLock {
            // Names are a capture's keys, few and repeated; a flood of distinct ones is not kept.
            if answers.count < 10_000 { answers[name] = answer }
        }
        return answer
    }
}
