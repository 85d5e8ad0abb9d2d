import Foundation

/// A JSON value: what scenarios, drivers and reports exchange.
///
/// Objects keep their keys in written order, so a value prints the same on every run.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this is one.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The integer, when this is a number without a fractional part.
    public var intValue: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) < 9e15 else { return nil }
        return Int(value)
    }

    /// The Boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The JSON type's name as a person would say it: "an object", "a string", ...
    package var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object that keeps its members in insertion order.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The members, in order.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// Creates an empty object.
    public init() { members = [] }

    /// Creates an object from ordered members; a repeated key keeps its last value.
    public init(_ members: [(String, JSONValue)]) {
        self.members = []
        for (key, value) in members { self[key] = value }
    }

    /// Creates an object from the written members, in order; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The value of `key`; setting `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// An object of members whose keys the caller knows are distinct (the parser has checked).
    package init(unchecked members: [(key: String, value: JSONValue)]) {
        self.members = members
    }

    /// Appends a member whose key the caller knows is new (the parser has checked): no search.
    package mutating func appendNew(_ key: String, _ value: JSONValue) {
        members.append((key, value))
    }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// Iterates over the members in order.
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        members.makeIterator()
    }

    /// Whether both objects have the same members, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Hashes the members sorted by key, so order does not matter, as for `==`.
    public func hash(into hasher: inout Hasher) {
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            hasher.combine(key)
            hasher.combine(value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    /// A `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A `.number`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A `.number`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An `.array`, in order.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An `.object`, in written order; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    /// `.null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// Decodes JSON bytes with Foundation, keeping object key order as written.
    /// Returns `nil` for bytes that are not JSON.
    public static func parse(_ data: Data) -> JSONValue? {
        try? JSONTextParser(data: data, file: "").parseDocument().value
    }
}
