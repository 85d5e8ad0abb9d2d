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
/// - a path segment that follows a credential route word (`/reset/<token>`, `/verify/`,
///   `/confirm/`, `/activate/`, `/invite/`, `/magic-link/`, `/unsubscribe/`, `/tokens/`, ...) and
///   holds a digit or mixes cases, or any segment of 24 characters or more mixing letters and
///   digits;
/// - JWT-shaped (`eyJ…` header, payload and signature) anywhere.
///
/// Numbers are secret only as the value of a credential name, and only masked there.
public struct RedactionPolicy: Sendable, Hashable {
    /// A secret value and what it was found as.
    public struct Finding: Sendable, Hashable {
        /// The secret, as found (decoded).
        public var value: String
        /// What it was found as.
        public var kind: TraceRedactor.Kind

        /// A finding of `value` as `kind`.
        public init(_ value: String, _ kind: TraceRedactor.Kind) {
            self.value = value
            self.kind = kind
        }
    }

    /// Secrets in the order found, each once.
    public struct Findings: Sendable {
        /// The findings, in the order found.
        public private(set) var ordered: [Finding] = []
        private var seen: Set<String> = []

        /// No findings yet.
        public init() {}

        /// Adds a value (trimmed; empty ones and repeats are dropped).
        public mutating func add(_ value: String, _ kind: TraceRedactor.Kind) {
            // Values are rarely padded: trimming is asked of Foundation only when an end may be space.
            let trimmed = Self.mayNeedTrimming(value) ? value.trimmingCharacters(in: .whitespaces) : value
            guard !trimmed.isEmpty, seen.insert(trimmed).inserted else { return }
            ordered.append(Finding(trimmed, kind))
        }

        /// The values, in order.
        public var values: [String] { ordered.map(\.value) }

        /// Whether either end of `value` is a space or tab, or not ASCII (other spaces are).
        private static func mayNeedTrimming(_ value: String) -> Bool {
            guard let first = value.utf8.first, let last = value.utf8.last else { return false }
            func mayBeSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte >= 0x80 }
            return mayBeSpace(first) || mayBeSpace(last)
        }
    }

    /// More names whose values are secret (a scenario's `secrets`, a driver's `secretKeys`),
    /// normalized.
    public let extraKeys: Set<String>

    /// A policy with these extra secret names beyond the built-in ones.
    public init(extraKeys: some Sequence<String> = [String]()) {
        self.extraKeys = Set(extraKeys.map(Self.normalized))
    }

    // MARK: - Names

    /// Names that are credentials whole (compared normalized: lower case, no `_`, `-`, `.`).
    static let exactNames: Set<String> = [
        "code", "otp", "pin", "pincode", "sid", "jwt", "cookie", "setcookie", "authorization", "proxyauthorization",
        "sessionid", "apikey", "xapikey", "privatekey", "clientsecret", "signature", "credentials", "passcode", "bearer",
    ]

    /// Last words that make a name a credential (`auth_token`, `current_password`, `api_secret`).
    static let credentialWords = [
        "token", "password", "passwd", "passphrase", "secret", "apikey", "privatekey", "sessionid", "csrf", "xsrf", "otp",
        "otpcode", "authcode", "verificationcode", "smscode", "resetcode", "credential", "bearer", "passcode", "pincode", "jwt",
        "signature", "cookie",
    ]

    /// Words after a credential word that still name the credential's value.
    static let qualifiers = [
        "confirmation", "confirm", "again", "repeat", "hash", "digest", "value", "plain", "plaintext", "raw", "encoded", "base64",
        "b64", "string", "str", "new", "old", "current",
    ]

    /// Names everything under which is secret.
    static let containerNames: Set<String> = ["tokens", "credentials", "secrets", "secret"]

    /// A name as secret names are compared: lower case, without `_`, `-` and `.`.
    public static func normalized(_ name: String) -> String {
        name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." }
    }

    /// Whether the value of this name is a credential (`access_token`, `password`, `pin`,
    /// `passwordConfirmation`), by the built-in names or the extra ones. `passwordReset` is not.
    public func isCredentialName(_ name: String) -> Bool {
        // Names repeat in every entry of a capture: the built-in answer is remembered per name.
        guard extraKeys.isEmpty else { return decideCredentialName(name) }
        if let known = Self.builtInAnswers.answer(for: name) { return known }
        let answer = decideCredentialName(name)
        Self.builtInAnswers.remember(answer, for: name)
        return answer
    }

    /// Answers of ``isCredentialName(_:)`` without extra keys, shared by every policy.
    private static let builtInAnswers = NameAnswers<Bool>()

    private func decideCredentialName(_ name: String) -> Bool {
        let key = Self.normalized(name)
        guard !key.isEmpty else { return false }
        if Self.exactNames.contains(key) || extraKeys.contains(key) || Self.containerNames.contains(key) { return true }
        var stem = Substring(key)
        if let qualifier = Self.qualifiers.first(where: { stem.hasSuffix($0) && stem.count > $0.count }) {
            stem = stem.dropLast(qualifier.count)
        }
        if stem.hasSuffix("s") { stem = stem.dropLast() }
        return Self.credentialWords.contains { stem.hasSuffix($0) }
    }

    /// Whether every value under this name is secret (`tokens`, `credentials`, `secrets`).
    public func isContainerName(_ name: String) -> Bool {
        let key = Self.normalized(name)
        return Self.containerNames.contains(key) || extraKeys.contains(key)
    }

    /// The kind a secret found under this name has.
    static func kind(forName name: String) -> TraceRedactor.Kind {
        let key = normalized(name)
        if key.contains("password") || key.contains("passwd") || key.contains("passphrase") { return .password }
        if key == "code" || key == "otp" || key == "pin" || key.hasSuffix("code") { return .code }
        if key.contains("secret") { return .secret }
        if key.contains("cookie") { return .cookie }
        if key == "authorization" { return .authorization }
        if key == "apikey" || key == "xapikey" { return .apiKey }
        return .token
    }

    // MARK: - Where secrets are

    /// Secrets in a JSON value: values of credential names, everything under `tokens` and
    /// the like, JWTs anywhere, and the same inside strings that hold JSON or a form.
    public func collect(json value: JSONValue, into found: inout Findings, depth: Int = 0) {
        switch value {
        case .object(let object):
            for (key, member) in object {
                if isCredentialName(key) {
                    let kind = Self.kind(forName: key)
                    switch member {
                    case .string(let text):
                        // A password is secret whole; an authorization-like value also by its parts.
                        found.add(text, kind)
                        for part in Self.credentials(in: text) { found.add(part, kind) }
                    case .number: found.add(member.compactText, kind)  // a numeric one-time code
                    case .object, .array: collectLeaves(member, kind: kind, into: &found)
                    default: break
                    }
                } else {
                    collect(json: member, into: &found, depth: depth)
                }
            }
        case .array(let elements): for element in elements { collect(json: element, into: &found, depth: depth) }
        case .string(let text): collect(text: text, into: &found, depth: depth + 1)
        default: break
        }
    }

    /// Every string under a secret name (numbers there are lifetimes and counts).
    private func collectLeaves(_ value: JSONValue, kind: TraceRedactor.Kind, into found: inout Findings) {
        switch value {
        case .string(let string): found.add(string, kind)
        case .array(let elements): for element in elements { collectLeaves(element, kind: kind, into: &found) }
        case .object(let object): for (_, member) in object { collectLeaves(member, kind: kind, into: &found) }
        default: break
        }
    }

    /// Secrets in free text: JSON or a form it holds, and JWTs. `depth` stops JSON held in
    /// strings held in JSON from going on for ever.
    public func collect(text: String, into found: inout Findings, depth: Int = 0) {
        for jwt in Self.jwtShaped(in: text) { found.add(jwt, .jwt) }
        guard depth < 4, let first = text.utf8.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }) else { return }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let json = JSONValue.parse(Data(text.utf8)) {
            collect(json: json, into: &found, depth: depth)
        } else if first == UInt8(ascii: "-"), text.hasPrefix("--"),
            SecretRedactor.bytes(of: text.lowercased(), contain: "content-disposition")
        {
            collect(multipart: text, into: &found)
        } else if Self.looksLikeForm(text) {
            collect(form: text, into: &found)
        }
    }

    private static func looksLikeForm(_ text: String) -> Bool {
        text.utf8.contains(UInt8(ascii: "=")) && !text.utf8.contains(UInt8(ascii: " ")) && !text.utf8.contains(UInt8(ascii: "\n"))
    }

    /// Secrets in a body: JSON, a form or multipart form data (by the content type or the
    /// look of it), and JWTs in any text, binary bodies included.
    public func collect(body: Data, contentType: String? = nil, into found: inout Findings) {
        guard !body.isEmpty else { return }
        if let json = JSONValue.parse(body) {
            collect(json: json, into: &found)
            return
        }
        let text = String(decoding: body.prefix(1 << 20), as: UTF8.self)
        let type = contentType?.lowercased() ?? ""
        if type.contains("multipart/") {
            collect(multipart: text, into: &found)
            for jwt in Self.jwtShaped(in: text) { found.add(jwt, .jwt) }
        } else if type.contains("x-www-form-urlencoded") {
            collect(form: text, into: &found)
            for jwt in Self.jwtShaped(in: text) { found.add(jwt, .jwt) }
        } else {
            collect(text: text, into: &found)
        }
    }

    /// Values of credential names in query items (`?access_token=...`), decoded.
    public func collect(query items: [(name: String, value: String)], into found: inout Findings) {
        for item in items {
            if isCredentialName(item.name) {
                found.add(item.value, Self.kind(forName: item.name))
            } else {
                collect(text: item.value, into: &found, depth: 1)
            }
        }
    }

    /// Values of credential fields in a form-encoded body (`password=...&email=...`), decoded
    /// (the masker finds every encoding of a value).
    public func collect(form body: String, into found: inout Findings) {
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let decode = { (text: Substring) in
                // Most values hold neither `+` nor an escape: nothing to decode.
                guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
                return text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            let name = decode(parts[0])
            if isCredentialName(name) {
                found.add(decode(parts[1]), Self.kind(forName: name))
            } else {
                for jwt in Self.jwtShaped(in: decode(parts[1])) { found.add(jwt, .jwt) }
            }
        }
    }

    /// Values of credential parts in multipart form data (`name="password"`).
    public func collect(multipart body: String, into found: inout Findings) {
        // `\r\n` is one Character: lines are split after it becomes `\n`.
        let body = body.replacingOccurrences(of: "\r\n", with: "\n")
        guard let boundaryLine = body.split(separator: "\n", maxSplits: 1).first else { return }
        let boundary = boundaryLine.trimmingCharacters(in: .whitespaces)
        guard boundary.hasPrefix("--"), boundary.count > 2 else { return }
        for normalizedPart in body.components(separatedBy: boundary) {
            guard let split = normalizedPart.range(of: "\n\n") else { continue }
            let head = normalizedPart[..<split.lowerBound]
            var value = String(normalizedPart[split.upperBound...])
            if value.hasSuffix("\n") { value.removeLast() }
            guard let nameRange = head.range(of: "name=\"") else { continue }
            let name = head[nameRange.upperBound...].prefix { $0 != "\"" }
            if isCredentialName(String(name)) {
                found.add(value, Self.kind(forName: String(name)))
            } else {
                collect(text: value, into: &found, depth: 1)
            }
        }
    }

    /// Cookie values shorter than this are preferences (`theme=dark`), not credentials.
    static let minimumCookieLength = 8

    /// Header names whose whole value is a credential, besides `Authorization` and cookies.
    static let keyHeaderWords = ["apikey", "token", "secret", "auth", "session", "password", "signature"]

    /// What a header's name makes of its value.
    private enum HeaderRule {
        case authorization, cookie, setCookie, key, other
    }

    /// The rule for a header name; names repeat in every entry, so the built-in answer is remembered.
    private func headerRule(_ name: String) -> HeaderRule {
        guard extraKeys.isEmpty else { return decideHeaderRule(name) }
        if let known = Self.builtInHeaderRules.answer(for: name) { return known }
        let rule = decideHeaderRule(name)
        Self.builtInHeaderRules.remember(rule, for: name)
        return rule
    }

    private static let builtInHeaderRules = NameAnswers<HeaderRule>()

    private func decideHeaderRule(_ name: String) -> HeaderRule {
        let key = Self.normalized(name)
        switch key {
        case "authorization", "proxyauthorization": return .authorization
        case "cookie": return .cookie
        case "setcookie": return .setCookie
        default: return Self.keyHeaderWords.contains(where: key.contains) || isCredentialName(name) ? .key : .other
        }
    }

    /// The secrets of one header field.
    public func collect(header name: String, value: String, into found: inout Findings) {
        switch headerRule(name) {
        case .authorization:
            if let credential = Self.credentials(in: value).first { found.add(credential, .authorization) }
            // `Basic base64(user:password)`: the password is secret in its own right too.
            let parts = value.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "basic", let data = Data(base64Encoded: String(parts[1])),
                let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            {
                found.add(String(pair[pair.index(after: colon)...]), .password)
            }
        case .cookie:
            for pair in value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[1].count >= Self.minimumCookieLength { found.add(String(parts[1]), .cookie) }
            }
        case .setCookie:
            // Only the cookie's own value: attributes such as Path are not secret.
            let first = value.split(separator: ";").first.map(String.init) ?? ""
            let parts = first.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[1].count >= Self.minimumCookieLength { found.add(String(parts[1]), .cookie) }
        case .key:
            found.add(value, .apiKey)
        case .other:
            break
        }
        for jwt in Self.jwtShaped(in: value) { found.add(jwt, .jwt) }
    }

    /// Route words after which a path segment is a credential (`/reset/<token>`).
    static let credentialRoutes: Set<String> = [
        "reset", "resetpassword", "passwordreset", "passwordresets", "verify", "verification", "verifications", "confirm",
        "confirmation", "confirmations", "activate", "activation", "invite", "invites", "invitation", "invitations", "magic",
        "magiclink", "magiclinks", "unsubscribe", "token", "tokens", "apikeys", "secrets", "signin", "login", "recover", "recovery",
    ]

    /// The secret segments of a URL path: see the type's rule.
    public func collect(path: String, into found: inout Findings) {
        let path = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        let segments = path.split(separator: "/").map { part in
            // Only a segment with an escape needs Foundation to decode it.
            part.utf8.contains(UInt8(ascii: "%")) ? String(part).removingPercentEncoding ?? String(part) : String(part)
        }
        for (index, segment) in segments.enumerated() {
            if !Self.jwtShaped(in: segment).isEmpty {
                found.add(segment, .jwt)
                continue
            }
            // Short segments (`/items/42/like`) are neither shape: most end here.
            guard segment.utf8.count >= 8 else { continue }
            let hasDigit = segment.contains(where: \.isNumber)
            let hasLetter = segment.contains(where: \.isLetter)
            if segment.count >= 24, hasDigit, hasLetter {
                found.add(segment, .token)
            } else if index > 0, segment.count >= 8, hasLetter, Self.credentialRoutes.contains(Self.normalized(segments[index - 1])),
                hasDigit || (segment.contains(where: \.isUppercase) && segment.contains(where: \.isLowercase))
            {
                found.add(segment, .token)
            }
        }
    }

    // MARK: - Shapes

    /// The secret parts of a header value: `Bearer X` gives `X`; `a=1; b=2` cookie lists give
    /// each value.
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

    /// JWT-shaped values (`eyJ…` header, payload and signature), wherever they stand in `text`.
    public static func jwtShaped(in text: String) -> [String] {
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
private final class NameAnswers<Answer>: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String: Answer] = [:]

    func answer(for name: String) -> Answer? { lock.withLock { answers[name] } }

    func remember(_ answer: Answer, for name: String) {
        lock.withLock {
            // Names are a capture's keys, few and repeated; a flood of distinct ones is not kept.
            if answers.count < 10_000 { answers[name] = answer }
        }
    }
}
