import Foundation

/// Where secrets are: in JSON, text, bodies, queries, forms, multipart parts, headers and paths.
extension RedactionPolicy {
    /// Secrets in a JSON value: values of credential names, everything under `tokens` and
    /// the like, JWTs anywhere, and the same inside strings that hold JSON or a form.
    package func collect(json value: JSONValue, into found: inout Findings, depth: Int = 0) {
        switch value {
        case .object(let object):
            for (key, member) in object {
                if isCredentialName(key) {
                    let kind = Self.kind(forName: key)
                    switch member {
                    case .string(let text) where Self.isConstant(text, under: key):
                        break  // `"code": "USER_BLOCKED"`: the API's constant, not a one-time code
                    case .string(let text):
                        // A password is secret whole; an authorization-like value also by its parts.
                        found.add(text, kind)
                        for part in Self.credentials(in: text) { found.add(part, kind) }
                    // A numeric one-time code; under a plural (`max_tokens`, `secrets`) a count, and
                    // beside a message (`{"code": 40101, "msg": …}`) the API's error number.
                    case .number where !holdsCounts(key) && !Self.isEnvelopeCode(key, in: object):
                        found.add(member.compactText, kind)
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
    private func collectLeaves(_ value: JSONValue, kind: SecretKind, into found: inout Findings) {
        switch value {
        case .string(let string): found.add(string, kind)
        case .array(let elements): for element in elements { collectLeaves(element, kind: kind, into: &found) }
        case .object(let object): for (_, member) in object { collectLeaves(member, kind: kind, into: &found) }
        default: break
        }
    }

    /// Secrets in free text: JSON or a form it holds, and JWTs. `depth` stops JSON held in
    /// strings held in JSON from going on for ever.
    package func collect(text: String, into found: inout Findings, depth: Int = 0) {
        for jwt in Self.jwtShaped(in: text) { found.add(jwt, .jwt) }
        for key in Self.keyShaped(in: text) { found.add(key, .apiKey) }
        // What the text opens with, past white space and a byte order mark.
        let leading: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF]
        guard depth < 4, let first = text.utf8.first(where: { !leading.contains($0) }) else { return }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let json = JSONValue.parse(Data(text.utf8)) {
            collect(json: json, into: &found, depth: depth)
        } else if first == UInt8(ascii: "-"), text.hasPrefix("--"),
            SecretRedactor.bytes(of: text.lowercased(), contain: "content-disposition")
        {
            collect(multipart: text, into: &found)
        } else if first == UInt8(ascii: "<") {
            collect(markup: text, into: &found)
        } else if Self.looksLikeForm(text) {
            collect(form: text, into: &found)
        } else {
            collect(literals: text, into: &found)
        }
    }

    private static func looksLikeForm(_ text: String) -> Bool {
        text.utf8.contains(UInt8(ascii: "=")) && !text.utf8.contains(UInt8(ascii: " ")) && !text.utf8.contains(UInt8(ascii: "\n"))
    }

    /// Secrets in a body: JSON, a form or multipart form data (by the content type or the
    /// look of it), JWTs in any text, and in a body that is not text what
    /// ``collect(binary:contentType:into:)`` finds.
    package func collect(body: Data, contentType: String? = nil, into found: inout Findings) {
        guard !body.isEmpty else { return }
        if let json = JSONValue.parse(body) {
            collect(json: json, into: &found)
            return
        }
        if BodyKind.isBinary(body, contentType: contentType) {
            collect(binary: body, contentType: contentType, into: &found)
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
    package func collect(query items: [(name: String, value: String)], into found: inout Findings) {
        for item in items {
            if isCredentialName(item.name) && !isCount(item.value, under: item.name) || Self.isQueryKey(name: item.name, value: item.value)
            {
                found.add(item.value, Self.kind(forName: item.name))
            } else {
                collect(text: item.value, into: &found, depth: 1)
            }
        }
    }

    /// Values of credential fields in a form-encoded body (`password=...&email=...`), decoded
    /// (the masker finds every encoding of a value).
    package func collect(form body: String, into found: inout Findings) {
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let decode = { (text: Substring) in
                // Most values hold neither `+` nor an escape: nothing to decode.
                guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
                return text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            let name = decode(parts[0])
            let value = decode(parts[1])
            if isCredentialName(name), !isCount(value, under: name) {
                found.add(value, Self.kind(forName: name))
            } else {
                for jwt in Self.jwtShaped(in: value) { found.add(jwt, .jwt) }
            }
        }
    }

    /// Values of credential parts in multipart form data (`name="password"`).
    package func collect(multipart body: String, into found: inout Findings) {
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

    /// The cookies of one `Set-Cookie` line that joins several with commas (`a=1; Path=/, b=2`):
    /// a comma starts a new cookie when a `name=` follows it; the comma of an `Expires` date does not.
    static func joinedCookies(in line: Substring) -> [Substring] {
        var cookies: [Substring] = []
        var start = line.startIndex
        var at = line.startIndex
        while let comma = line[at...].firstIndex(of: ",") {
            let rest = line[line.index(after: comma)...].drop { $0 == " " }
            let name = rest.prefix { $0 != "=" && $0 != ";" && $0 != "," && $0 != " " }
            if !name.isEmpty, rest.dropFirst(name.count).first == "=" {
                cookies.append(line[start..<comma])
                start = rest.startIndex
            }
            at = line.index(after: comma)
        }
        cookies.append(line[start...])
        return cookies
    }

    /// Cookie values shorter than this are preferences (`theme=dark`), not credentials.
    static let minimumCookieLength = 8

    /// Header names whose whole value is a credential, besides `Authorization` and cookies.
    static let keyHeaderWords = [
        "apikey", "token", "secret", "auth", "session", "password", "signature", "accesskey", "subscriptionkey", "clientkey",
    ]

    /// Headers that name credentials without holding one: CORS's (`Access-Control-Allow-Credentials:
    /// true`, `Access-Control-Allow-Headers: Authorization`), `Vary`, and the challenges a server
    /// sends (`WWW-Authenticate: Bearer realm="api"`).
    private static func namesWithoutHolding(_ key: String) -> Bool {
        key.hasPrefix("accesscontrol") || key == "vary" || key == "wwwauthenticate" || key == "proxyauthenticate"
            || aboutACredential.contains { key.hasSuffix($0) }
    }

    /// Last words of a header that tells something about a credential, not the credential itself
    /// (`X-OAuth-Scopes`, `X-Session-Expires`, `X-Token-TTL`).
    private static let aboutACredential = ["scopes", "scope", "expires", "expiry", "expiresat", "ttl", "timestamp", "date", "type"]

    /// Cookies that keep a preference or an analytics id, whatever their length.
    private static let preferenceCookies: Set<String> = [
        "tz", "timezone", "consent", "cookieconsent", "locale", "lang", "language", "theme", "currency", "country", "ga", "gid", "gat",
    ]

    /// Headers whose value is a URL: its query and fragment are looked into as a query is
    /// (`Location: myapp://cb#access_token=…`).
    private static let urlHeaders: Set<String> = ["location", "contentlocation", "refresh", "link"]

    /// What a header's name makes of its value.
    private enum HeaderRule {
        case authorization, cookie, setCookie, key, url, other
    }

    /// The rule for a header name; names repeat in every entry, so the built-in answer is remembered.
    private func headerRule(_ name: String) -> HeaderRule {
        guard extraKeys.isEmpty else { return decideHeaderRule(name) }
        return Self.builtInHeaderRules.answer(for: name) { decideHeaderRule(name) }
    }

    private static let builtInHeaderRules = NameAnswers<HeaderRule>()

    private func decideHeaderRule(_ name: String) -> HeaderRule {
        let key = Self.normalized(name)
        switch key {
        case "authorization", "proxyauthorization": return .authorization
        case "cookie": return .cookie
        case "setcookie": return .setCookie
        case _ where Self.urlHeaders.contains(key): return .url
        case _ where Self.namesWithoutHolding(key): return .other
        default: return Self.keyHeaderWords.contains(where: key.contains) || isCredentialName(name) ? .key : .other
        }
    }

    /// The secrets of one header field.
    package func collect(header name: String, value: String, into found: inout Findings) {
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
            for pair in value.split(separator: ";") { addCookie(pair, into: &found) }
        case .setCookie:
            // Only each cookie's own value: attributes such as Path are not secret. Browsers'
            // exports join several `Set-Cookie`s in one value, a line each.
            for line in value.split(whereSeparator: \.isNewline) {
                for cookie in Self.joinedCookies(in: line) {
                    if let first = cookie.split(separator: ";").first { addCookie(first, into: &found) }
                }
            }
        case .key:
            found.add(value, .apiKey)
        case .url:
            collect(urlsIn: value, into: &found)
        case .other:
            break
        }
        for jwt in Self.jwtShaped(in: value) { found.add(jwt, .jwt) }
    }

    /// A cookie's value (`name=value`) of ``minimumCookieLength`` or more, also as it reads
    /// percent-decoded: cookies often carry text encoded.
    private func addCookie(_ pair: Substring, into found: inout Findings) {
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, parts[1].count >= Self.minimumCookieLength,
            !Self.preferenceCookies.contains(Self.normalized(parts[0].trimmingCharacters(in: .whitespaces)))
        else { return }
        let value = String(parts[1]).trimmingCharacters(in: .whitespaces)
        found.add(value, .cookie)
        if value.utf8.contains(UInt8(ascii: "%")), let decoded = value.removingPercentEncoding, decoded != value {
            found.add(decoded, .cookie)
        }
    }

    /// Secrets in the URLs of a URL-valued header: `Location: URL`, `Link: <URL>; rel="next", <URL>…`,
    /// `Refresh: 0; url=URL`.
    private func collect(urlsIn value: String, into found: inout Findings) {
        if value.contains("<") {
            for part in value.split(separator: "<", omittingEmptySubsequences: false).dropFirst() {
                if let end = part.firstIndex(of: ">") { collect(url: String(part[..<end]), into: &found) }
            }
        } else if let at = value.range(of: "url=", options: .caseInsensitive) {
            collect(url: value[at.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: " '\"")), into: &found)
        } else {
            collect(url: value, into: &found)
        }
    }

    /// Secrets in a URL (a header's, or a request's): its path, its query as a query and as a
    /// form, and its fragment, where an implicit grant puts its tokens (`#access_token=…`).
    package func collect(url: String, into found: inout Findings) {
        for jwt in Self.jwtShaped(in: url) { found.add(jwt, .jwt) }
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") {
            collect(form: String(rest[rest.index(after: hash)...]), into: &found)
            rest = rest[..<hash]
        }
        // Not a URL Foundation reads: looked into as free text.
        guard let components = URLComponents(string: String(rest)) else { return collect(text: String(rest), into: &found) }
        collect(path: components.percentEncodedPath, into: &found)
        if let query = components.percentEncodedQuery {
            // As a form: `+` is a space there, and each value is found decoded and as written.
            collect(form: query, into: &found)
            collect(query: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, into: &found)
        }
    }

    /// Path words after which a path segment is a credential (`/reset/<token>`).
    static let credentialPathWords: Set<String> = [
        "reset", "resetpassword", "passwordreset", "passwordresets", "verify", "verification", "verifications", "confirm",
        "confirmation", "confirmations", "activate", "activation", "invite", "invites", "invitation", "invitations", "magic",
        "magiclink", "magiclinks", "unsubscribe", "token", "tokens", "apikeys", "secrets", "signin", "login", "recover", "recovery",
    ]

    /// `8-4-4-4-12` hexadecimal digits (a file extension after it allowed): a resource's id.
    static func isUUID(_ segment: String) -> Bool {
        let stem = segment.split(separator: ".", maxSplits: 1).first ?? Substring(segment)
        let groups = stem.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// The secret segments of a URL path: see the type's rule.
    package func collect(path: String, into found: inout Findings) {
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
            let afterPathWord = index > 0 && Self.credentialPathWords.contains(Self.normalized(segments[index - 1]))
            if segment.count >= 24, hasDigit, hasLetter, afterPathWord || !Self.isUUID(segment) {
                found.add(segment, .token)
            } else if index > 0, segment.count >= 8, hasLetter, Self.credentialPathWords.contains(Self.normalized(segments[index - 1])),
                hasDigit || (segment.contains(where: \.isUppercase) && segment.contains(where: \.isLowercase))
            {
                found.add(segment, .token)
            }
        }
    }
}
