import Foundation

/// A ``SessionStore`` backed by one JSON file, rewritten atomically on every change.
/// A corrupt file reads as the empty record.
public actor FileSessionStore: SessionStore {
    private let file: JSONFile<SessionRecord>

    /// Creates a store over the file at `url` (created on first change).
    public init(url: URL) {
        file = JSONFile(url: url)
    }

    /// The record in the file, or the empty record when it is missing or unreadable.
    public func record() -> SessionRecord { file.read() ?? .empty }

    /// Replaces the cached user (`nil` removes it) and rewrites the file.
    public func setUser(_ user: SessionUser?) throws {
        try update { $0.user = user }
    }

    /// Sets (or, with `nil`, removes) one preference and rewrites the file.
    public func setPreference(_ value: String?, forKey key: String) throws {
        try update { $0.preferences[key] = value }
    }

    /// Sets (or, with `nil`, removes) one scope's sync marker and rewrites the file.
    public func setSyncMarker(_ value: String?, forScope scope: String) throws {
        try update { $0.syncMarkers[scope] = value }
    }

    /// Deletes the file; a missing file is not an error.
    public func clear() throws { try file.remove() }

    // Read-modify-write inside the actor, so two changes cannot lose each other.
    private func update(_ change: (inout SessionRecord) -> Void) throws {
        var current = record()
        change(&current)
        try file.write(current)
    }
}
