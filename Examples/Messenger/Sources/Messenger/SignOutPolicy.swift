/// What signing out does to the calls already on their way: how the messenger's releases sign
/// out.
public enum SignOutPolicy: String, Sendable, CaseIterable {
    /// What release 1.8.0 shipped: sign-out revokes the tokens and forgets them, and leaves the
    /// calls already sent running. Their late answers still act: a message sent just before
    /// comes back 401 and refreshes with the revoked token (then says the session expired), and
    /// the live sync shows what its long poll brought and polls again with the old token.
    case leaveCallsRunning
    /// Release 1.8.1: sign-out first cancels every call in flight and the live sync, so nothing
    /// they would have done happens and nothing authenticated is sent after it.
    case cancelCallsInFlight
}
