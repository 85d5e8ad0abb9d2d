/// The signed-in user's tokens and the one refresh every service shares when an access token is
/// refused.
public actor CredentialStore {
    private let auth: AuthService
    private var tokens: ChatTokens?
    private var refreshInFlight: Task<ChatTokens, any Error>?
    // Moves on with every new session and every sign-out: a refresh that began before must not
    // store what it got.
    private var epoch = 0

    /// Creates the store, with the tokens a previous launch kept.
    public init(auth: AuthService, tokens: ChatTokens?) {
        self.auth = auth
        self.tokens = tokens
    }

    /// The tokens, when signed in.
    public var current: ChatTokens? { tokens }

    /// Stores a new session's tokens.
    public func store(_ tokens: ChatTokens) {
        self.tokens = tokens
        refreshInFlight = nil
        epoch += 1
    }

    /// Forgets the tokens.
    public func clear() {
        tokens = nil
        refreshInFlight = nil
        epoch += 1
    }

    /// New tokens after `refused` was refused: the ones a refresh already got, the refresh under
    /// way, or a refresh with the refused pair's refresh token that later callers share.
    public func renew(refused: ChatTokens) async throws -> ChatTokens {
        if let tokens, tokens.access != refused.access { return tokens }
        if let refreshInFlight { return try await refreshInFlight.value }
        let (auth, began) = (self.auth, epoch)
        let task = Task { try await auth.refresh(refused.refresh) }
        refreshInFlight = task
        defer { if epoch == began { refreshInFlight = nil } }
        do {
            let renewed = try await task.value
            guard epoch == began else { throw ChatError.signedOut }
            tokens = renewed
            return renewed
        } catch {
            if epoch == began { tokens = nil }
            throw error
        }
    }
}
