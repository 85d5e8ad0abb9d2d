import Foundation

/// Secrets in HTML and XML bodies: a form field or meta tag of a credential name
/// (`<input name="csrf_token" value="…">`, `<meta name="csrf-token" content="…">`) and an
/// element of one (`<access_token>…</access_token>`).
extension RedactionPolicy {
    /// Collects the values of credential names in markup.
    func collect(markup text: String, into found: inout Findings) {
        let whole = NSRange(text.startIndex..., in: text)
        for match in Self.elements?.matches(in: text, range: whole) ?? [] {
            guard let name = Range(match.range(at: 1), in: text), let value = Range(match.range(at: 2), in: text) else { continue }
            let content = Self.decoded(text[value].trimmingCharacters(in: .whitespacesAndNewlines))
            if isCredentialName(String(text[name])), !content.isEmpty { found.add(content, Self.kind(forName: String(text[name]))) }
        }
        for match in Self.fieldTags?.matches(in: text, range: whole) ?? [] {
            guard let tag = Range(match.range, in: text) else { continue }
            var attributes: [String: String] = [:]
            let inTag = NSRange(tag, in: text)
            for attribute in Self.attributes?.matches(in: text, range: inTag) ?? [] {
                guard let name = Range(attribute.range(at: 1), in: text) else { continue }
                let quoted = Range(attribute.range(at: 2), in: text) ?? Range(attribute.range(at: 3), in: text)
                attributes[text[name].lowercased()] = quoted.map { Self.decoded(String(text[$0])) } ?? ""
            }
            guard let name = attributes["name"] ?? attributes["id"], isCredentialName(name),
                let value = attributes["value"] ?? attributes["content"], !value.isEmpty
            else { continue }
            found.add(value, Self.kind(forName: name))
        }
    }

    // Bodies are read 1 MiB at most, and none of these can backtrack far: `[^<]` and `[^>]` stop at
    // the next tag. (Not Sendable in every SDK; matching is thread-safe.)
    nonisolated(unsafe) private static let elements = try? NSRegularExpression(
        pattern: #"<([A-Za-z_][\w.:-]{0,63})(?:\s[^<>]*)?>([^<]{1,4096})</\1\s*>"#)
    nonisolated(unsafe) private static let fieldTags = try? NSRegularExpression(
        pattern: #"<(?:input|meta)\b[^<>]{0,4096}>"#, options: .caseInsensitive)
    nonisolated(unsafe) private static let attributes = try? NSRegularExpression(
        pattern: #"([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')"#)

    /// The text with the entities markup escapes with decoded.
    private static func decoded(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
