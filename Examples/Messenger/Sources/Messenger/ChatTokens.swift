/// The signed-in user's tokens. The backend rotates the refresh token on every refresh and
/// revokes both at sign-out.
public struct ChatTokens: Sendable, Hashable {
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
