/// Blocking other users, and the in-memory set of ids the signed-in user blocked, which
/// search and feed results are filtered with (in both directions).
public actor BlockingService {
    private let client: APIClient
    private let sessionStore: any SessionStore
    private let connectivity: any ConnectivitySource
    // A set: blocking the same user twice, or twice at once, leaves one entry.
    private var blocked: Set<String> = []
    // Bumped by every wipe, so an answer that arrives after the session ended cannot
    // repopulate the cache of a session that no longer exists.
    private var epoch = 0

    init(client: APIClient, sessionStore: any SessionStore, connectivity: any ConnectivitySource) {
        self.client = client
        self.sessionStore = sessionStore
        self.connectivity = connectivity
    }

    /// The cached blocked ids, sorted so every report reads the same.
    public func blockedIDs() -> [String] { blocked.sorted() }

    /// Whether `userID` is in the cache.
    public func isBlocked(_ userID: String) -> Bool { blocked.contains(userID) }

    /// Replaces the cache with the server's list (`GET /users/me/blocked`).
    public func reload() async throws(APIError) {
        try await listBlocked()
    }

    /// The server's list of blocked ids, in the server's order; also refreshes the cache.
    @discardableResult
    public func listBlocked() async throws(APIError) -> [String] {
        let started = epoch
        let ids = try await fetchBlocked()
        if epoch == started { blocked = Set(ids) }
        return ids
    }

    /// Blocks a user (`PUT /users/{id}/block`); idempotent.
    /// - Throws: ``APIError/cannotBlockSelf`` or ``APIError/offline`` before any request;
    ///   the request's error otherwise. The cache changes only on success.
    public func block(_ userID: String) async throws(APIError) {
        try await checkCanSend(for: userID)
        let started = epoch
        _ = try await client.send(.block(userID: userID))
        if epoch == started { blocked.insert(userID) }
    }

    /// Unblocks a user (`DELETE /users/{id}/block`); idempotent. Follow relationships are not
    /// restored: that is the server's business, and it chose not to.
    public func unblock(_ userID: String) async throws(APIError) {
        guard await connectivity.isOnline() else { throw .offline }
        let started = epoch
        _ = try await client.send(.unblock(userID: userID))
        if epoch == started { blocked.remove(userID) }
    }

    /// Searches users (`GET /users/search?q=`), dropping those I blocked and those who
    /// blocked me.
    public func search(_ query: String) async throws(APIError) -> [UserSummary] {
        let response = try await client.send(.searchUsers(query))
        return try UserSummary.list(from: response.data).filter { user in
            !user.blockedMe && !blocked.contains(user.id)
        }
    }

    /// The feed (`GET /feed`), without posts by users I blocked or who blocked me.
    public func feed() async throws(APIError) -> [FeedPost] {
        let response = try await client.send(.feed)
        guard let posts = response.data?["posts"]?.arrayValue else { throw .undecodableBody }
        return posts.compactMap(FeedPost.init(json:)).filter { post in
            !post.authorBlockedMe && !blocked.contains(post.authorID)
        }
    }

    /// Empties the cache (sign-out, wipe).
    public func clear() {
        epoch += 1
        blocked = []
    }

    private func checkCanSend(for userID: String) async throws(APIError) {
        if let me = await sessionStore.record().user?.id, me == userID {
            throw .cannotBlockSelf
        }
        guard await connectivity.isOnline() else { throw .offline }
    }

    private func fetchBlocked() async throws(APIError) -> [String] {
        let response = try await client.send(.blockedUsers)
        guard let entries = response.data?["blocked"]?.arrayValue else { throw .undecodableBody }
        return entries.compactMap { $0["id"]?.identifierValue }
    }
}
