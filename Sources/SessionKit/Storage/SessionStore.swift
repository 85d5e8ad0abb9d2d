/// Where the session's non-secret data lives: cached user, preferences, sync markers.
public protocol SessionStore: Sendable {
    /// The stored record; an unreadable store reads as ``SessionRecord/empty``.
    func record() async -> SessionRecord
    /// Replaces the cached user (`nil` removes it).
    func setUser(_ user: SessionUser?) async throws
    /// Sets (or, with `nil`, removes) one preference.
    func setPreference(_ value: String?, forKey key: String) async throws
    /// Sets (or, with `nil`, removes) the sync marker of one scope.
    func setSyncMarker(_ value: String?, forScope scope: String) async throws
    /// Removes everything.
    func clear() async throws
}
