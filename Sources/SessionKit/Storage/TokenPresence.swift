/// Which tokens are stored, without their values: what reports may show.
public struct TokenPresence: Sendable, Hashable, Codable {
    /// Whether an access token is stored.
    public var hasAccessToken: Bool
    /// Whether a refresh token is stored.
    public var hasRefreshToken: Bool

    /// Creates a presence record.
    public init(hasAccessToken: Bool, hasRefreshToken: Bool) {
        self.hasAccessToken = hasAccessToken
        self.hasRefreshToken = hasRefreshToken
    }

    /// Nothing stored.
    public static let none = TokenPresence(hasAccessToken: false, hasRefreshToken: false)
}
