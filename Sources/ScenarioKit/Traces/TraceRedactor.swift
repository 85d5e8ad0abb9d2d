import Foundation

/// Replaces the secrets of a capture with stable placeholders: credentials in `Authorization`,
/// `Cookie`, `Set-Cookie` and API-key style headers, JWT-shaped values anywhere, and token,
/// password, secret and code fields in JSON bodies, query strings and form bodies.
///
/// The same secret gets the same placeholder everywhere (`redacted-token-1`), so a token a login
/// answer returns still matches the `Authorization` header that later sends it, and a scenario
/// imported from the redacted trace still runs.
public struct TraceRedactor: Sendable {
    /// What a secret was found as; placeholders and the printed counts name it.
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        case authorization, cookie
        case apiKey = "api-key"
        case jwt, token, password, secret, code

        /// Kinds order as declared, so reports list them the same way every time.
        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// What was redacted: how many distinct secrets of each kind, never their values.
    public struct Report: Sendable, Hashable, CustomStringConvertible {
        /// Distinct secrets per kind.
        public var counts: [Kind: Int] = [:]
        /// Total distinct secrets.
        public var total: Int { counts.values.reduce(0, +) }

        /// `redacted 4 secrets: 2 authorization, 1 password, 1 token`.
        public var description: String {
            guard total > 0 else { return "redacted no secrets" }
            let parts = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }
            return "redacted \(total) secret\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
        }
    }

    /// Header names whose whole value is a credential, besides `Authorization` and cookies.
    static let keyHeaderWords = ["apikey", "token", "secret", "auth", "session", "password", "signature"]

    /// Cookie values shorter than this are preferences, not credentials.
    static let minimumCookieLength = 8

    /// Creates a redactor.
    public init() {}

    /// The capture with every secret replaced, and what was replaced.
    public func redact(_ log: HARLog) -> (log: HARLog, report: Report) {
        var finder = SecretFinder()
        for entry in log.entries { finder.collect(entry) }
        guard !finder.ordered.isEmpty else { return (log, Report()) }
        let replacer = Replacer(secrets: finder.ordered)
        var redacted = log
        redacted.entries = log.entries.map(replacer.redact)
        var report = Report()
        for secret in finder.ordered { report.counts[secret.kind, default: 0] += 1 }
        return (redacted, report)
    }

    /// The kind a secret found under this JSON, query or form name has.
    static func kind(forKey name: String) -> Kind {
        let key = name.lowercased().filter { $0 != "_" && $0 != "-" }
        if key.contains("password") { return .password }
        if key == "code" || key == "otp" { return .code }
        if key.contains("secret") { return .secret }
        if key.contains("cookie") { return .cookie }
        if key == "authorization" { return .authorization }
        if key == "apikey" { return .apiKey }
        return .token
    }

    /// Whether a word looks like a JWT: three base64url parts, the first a JSON header.
    static func isJWT(_ word: Substring) -> Bool {
        guard word.hasPrefix("eyJ"), word.count >= 20 else { return false }
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        return (parts.count == 3 || parts.count == 5) && parts[0].count >= 4 && parts[1].count >= 2
    }

    /// Splits text into runs of word characters (letters, digits, `_`, `-`, `.`) and the rest.
    static func forEachWord(in text: String, _ body: (Substring) -> Void) {
        var start: String.Index?
        var index = text.startIndex
        while index < text.endIndex {
            if isWordCharacter(text[index]) {
                if start == nil { start = index }
            } else if let wordStart = start {
                body(text[wordStart..<index])
                start = nil
            }
            index = text.index(after: index)
        }
        if let wordStart = start { body(text[wordStart...]) }
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
    }
}

/// Pass one: every secret in capture order, each with the kind it was first seen as.
private struct SecretFinder {
    var ordered: [(value: String, kind: TraceRedactor.Kind)] = []
    private var seen: Set<String> = []

    mutating func add(_ value: String, _ kind: TraceRedactor.Kind) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        // Placeholders of an already redacted trace are not secrets again.
        guard !trimmed.isEmpty, !trimmed.hasPrefix("redacted-"), seen.insert(trimmed).inserted else { return }
        ordered.append((trimmed, kind))
    }

    mutating func collect(_ entry: HARLog.Entry) {
        collect(headers: entry.request.headers, request: true)
        collect(url: entry.request.url)
        if let body = entry.request.body { collect(body: body, mimeType: entry.request.mimeType) }
        if let response = entry.response {
            collect(headers: response.headers, request: false)
            if let text = String(data: response.body, encoding: .utf8) { collect(body: text, mimeType: response.mimeType) }
        }
    }

    private mutating func collect(headers: [HARLog.Field], request: Bool) {
        for field in headers {
            let name = field.name.lowercased().filter { $0 != "_" && $0 != "-" }
            switch name {
            case "authorization", "proxyauthorization":
                if let credential = SecretRedactor.credentials(in: field.value).first { add(credential, .authorization) }
            case "cookie":
                for pair in field.value.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    // Preference cookies (`theme=dark`) are short; a short value replaced
                    // everywhere would eat ordinary words. Session cookies are long.
                    if parts.count == 2, parts[1].count >= TraceRedactor.minimumCookieLength { add(String(parts[1]), .cookie) }
                }
            case "setcookie":
                // Only the cookie's own value: attributes such as Path are not secret.
                let first = field.value.split(separator: ";").first.map(String.init) ?? ""
                let parts = first.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[1].count >= TraceRedactor.minimumCookieLength { add(String(parts[1]), .cookie) }
            default:
                if TraceRedactor.keyHeaderWords.contains(where: name.contains) || SecretRedactor.isSecretKey(name) {
                    add(field.value, .apiKey)
                }
            }
            collectJWTs(in: field.value)
        }
    }

    private mutating func collect(url: String) {
        if let items = URLComponents(string: url)?.queryItems {
            for item in items where SecretRedactor.isSecretKey(item.name) {
                if let value = item.value { add(value, TraceRedactor.kind(forKey: item.name)) }
            }
        }
        collectJWTs(in: url)
    }

    private mutating func collect(body: String, mimeType: String?) {
        if let json = JSONValue.parse(Data(body.utf8)) {
            collect(json: json)
        } else if mimeType?.contains("x-www-form-urlencoded") == true || (body.contains("=") && !body.contains(" ")) {
            for pair in body.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                guard SecretRedactor.isSecretKey(name) else { continue }
                // The raw (encoded) form is what the text holds; the decoded one what JSON would.
                add(String(parts[1]), TraceRedactor.kind(forKey: name))
                let decoded = String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
                if let decoded { add(decoded, TraceRedactor.kind(forKey: name)) }
            }
        }
        collectJWTs(in: body)
    }

    private mutating func collect(json: JSONValue) {
        switch json {
        case .object(let object):
            for member in object {
                if SecretRedactor.isSecretKey(member.key) {
                    switch member.value {
                    case .string(let text):
                        let kind = TraceRedactor.kind(forKey: member.key)
                        if kind == .authorization, let credential = SecretRedactor.credentials(in: text).first {
                            add(credential, kind)
                        } else {
                            add(text, kind)
                        }
                    case .number: add(member.value.compactText, TraceRedactor.kind(forKey: member.key))
                    default: collect(json: member.value)
                    }
                } else {
                    collect(json: member.value)
                }
            }
        case .array(let elements): for element in elements { collect(json: element) }
        default: break
        }
    }

    private mutating func collectJWTs(in text: String) {
        guard text.contains("eyJ") else { return }
        TraceRedactor.forEachWord(in: text) { word in
            if TraceRedactor.isJWT(word) { add(String(word), .jwt) }
        }
    }
}

/// Pass two: replaces each secret by its placeholder wherever it stands alone.
private struct Replacer {
    /// Secrets that are one word: found by splitting text into words, so cost stays linear.
    private var words: [Substring: String] = [:]
    /// Secrets with other characters (spaces, `=`, `%`): few, replaced by search, longest first.
    private var phrases: [(secret: String, placeholder: String)] = []

    init(secrets: [(value: String, kind: TraceRedactor.Kind)]) {
        var numbers: [TraceRedactor.Kind: Int] = [:]
        for secret in secrets {
            numbers[secret.kind, default: 0] += 1
            let placeholder = "redacted-\(secret.kind.rawValue)-\(numbers[secret.kind] ?? 0)"
            if secret.value.allSatisfy(TraceRedactor.isWordCharacter) {
                words[Substring(secret.value)] = placeholder
            } else {
                phrases.append((secret.value, placeholder))
            }
        }
        phrases.sort { $0.secret.count > $1.secret.count }
    }

    func redact(_ entry: HARLog.Entry) -> HARLog.Entry {
        var entry = entry
        entry.request.url = text(entry.request.url)
        entry.request.headers = entry.request.headers.map { HARLog.Field($0.name, text($0.value)) }
        entry.request.body = entry.request.body.map(body)
        if var response = entry.response {
            response.headers = response.headers.map { HARLog.Field($0.name, text($0.value)) }
            if let bodyText = String(data: response.body, encoding: .utf8) { response.body = Data(body(bodyText).utf8) }
            entry.response = response
        }
        return entry
    }

    /// JSON bodies are redacted value by value so numbers under secret keys become strings
    /// and the result is still JSON; other bodies as text.
    private func body(_ content: String) -> String {
        guard let json = JSONValue.parse(Data(content.utf8)), json.objectValue != nil || json.arrayValue != nil else {
            return text(content)
        }
        return redact(json: json).compactText
    }

    private func redact(json: JSONValue) -> JSONValue {
        switch json {
        case .string(let value): return .string(text(value))
        case .array(let elements): return .array(elements.map(redact(json:)))
        case .object(let object):
            return .object(
                JSONObject(
                    object.map { member -> (String, JSONValue) in
                        if case .number = member.value, SecretRedactor.isSecretKey(member.key),
                            let placeholder = words[Substring(member.value.compactText)]
                        {
                            return (member.key, .string(placeholder))
                        }
                        return (member.key, redact(json: member.value))
                    }))
        default: return json
        }
    }

    func text(_ value: String) -> String {
        var result = value
        for phrase in phrases where result.contains(phrase.secret) {
            result = result.replacingOccurrences(of: phrase.secret, with: phrase.placeholder)
        }
        guard !words.isEmpty else { return result }
        var out = ""
        var changed = false
        var last = result.startIndex
        TraceRedactor.forEachWord(in: result) { word in
            guard let placeholder = words[word] else { return }
            out += result[last..<word.startIndex]
            out += placeholder
            last = word.endIndex
            changed = true
        }
        guard changed else { return result }
        return out + result[last...]
    }
}
