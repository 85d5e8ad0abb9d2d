import Foundation

/// One call of the shop's API.
public struct StoreRequest: Sendable, Hashable {
    /// `GET`, `POST`, ...
    public var method: String
    /// The path below the base URL.
    public var path: String
    /// Query items, in order.
    public var query: [URLQueryItem]
    /// A JSON body, if any.
    public var body: Data?

    /// Creates a request.
    public init(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
    }

    /// A JSON body with sorted keys: a dictionary's order changes between runs, a request must not.
    public static func json(_ object: [String: String]) -> Data? {
        try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
