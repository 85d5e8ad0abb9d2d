/// A ``SessionStore`` in memory only.
public actor InMemorySessionStore: SessionStore {
    private var stored: SessionRecord

    /// Creates a store, optionally holding a record already.
    public init(_ record: SessionRecord = .empty) {
        stored = record
    }

    public func record() -> SessionRecord { stored }

    public func setUser(_ user: SessionUser?) { stored.user = user }

    public func setPreference(_ value: String?, forKey key: String) {
        stored.preferences[key] = value
    }

    public func setSyncMarker(_ value: String?, forScope scope: String) {
        stored.syncMarkers[scope] = value
    }

    public func clear() { stored = .empty }
}
