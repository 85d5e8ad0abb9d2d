import HTTPCore

/// One call to the backend, before tokens and encoding: what the client is asked to send.
public struct APIEndpoint: Sendable, Hashable {
    /// How the client treats session-level answers (401 and 403) to an authenticated call.
    public enum SessionHandling: Sendable, Hashable {
        /// Refresh on an expired token, end the session on a fatal 401/403 (the default).
        case standard
        /// Carry the token but never refresh or end the session: used for the best-effort
        /// logout, whose failure must not raise a second, alarming outcome.
        case bestEffort
    }

    /// The method.
    public var method: HTTPMethod
    /// The path, starting with `/`.
    public var path: String
    /// The query parameters.
    public var query: [HTTPRequest.QueryItem]
    /// The JSON body, if any.
    public var body: JSONValue?
    /// Whether the call carries `Authorization: Bearer <access token>`.
    public var authenticated: Bool
    /// How 401/403 answers are handled for an authenticated call.
    public var sessionHandling: SessionHandling

    /// Creates an endpoint.
    public init(
        method: HTTPMethod,
        path: String,
        query: [HTTPRequest.QueryItem] = [],
        body: JSONValue? = nil,
        authenticated: Bool = true,
        sessionHandling: SessionHandling = .standard
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.authenticated = authenticated
        self.sessionHandling = sessionHandling
    }
}
