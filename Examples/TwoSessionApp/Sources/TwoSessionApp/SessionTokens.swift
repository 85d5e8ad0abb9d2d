/// The token pair of a signed-in session.
public struct SessionTokens: Sendable, Hashable {
    /// Sent as `Authorization: Bearer …` by the api client.
    public var access: String
    /// Spent on `POST /auth/refresh` by the auth client; the server rotates it.
    public var refresh: String?

    /// Creates a token pair.
    public init(access: String, refresh: String?) {
        self.access = access
        self.refresh = refresh
    }
}
