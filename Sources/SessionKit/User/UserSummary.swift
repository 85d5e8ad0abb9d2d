/// Another user as lists show them (search, related users).
public struct UserSummary: Sendable, Hashable, Codable {
    /// The user's id.
    public var id: String
    /// The display name.
    public var name: String
    /// Whether the server says this user blocked the caller.
    public var blockedMe: Bool

    /// Creates a summary.
    public init(id: String, name: String, blockedMe: Bool = false) {
        self.id = id
        self.name = name
        self.blockedMe = blockedMe
    }

    /// Reads a user object; `nil` without a usable `id`.
    public init?(json: JSONValue) {
        guard let id = json["id"]?.identifierValue else { return nil }
        self.init(
            id: id, name: json["name"]?.stringValue ?? "",
            blockedMe: json["blocked_me"]?.boolValue ?? false)
    }

    /// Reads `data.users`; entries without an id are skipped, a missing list is undecodable.
    static func list(from data: JSONValue?) throws(APIError) -> [UserSummary] {
        guard let users = data?["users"]?.arrayValue else { throw .undecodableBody }
        return users.compactMap(UserSummary.init(json:))
    }
}
