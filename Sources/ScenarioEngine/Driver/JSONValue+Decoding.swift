import Foundation

extension JSONValue {
    /// The value decoded into a driver's own `Decodable` type, so a driver reads `given` and
    /// arguments as its own structs. The loader has already refused unknown and mistyped keys
    /// (against the driver's `GivenSpec` and `ArgumentSpec` shapes) with their place in the file;
    /// what is left here is a mismatch between those shapes and the type, named by its path.
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        do {
            return try decoder.decode(T.self, from: Data(compactText.utf8))
        } catch let error as DecodingError {
            throw DriverDecodingError(type: "\(T.self)", error: error)
        }
    }
}

extension DriverContext {
    /// The scenario's `given`, decoded into the driver's own type.
    public func given<T: Decodable>(as type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try given.decode(type, using: decoder)
    }
}

/// A `given` or an argument that does not fit the driver's type, with the JSON path that does not.
public struct DriverDecodingError: Error, CustomStringConvertible {
    /// The type that was asked for.
    package var type: String
    /// What the decoder said.
    package var error: DecodingError

    /// The path that does not fit, and why.
    public var description: String {
        let (path, reason): ([any CodingKey], String)
        switch error {
        case .typeMismatch(let expected, let context): (path, reason) = (context.codingPath, "expected \(expected)")
        case .valueNotFound(let expected, let context): (path, reason) = (context.codingPath, "expected \(expected), found null")
        case .keyNotFound(let key, let context): (path, reason) = (context.codingPath + [key], "missing")
        case .dataCorrupted(let context): (path, reason) = (context.codingPath, context.debugDescription)
        @unknown default: (path, reason) = ([], "\(error)")
        }
        let place = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return "cannot read $\(place) as \(type): \(reason); make the driver's GivenSpec or ArgumentSpec say what \(type) needs"
    }
}

extension Duration {
    /// A duration as scenarios write it (an argument or `given` member of type `.duration`):
    /// `"250ms"`, `"60s"`, `"1h30m"`.
    /// - Throws: what is wrong with `text`, and what to write instead.
    public init(scenarioText text: String) throws {
        self = try DurationText.parse(text)
    }
}
