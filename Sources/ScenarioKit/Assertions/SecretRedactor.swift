import Foundation

/// Masks secrets in everything a run reports: tokens, passwords, cookies and codes that the
/// scenario mentions, and any credential in an `Authorization`, `Cookie` or `Set-Cookie` field.
public struct SecretRedactor: Sendable {
    /// What the `number`th distinct secret reads as once masked: `‹redacted#2›`. Numbers let a
    /// diff show that two tokens differ without showing either.
    public static func mask(_ number: Int) -> String { "‹redacted#\(number)›" }

    /// Member names whose values are secrets, whole (compared without case, `_`, `-` and `.`).
    static let secretKeys: Set<String> = [
        "code", "otp", "pin", "pincode", "sid", "jwt", "cookie", "setcookie", "authorization", "proxyauthorization",
        "sessionid", "apikey", "xapikey", "privatekey", "clientsecret", "signature", "credentials", "passcode",
    ]

    /// Parts of member names that make their values secret wherever they appear
    /// (`auth_token`, `current_password`, `api_secret`, `csrf_token`, `otp_code`, ...).
    static let secretKeyParts = [
        "token", "password", "passwd", "passphrase", "secret", "apikey", "privatekey", "sessionid", "csrf", "otpcode",
        "authcode", "verificationcode", "smscode", "credential",
    ]

    /// Names that contain a secret part but describe a credential rather than hold one.
    static let notSecretKeys: Set<String> = ["tokentype", "tokentypehint", "tokenexpiry", "tokenexpiresat", "passwordpolicy"]

    /// Secrets shorter than this are not masked: a one-character password must not mask every
    /// `1` in a report. Such values are too short to be real credentials anyway.
    public static let minimumLength = 4

    /// Each secret with its mask, longest first, so a secret that contains another is masked whole.
    private let masks: [(secret: String, mask: String)]
    private let enabled: Bool

    /// Creates a redactor for these secret values, numbered in the order given (repeats keep
    /// their first number); `enabled: false` leaves text as it is.
    public init(secrets: some Sequence<String>, enabled: Bool = true) {
        var numbered: [(secret: String, mask: String)] = []
        var seen: Set<String> = []
        var number = 0
        for secret in secrets where secret.count >= Self.minimumLength && seen.insert(secret).inserted {
            number += 1
            // Every form the value can take in a report shares its mask.
            for form in Self.encodings(of: secret) where form.count >= Self.minimumLength && (form == secret || seen.insert(form).inserted)
            {
                numbered.append((form, Self.mask(number)))
            }
        }
        self.masks = numbered.sorted { ($0.secret.count, $0.secret) > ($1.secret.count, $1.secret) }
        self.enabled = enabled
    }

    /// Every secret-looking string in a JSON value: values of secret keys, and the credential
    /// part of authorization-like header values.
    public static func secrets(in value: JSONValue, extraKeys: Set<String> = []) -> [String] {
        switch value {
        case .object(let object):
            return object.flatMap { member -> [String] in
                if isSecretKey(member.key, extra: extraKeys), let string = member.value.stringValue {
                    // A password is secret whole; an authorization-like value also by its parts.
                    return [string] + credentials(in: string)
                }
                if isSecretKey(member.key, extra: extraKeys), case .number = member.value {
                    return [member.value.compactText]  // a numeric one-time code
                }
                if isSecretKey(member.key, extra: extraKeys), case .object = member.value {
                    // `"tokens": {"access": …, "refresh": …}`: everything held under a secret name.
                    return leafStrings(member.value)
                }
                return secrets(in: member.value, extraKeys: extraKeys)
            }
        case .array(let elements): return elements.flatMap { secrets(in: $0, extraKeys: extraKeys) }
        case .string(let string): return jwtShaped(in: string)
        default: return []
        }
    }

    /// Every string and number inside a value.
    private static func leafStrings(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let string): return [string]
        case .number: return [value.compactText]
        case .array(let elements): return elements.flatMap(leafStrings)
        case .object(let object): return object.flatMap { leafStrings($0.value) }
        default: return []
        }
    }

    /// Whether values under this name are secrets (case, `_`, `-` and `.` ignored), by the
    /// built-in names or the `extra` ones a scenario or driver declares.
    static func isSecretKey(_ name: String, extra: Set<String> = []) -> Bool {
        let key = normalized(name)
        if notSecretKeys.contains(key) { return false }
        return secretKeys.contains(key) || extra.contains(key) || secretKeyParts.contains { Self.bytes(of: key, contain: $0) }
    }

    /// A member name as secret names are compared: lower case, without `_`, `-` and `.`.
    public static func normalized(_ name: String) -> String {
        name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." }
    }

    /// The forms a secret can take in a report: as is, percent-encoded, form-encoded,
    /// JSON-escaped and in base64.
    static func encodings(of secret: String) -> [String] {
        var forms = [secret]
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        if let percent = secret.addingPercentEncoding(withAllowedCharacters: unreserved) {
            forms.append(percent)
            forms.append(percent.replacingOccurrences(of: "%20", with: "+"))
        }
        var quoted = ""
        JSONValue.writeString(secret, to: &quoted)
        let escaped = String(quoted.dropFirst().dropLast())
        forms.append(escaped)
        // Encoders that escape `/` (Foundation's among them) write the same value so.
        forms.append(escaped.replacingOccurrences(of: "/", with: "\\/"))
        forms.append(Data(secret.utf8).base64EncodedString())
        var seen: Set<String> = []
        return forms.filter { seen.insert($0).inserted }
    }

    /// JWT-shaped values (`eyJ…` header, payload and signature), wherever they stand in `text`.
    public static func jwtShaped(in text: String) -> [String] {
        // Most strings hold no JWT: a byte scan says so without Foundation's slower search.
        guard bytes(of: text, contain: "eyJ") else { return [] }
        var found: [String] = []
        var rest = text[...]
        while let start = rest.range(of: "eyJ") {
            let tail = rest[start.lowerBound...]
            let token = tail.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
            if token.split(separator: ".", omittingEmptySubsequences: false).count == 3, token.count >= 20 { found.append(String(token)) }
            rest = rest[start.upperBound...]
        }
        return found
    }

    /// Whether `text` contains `part`, compared byte for byte (both are ASCII here, and UTF-8
    /// never matches an ASCII needle in the middle of a character).
    static func bytes(of text: String, contain part: String) -> Bool {
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

    /// Path segments that look like credentials: JWT-shaped, or 24 characters or more that mix
    /// letters and digits (`/reset/9f8a7b6c5d4e3f2a1b0c9d8e`).
    public static func secrets(inPath path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { segment in
            guard segment.count >= 24 else { return !jwtShaped(in: segment).isEmpty }
            return segment.contains(where: \.isNumber) && segment.contains(where: \.isLetter)
        }
    }

    /// Values of query parameters whose names are secret (`?token=...`).
    public static func secrets(inQuery items: [(name: String, value: String)], extraKeys: Set<String> = []) -> [String] {
        items.filter { isSecretKey($0.name, extra: extraKeys) && !$0.value.isEmpty }.map(\.value)
    }

    /// Values of secret fields in a form-encoded body (`password=...&email=...`).
    public static func secrets(inForm body: String, extraKeys: Set<String> = []) -> [String] {
        let pairs = body.split(separator: "&").compactMap { pair -> (name: String, value: String)? in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
            return (decode(parts[0]), decode(parts[1]))
        }
        return secrets(inQuery: pairs, extraKeys: extraKeys)
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
        // Reports are redacted line by line, so this runs for every secret on every line: search
        // UTF-8 bytes instead of through Foundation, which compares with Unicode equivalence and
        // was most of a scenario's cost. Only an ASCII secret is safe to find byte for byte.
        guard secret.utf8.allSatisfy({ $0 < 0x80 }) else { return replaceStandaloneByCharacter(secret, with: mask, in: text) }
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var needle = secret
            return needle.withUTF8 { needle in
                guard let first = needle.first, let start = bytes.baseAddress, let wanted = needle.baseAddress, bytes.count >= needle.count
                else { return text }
                var out: [UInt8] = []
                var copied = 0
                var index = 0
                let last = bytes.count - needle.count
                while index <= last {
                    guard bytes[index] == first, memcmp(start + index, wanted, needle.count) == 0 else {
                        index += 1
                        continue
                    }
                    let end = index + needle.count
                    if !wordCharacter(endingAt: index, in: bytes), !wordCharacter(startingAt: end, in: bytes) {
                        out.append(contentsOf: bytes[copied..<index])
                        out.append(contentsOf: mask.utf8)
                        copied = end
                    }
                    index = end
                }
                guard copied > 0 else { return text }
                out.append(contentsOf: bytes[copied...])
                return String(decoding: out, as: UTF8.self)
            }
        }
    }

    /// The same replacement for a secret with non-ASCII characters, compared as Foundation does.
    private static func replaceStandaloneByCharacter(_ secret: String, with mask: String, in text: String) -> String {
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

    /// Whether the character whose UTF-8 ends just before `offset` is part of a word.
    private static func wordCharacter(endingAt offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset > 0 else { return false }
        var start = offset - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return wordCharacter(startingAt: start, in: bytes)
    }

    /// Whether the character whose UTF-8 starts at `offset` is part of a word: a letter, a digit,
    /// `_`, `-` or `.`, or a combining mark (which belongs to the character before it).
    private static func wordCharacter(startingAt offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset < bytes.count else { return false }
        let byte = bytes[offset]
        if byte < 0x80 {
            let scalar = Unicode.Scalar(byte)
            return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        var iterator = bytes[offset...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return properties.isAlphabetic || properties.numericType != nil
        }
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
    }
}
