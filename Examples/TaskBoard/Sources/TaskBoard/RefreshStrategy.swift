/// What the 401 interceptor does when a call comes back `401`: how the board's releases renew
/// an expired access token. Every call is sent again once with the token the strategy gives.
public enum RefreshStrategy: String, Sendable, CaseIterable {
    /// Each refused call refreshes on its own, with the refresh token it was sent with: what
    /// release 2.3.0 shipped. Two calls refused at once send two refreshes with one refresh
    /// token; the backend rotates refresh tokens, so the second is refused and the user is
    /// signed out.
    case perRequest
    /// One refresh for everyone (release 2.3.1): a call refused while a refresh is under way
    /// waits for it, and a call refused with a token a refresh already replaced uses the new one.
    case shared
}
