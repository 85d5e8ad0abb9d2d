import Foundation

/// Secrets in HTML and XML bodies: a form field or meta tag of a credential name
/// (`<input name="csrf_token" value="…">`, `<meta name="csrf-token" content="…">`) and an
/// element of one (`<access_token>…</access_token>`, CDATA too).
extension RedactionPolicy {
    /// Collects the values of credential names in markup.
    func collect(markup text: String, into found: inout Findings) {
        let whole = NSRange(text.startIndex..., in: text)
        for match in Self.elements?.matches(in: text, range: whole) ?? [] {
            guard let nameRange = Range(match.range(at: 1), in: text),
                let valueRange = Range(match.range(at: 2), in: text) ?? Range(match.range(at: 3), in: text)
            else { continue }
            let name = String(text[nameRange])
            let value = Self.decoded(text[valueRange].trimmingCharacters(in: .whitespacesAndNewlines))
            if isElementCredential(name), Self.isTokenLike(value) || Self.kind(forName: name) == .password && !value.isEmpty,
                !Self.isConstant(value, under: name)
            {
                found.add(value, Self.kind(forName: name))
            }
        }
        for match in Self.fieldTags?.matches(in: text, range: whole) ?? [] {
            guard let tag = Range(match.range, in: text) else { continue }
            let attributes = Self.attributes(of: text[tag])
            guard let name = attributes["name"] ?? attributes["id"], isCredentialName(name),
                let value = attributes["value"] ?? attributes["content"], !value.isEmpty, !isCount(value, under: name)
            else { continue }
            found.add(value, Self.kind(forName: name))
        }
        // Scripts and attributes: `window.App = {csrfToken: "…"}`, `<body data-csrf="…">`, a page's JSON data.
        collect(literals: text, into: &found)
    }

    /// Whether an element of this name holds a credential: HTML's `<code>` and the `<Code>` of
    /// cloud errors hold text, not a one-time code.
    func isElementCredential(_ name: String) -> Bool {
        Self.normalized(name) != "code" && isCredentialName(name)
    }

    /// The attributes of one tag, names lower-cased, values quoted or not, entities decoded.
    static func attributes(of tag: Substring) -> [String: String] {
        let text = String(tag)
        var attributes: [String: String] = [:]
        for attribute in attributePattern?.matches(in: text, range: NSRange(text.startIndex..., in: text)) ?? [] {
            guard let name = Range(attribute.range(at: 1), in: text) else { continue }
            let value = (2...4).lazy.compactMap { Range(attribute.range(at: $0), in: text) }.first
            attributes[text[name].lowercased()] = value.map { decoded(String(text[$0])) } ?? ""
        }
        return attributes
    }

    /// One word of text, as a token is: no white space, not a path.
    private static func isTokenLike(_ value: String) -> Bool {
        !value.isEmpty && !value.hasPrefix("/") && !value.contains(where: \.isWhitespace)
    }

    // Bodies are read 1 MiB at most, and none of these can backtrack far: `[^<]` and `[^>]` stop at
    // the next tag.
    private static let elementText = #"<([A-Za-z_][\w.:-]{0,63})(?:\s[^<>]*)?>(?:<!\[CDATA\[([^\]]{1,4096})\]\]>|([^<]{1,4096}))</\1\s*>"#
    private static let fieldTagText = #"<(?:input|meta)\b[^<>]{0,4096}>"#
    private static let attributeText = #"([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))"#
    #if canImport(Darwin)
        // Apple's SDKs do not all mark NSRegularExpression Sendable (Linux's Foundation does, and
        // warns of the attribute there); matching is thread-safe.
        nonisolated(unsafe) private static let elements = try? NSRegularExpression(pattern: elementText)
        nonisolated(unsafe) private static let fieldTags = try? NSRegularExpression(pattern: fieldTagText, options: .caseInsensitive)
        nonisolated(unsafe) private static let attributePattern = try? NSRegularExpression(pattern: attributeText)
    #else
        private static let elements = try? NSRegularExpression(pattern: elementText)
        private static let fieldTags = try? NSRegularExpression(pattern: fieldTagText, options: .caseInsensitive)
        private static let attributePattern = try? NSRegularExpression(pattern: attributeText)
    #endif

    /// The text with the entities markup escapes with decoded.
    private static func decoded(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
