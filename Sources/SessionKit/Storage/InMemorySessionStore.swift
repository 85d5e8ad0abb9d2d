/// A ``SessionStore`` in memory only.
public actor InMemorySessionStore: SessionStore {
    private var stored: SessionRecord

    /// Creates a store, optionally holding a record already.
    public init(_ record: SessionRecord = .empty) {
        stored = record
    }

    /// The record held in memory.
    public func record() -> SessionRecord { stored }

    /// Replaces the cached user (`nil` removes it).
    public func setUser(_ user: SessionUser?) { stored.user = user }

    /// Sets (or, with `nil`, removes) one preference.
    public func setPreference(_ value: String?, forKey key: String) {
        stored.preferences[key] = value
    }

    /// Sets (or, with `nil`, removes) the sync marker of one scope.
    public func setSyncMarker(_ value: String?, forScope scope: String) {
        stored.syncMarkers[scope] = value
    }

    /// Resets to the empty record.
    public func clear() { stored = .empty }
}
