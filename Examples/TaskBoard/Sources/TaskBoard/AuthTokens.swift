/// The session's tokens: the access token every call carries and the refresh token that renews
/// it. The backend rotates the refresh token: each refresh answers with a new pair, and the old
/// refresh token is refused from then on.
public struct AuthTokens: Sendable, Hashable {
    /// The bearer token of every call.
    public var access: String
    /// The token `POST /auth/refresh` takes, spent by its use.
    public var refresh: String

    /// Creates a pair.
    public init(access: String, refresh: String) {
        self.access = access
        self.refresh = refresh
    }
}
