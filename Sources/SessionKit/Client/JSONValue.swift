import Foundation

/// A decoded JSON document: the small, `Sendable` shape every response body is read into.
///
/// Bodies are read into this tree first and interpreted second, so that a body of the wrong
/// shape becomes a typed error instead of a decoding crash.
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`
    case null
    /// `true` or `false`
    case bool(Bool)
    /// Any JSON number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object; keys are unordered, as in JSON.
    case object([String: JSONValue])

    /// Decodes a body; `nil` when it is empty, not JSON at all, or nested deeper than
    /// ``JSONNesting/limit`` (which Foundation's decoder is never shown).
    public static func decode(_ data: Data) -> JSONValue? {
        guard !data.isEmpty, !JSONNesting.isTooDeep(data),
            let object = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        else { return nil }
        // Foundation's object tree, not `JSONDecoder`: decoding this enum through `Decodable`
        // throws and catches once per wrong guess at every node, which was most of the cost of
        // reading a response.
        return JSONValue(foundation: object)
    }

    /// The value of what `JSONSerialization` gives; `nil` for anything it never gives.
    private init?(foundation object: Any) {
        // Containers first: asking a Swift dictionary or array whether it is a Foundation
        // class bridges the whole of it.
        switch object {
        case let dictionary as [String: Any]:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                guard let value = JSONValue(foundation: element) else { return nil }
                members[key] = value
            }
            self = .object(members)
        case let array as [Any]:
            var elements: [JSONValue] = []
            elements.reserveCapacity(array.count)
            for element in array {
                guard let value = JSONValue(foundation: element) else { return nil }
                elements.append(value)
            }
            self = .array(elements)
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            // `true` and `false` come back as numbers too; only they are typed `c` (char).
            self = number.objCType.pointee == CChar(UInt8(ascii: "c")) ? .bool(number.boolValue) : .number(number.doubleValue)
        case is NSNull:
            self = .null
        default:
            return nil
        }
    }

    /// The compact JSON encoding, keys sorted so the bytes are the same on every run.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a value tree of plain JSON cases cannot fail, except for non-finite numbers;
        // those fall back to `null` rather than trapping.
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    /// Decodes any JSON value, trying null, boolean, number, string, array and object in that order.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON value of the same case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// The member of an object, or `nil` for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The string, or `nil` when this is not a string.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The boolean, or `nil` when this is not a boolean.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The number, or `nil` when this is not a number.
    public var numberValue: Double? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    /// The elements, or `nil` when this is not an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The members, or `nil` when this is not an object.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let value) = self else { return nil }
        return value
    }

    /// An identifier written either as a string or as an integral number (`"u1"` or `42`).
    public var identifierValue: String? {
        switch self {
        case .string(let value) where !value.isEmpty:
            return value
        case .number(let value) where value.rounded() == value && abs(value) < Self.exactIntegerLimit:
            return String(Int64(value))
        default:
            return nil
        }
    }

    /// Doubles represent every integer below 2^53 exactly; larger ones are not trusted as ids.
    private static let exactIntegerLimit: Double = 9_007_199_254_740_992
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A `.number`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A `.number`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// An `.array`, in order.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An `.object`; of duplicate keys, the last wins.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        // Later duplicates win, as most JSON parsers do.
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// `.null`.
    public init(nilLiteral: ()) { self = .null }
}
