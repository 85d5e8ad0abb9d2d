/// Everything a session keeps on the device besides its tokens.
public struct SessionRecord: Sendable, Hashable, Codable {
    /// The cached current user.
    public var user: SessionUser?
    /// The session's preferences.
    public var preferences: [String: String]
    /// When each data scope was last synced (ISO 8601), by scope name.
    public var syncMarkers: [String: String]

    /// Creates a record; the default is the empty record a wipe leaves.
    public init(user: SessionUser? = nil, preferences: [String: String] = [:], syncMarkers: [String: String] = [:]) {
        self.user = user
        self.preferences = preferences
        self.syncMarkers = syncMarkers
    }

    /// The record of no session.
    public static let empty = SessionRecord()
}
