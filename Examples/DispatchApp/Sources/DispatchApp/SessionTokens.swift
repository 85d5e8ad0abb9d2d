/// The pair of tokens a signed-in session holds (the Keychain item, on a device).
public struct SessionTokens: Sendable, Hashable {
    /// Sent as `Authorization: Bearer …` on authenticated calls.
    public var access: String
    /// Sent to `POST /auth/refresh` when the access token expires.
    public var refresh: String?

    /// Creates a token pair.
    public init(access: String, refresh: String?) {
        self.access = access
        self.refresh = refresh
    }
}
