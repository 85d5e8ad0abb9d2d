import Foundation

/// An HTTP request as the stack means it: method, path relative to the backend, query,
/// header fields and an optional body. Hosts are the transport's business.
public struct HTTPRequest: Sendable, Hashable {
    /// One query parameter; a `nil` value is a bare name (`?flag`).
    public struct QueryItem: Sendable, Hashable {
        /// The parameter name.
        public var name: String
        /// The parameter value.
        public var value: String?

        /// Creates a query parameter.
        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// The method.
    public var method: HTTPMethod
    /// The path, starting with `/`, without the query.
    public var path: String
    /// The query parameters, in order.
    public var query: [QueryItem]
    /// The header fields.
    public var headers: HTTPFields
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    public init(
        method: HTTPMethod,
        path: String,
        query: [QueryItem] = [],
        headers: HTTPFields = [:],
        body: Data? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The path with the percent-encoded query, as it goes on the request line.
    public var target: String {
        guard !query.isEmpty else { return path }
        var components = URLComponents()
        components.queryItems = query.map { URLQueryItem(name: $0.name, value: $0.value) }
        return path + "?" + (components.percentEncodedQuery ?? "")
    }
}
