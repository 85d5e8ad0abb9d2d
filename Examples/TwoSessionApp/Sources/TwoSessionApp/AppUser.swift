/// The signed-in user, as `GET /users/me` and `POST /auth/login` describe it.
public struct AppUser: Sendable, Hashable, Codable {
    /// Server id.
    public var id: String
    /// Display name.
    public var name: String
    /// Email.
    public var email: String
    /// `false` when the account was deactivated.
    public var active: Bool?
    /// `true` when the account was deleted.
    public var isDeleted: Bool?

    /// Creates a user.
    public init(id: String, name: String, email: String, active: Bool? = nil, isDeleted: Bool? = nil) {
        self.id = id
        self.name = name
        self.email = email
        self.active = active
        self.isDeleted = isDeleted
    }

    /// Whether the account can hold a session at all.
    public var isUsable: Bool { active != false && isDeleted != true }

    enum CodingKeys: String, CodingKey {
        case id, name, email, active
        case isDeleted = "is_deleted"
    }
}
