import Foundation

/// One call as the app states it; the client turns it into a `URLRequest` for each attempt.
public struct APIRequest: Sendable, Hashable {
    /// `GET`, `POST`, ...
    public var method: String
    /// The path below the client's base URL, such as `/feed`.
    public var path: String
    /// A JSON body.
    public var body: Data?
    /// Whether the call carries the session's bearer token (the api client's delegate adds it).
    public var isAuthenticated: Bool
    /// Header fields the caller sets itself.
    public var headers: [String: String]

    /// Creates a call.
    public init(_ method: String, _ path: String, body: Data? = nil, isAuthenticated: Bool = true, headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.body = body
        self.isAuthenticated = isAuthenticated
        self.headers = headers
    }

    /// A call with a JSON object of strings as its body, keys sorted so the bytes never change.
    public static func json(_ method: String, _ path: String, _ object: [String: String], isAuthenticated: Bool) -> APIRequest {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return APIRequest(method, path, body: try? encoder.encode(object), isAuthenticated: isAuthenticated)
    }
}

/// A successful answer (2xx, or whatever the delegate let through).
public struct APIResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var data: Data
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// How many times the call was sent (1 when it went through at once).
    public var attempts: Int

    /// Decodes the contract's success envelope `{"data": ...}`.
    public func decoded<Payload: Decodable>(_ type: Payload.Type) throws(APIError) -> Payload {
        guard let payload = try? JSONDecoder().decode(Envelope<Payload>.self, from: data).data else { throw .badBody }
        return payload
    }
}

// The contract's envelopes; every field optional, so an odd body decodes to "nothing usable".
struct Envelope<Payload: Decodable>: Decodable {
    var data: Payload?
}

struct ErrorEnvelope: Decodable {
    struct Item: Decodable { var message: String? }
    var errorCode: String?
    var errors: [Item]?
    enum CodingKeys: String, CodingKey {
        case errorCode = "error_code"
        case errors
    }

    static func read(_ data: Data) -> ErrorEnvelope? { try? JSONDecoder().decode(ErrorEnvelope.self, from: data) }
}
