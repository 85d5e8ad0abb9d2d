/// A small XML element tree: what the JUnit writer builds and the JUnit merger reads back.
///
/// Attributes keep their order so output is stable; text is kept as written (unescaped).
package struct XMLMarkup: Sendable, Hashable {
    /// A piece of an element's content.
    package enum Child: Sendable, Hashable {
        /// A nested element.
        case element(XMLMarkup)
        /// Character data.
        case text(String)
    }

    /// The element's name.
    package var name: String
    /// Attributes in output order.
    package var attributes: [Attribute]
    /// Content in order.
    package var children: [Child]

    /// One attribute.
    package struct Attribute: Sendable, Hashable {
        /// Its name.
        package var name: String
        /// Its value, unescaped.
        package var value: String

        /// Creates an attribute.
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates an element.
    package init(_ name: String, _ attributes: [Attribute] = [], children: [Child] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// The value of an attribute, if present.
    package subscript(attribute name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// Sets, replaces or (with `nil`) removes an attribute, keeping the position of an existing one.
    package mutating func set(_ name: String, _ value: String?) {
        if let index = attributes.firstIndex(where: { $0.name == name }) {
            if let value { attributes[index].value = value } else { attributes.remove(at: index) }
        } else if let value {
            attributes.append(Attribute(name, value))
        }
    }

    /// Child elements, in order.
    package var elements: [XMLMarkup] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The concatenated character data directly inside this element.
    package var text: String {
        children.map { if case .text(let text) = $0 { text } else { "" } }.joined()
    }

    /// The XML declaration a document starts with, and its line break.
    package static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    /// A whole document: the XML declaration and this element, indented by two spaces.
    package var document: String {
        Self.declaration + rendered(level: 0)
    }

    /// This element as it stands in a document at `level` (indented by two spaces a level).
    package func rendered(level: Int) -> String {
        var out = ""
        write(to: &out, level: level)
        return out
    }

    /// The start tag as written at `level` before child elements, with its line break.
    package func startTag(level: Int) -> String { opening(level: level) + ">\n" }

    /// The end tag as written at `level` after child elements.
    package func endTag(level: Int) -> String {
        String(repeating: "  ", count: level) + "</" + name + ">\n"
    }

    /// The indentation, `<`, the name and the attributes.
    private func opening(level: Int) -> String {
        var out = String(repeating: "  ", count: level) + "<" + name
        for attribute in attributes {
            out += " " + attribute.name + "=\"" + Self.escapeAttribute(attribute.value) + "\""
        }
        return out
    }

    private func write(to out: inout String, level: Int) {
        if children.isEmpty {
            out += opening(level: level) + "/>\n"
        } else if elements.isEmpty {
            // Text-only content is written as is: indentation would become part of the text.
            out += opening(level: level) + ">" + Self.escapeText(text) + "</" + name + ">\n"
        } else {
            out += startTag(level: level)
            for child in children {
                switch child {
                case .element(let element): element.write(to: &out, level: level + 1)
                case .text(let text):
                    // Mixed content keeps its text; whitespace between elements is not content.
                    if !text.allSatisfy(\.isWhitespace) { out += Self.escapeText(text) + "\n" }
                }
            }
            out += endTag(level: level)
        }
    }

    /// Escapes character data: `&`, `<`, `>`, and drops characters XML 1.0 forbids.
    package static func escapeText(_ text: String) -> String { escape(text, inAttribute: false) }

    /// Escapes an attribute value: also quotes, and line breaks and tabs as character
    /// references so that attribute normalisation does not turn them into spaces.
    package static func escapeAttribute(_ text: String) -> String { escape(text, inAttribute: true) }

    private static func escape(_ text: String, inAttribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        // Reports escape megabytes of transcript: copy runs that need nothing whole. Every byte
        // that does is ASCII, except the lead byte 0xEF of U+FFFE and U+FFFF, which XML forbids.
        let utf8 = text.utf8
        var run = utf8.startIndex
        var index = run
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard
                byte < 0x20 || byte == 0xEF || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                    || (inAttribute && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")))
            else {
                utf8.formIndex(after: &index)
                continue
            }
            out += text[run..<index]
            let scalar = text.unicodeScalars[index]
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            case "\"" where inAttribute: out += "&quot;"
            case "'" where inAttribute: out += "&apos;"
            case "\n" where inAttribute: out += "&#10;"
            case "\t" where inAttribute: out += "&#9;"
            case _ where isAllowed(scalar): out.unicodeScalars.append(scalar)
            default: break
            }
            index = text.unicodeScalars.index(after: index)
            run = index
        }
        out += text[run..<index]
        return out
    }

    /// Whether XML 1.0 allows the character: tab, line feed, carriage return, and
    /// U+0020...U+D7FF, U+E000...U+FFFD, U+10000...U+10FFFF (Swift strings hold no surrogates).
    package static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
