/// An ordered list of header fields whose names compare case-insensitively.
///
/// Order and the original spelling of names are kept (a transcript shows what was sent);
/// lookups ignore case, as RFC 9110 requires.
public struct HTTPFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name as it was written.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates an empty list.
    public init() { fields = [] }

    /// Creates a list from fields, keeping their order.
    public init(_ fields: [Field]) { self.fields = fields }

    /// Creates a list from name–value pairs, keeping their order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field with this name (any case), or `nil`.
    /// Setting replaces every field of that name; setting `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            let index = fields.firstIndex { Self.same($0.name, name) }
            fields.removeAll { Self.same($0.name, name) }
            guard let newValue else { return }
            fields.insert(Field(name: name, value: newValue), at: index ?? fields.endIndex)
        }
    }

    /// Every value given for this name, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping any with the same name.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Whether a field of this name is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Whether both lists hold the same fields in the same order, ignoring the case of names.
    public static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool {
        lhs.normalized == rhs.normalized
    }

    /// Hashes the fields with their names lower-cased, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(normalized) }

    private var normalized: [Field] {
        fields.map { Field(name: $0.name.lowercased(), value: $0.value) }
    }

    /// Field names are ASCII tokens (RFC 9110), so only ASCII letters fold; a byte comparison
    /// also spares every lookup a trip through Foundation's locale-aware compare.
    private static func same(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { lower($0) == lower($1) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}

extension HTTPFields {
    /// Well-known header names, so call sites carry no string literals.
    public enum Name {
        /// `Authorization`
        public static let authorization = "Authorization"
        /// `Content-Type`
        public static let contentType = "Content-Type"
        /// `Accept`
        public static let accept = "Accept"
        /// `Retry-After`
        public static let retryAfter = "Retry-After"
        /// `Cookie`
        public static let cookie = "Cookie"
        /// `Set-Cookie`
        public static let setCookie = "Set-Cookie"
        /// `Date`
        public static let date = "Date"
    }
}
