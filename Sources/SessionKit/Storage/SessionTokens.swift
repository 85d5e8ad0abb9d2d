/// The credentials of one session.
public struct SessionTokens: Sendable, Hashable, Codable {
    /// The bearer token sent on authenticated calls.
    public var accessToken: String
    /// The token that buys a new access token; `nil` when the server gave none.
    public var refreshToken: String?

    /// Creates a token pair.
    public init(accessToken: String, refreshToken: String?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}
