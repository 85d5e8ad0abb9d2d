/// The signed-in user's own account: load, update, delete, related users, preferences.
public actor UserSession {
    private let client: APIClient
    private let sessionStore: any SessionStore
    private let auth: AuthSession

    init(client: APIClient, sessionStore: any SessionStore, auth: AuthSession) {
        self.client = client
        self.sessionStore = sessionStore
        self.auth = auth
    }

    /// The cached user, without a request.
    public func cachedUser() async -> SessionUser? {
        await sessionStore.record().user
    }

    /// Loads the current user (`GET /users/me`) and caches it.
    /// - Throws: ``APIError/accountInactive`` / ``APIError/accountDeleted`` (and ends the
    ///   session) when the answer says the account is unusable.
    @discardableResult
    public func loadUser() async throws(APIError) -> SessionUser {
        let session = await auth.currentSession
        let response = try await client.send(.currentUser)
        return try await accept(response.data, session: session)
    }

    /// Updates profile fields (`PATCH /users/me`) and caches the answer.
    @discardableResult
    public func updateUser(_ fields: [String: JSONValue]) async throws(APIError) -> SessionUser {
        let session = await auth.currentSession
        let response = try await client.send(.updateCurrentUser(fields))
        // Some deployments wrap the user as `data.user`; both shapes are accepted.
        let data = response.data?["user"] ?? response.data
        return try await accept(data, session: session)
    }

    /// Deletes the account (`DELETE /users/me`), then ends the session locally.
    /// An answer that lands after that session ended (a sign-out, a new sign-in) leaves the
    /// next session alone.
    public func deleteAccount() async throws(APIError) {
        let session = await auth.currentSession
        _ = try await client.send(.deleteCurrentUser)
        await auth.endLocally(ifSession: session)
    }

    /// Users related to the current one (`GET /users/related`).
    public func relatedUsers() async throws(APIError) -> [UserSummary] {
        let response = try await client.send(.relatedUsers)
        return try UserSummary.list(from: response.data)
    }

    /// The session's preferences.
    public func preferences() async -> [String: String] {
        await sessionStore.record().preferences
    }

    /// Sets (or, with `nil`, removes) a preference of this session.
    public func setPreference(_ value: String?, forKey key: String) async throws(APIError) {
        do {
            try await sessionStore.setPreference(value, forKey: key)
        } catch {
            throw .storageFailed
        }
    }

    /// Takes a user answer for the session the request was sent in (`session`).
    private func accept(_ data: JSONValue?, session: Int) async throws(APIError) -> SessionUser {
        guard let user = SessionUser(json: data) else { throw .undecodableBody }
        if let reason = user.unusableReason {
            await auth.endSession(reason, ifSession: session)
            throw reason.error
        }
        guard await auth.remember(user, forSession: session) else { throw .sessionExpired }
        return user
    }
}
