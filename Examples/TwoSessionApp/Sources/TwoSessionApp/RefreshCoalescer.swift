/// The session's tokens, and the one refresh at a time that replaces them.
///
/// Every 401 of the api client comes here with the access token it was sent with. If that
/// token has been replaced since (a refresh finished while the request was on the wire), the
/// caller simply retries with the current one: spending the rotated refresh token again would
/// end the session. If a refresh is running, the caller waits for it. Otherwise the caller
/// starts one, through the auth client, and everybody who comes meanwhile shares it.
public actor RefreshCoalescer {
    private let auth: AuthAPI
    private var tokens: SessionTokens?
    private var refreshing: Task<Result<String, APIError>, Never>?
    // Bumped when the session's tokens are stored or cleared, so a refresh that outlives its
    // session cannot bring the tokens back.
    private var generation = 0

    /// Creates the coalescer with the stored tokens, refreshing through `auth`.
    public init(tokens: SessionTokens?, auth: AuthAPI) {
        self.tokens = tokens
        self.auth = auth
    }

    /// The access token to send now.
    public var accessToken: String? { tokens?.access }
    /// Whether a refresh token is stored.
    public var hasRefreshToken: Bool { tokens?.refresh != nil }

    /// Starts a session with new tokens.
    public func store(_ tokens: SessionTokens) {
        generation += 1
        self.tokens = tokens
        refreshing = nil
    }

    /// Forgets the tokens; returns the access token there was, for a server-side sign-out.
    @discardableResult
    public func clear() -> String? {
        let access = tokens?.access
        generation += 1
        tokens = nil
        refreshing = nil
        return access
    }

    /// An access token to retry with after `used` was refused: the current one when `used` was
    /// replaced already, else the result of the refresh running or started here.
    /// - Throws: ``APIError/sessionEnded`` when there is no session or the refresh failed.
    public func accessToken(replacing used: String?) async throws(APIError) -> String {
        if let refreshing { return try await refreshing.value.get() }
        guard let current = tokens else { throw .sessionEnded }
        if current.access != used { return current.access }
        guard let refreshToken = current.refresh else {
            clear()
            throw .sessionEnded
        }
        let session = generation
        let task = Task { () -> Result<String, APIError> in
            let outcome: Result<SessionTokens, APIError>
            do throws(APIError) {
                outcome = .success(try await auth.refresh(refreshToken: refreshToken))
            } catch {
                outcome = .failure(error)
            }
            // Still on this actor: the new tokens and the end of the refresh are one step, so
            // no caller ever sees "no refresh running" with the old token still stored.
            return self.finishRefresh(outcome, session: session)
        }
        refreshing = task
        return try await task.value.get()
    }

    private func finishRefresh(_ outcome: Result<SessionTokens, APIError>, session: Int) -> Result<String, APIError> {
        guard session == generation else { return .failure(.sessionEnded) }
        refreshing = nil
        switch outcome {
        case .success(let fresh):
            tokens = fresh
            return .success(fresh.access)
        case .failure:
            clear()
            return .failure(.sessionEnded)
        }
    }
}
