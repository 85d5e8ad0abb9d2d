/// The signed-in user as the backend describes it (`GET /users/me`).
public struct SessionUser: Sendable, Hashable, Codable {
    /// The user's id.
    public var id: String
    /// The display name.
    public var name: String
    /// The email address.
    public var email: String
    /// Whether the account may be used.
    public var active: Bool
    /// Whether the account is deleted.
    public var isDeleted: Bool

    /// Creates a user.
    public init(id: String, name: String, email: String, active: Bool = true, isDeleted: Bool = false) {
        self.id = id
        self.name = name
        self.email = email
        self.active = active
        self.isDeleted = isDeleted
    }

    /// Reads a user object; `nil` without a usable `id`.
    ///
    /// `active` and `is_deleted` default to a usable account when absent, because the login
    /// and register answers may embed a shorter user object than `GET /users/me`.
    public init?(json: JSONValue?) {
        guard let json, let id = json["id"]?.identifierValue else { return nil }
        self.init(
            id: id,
            name: json["name"]?.stringValue ?? "",
            email: json["email"]?.stringValue ?? "",
            active: json["active"]?.boolValue ?? true,
            isDeleted: json["is_deleted"]?.boolValue ?? false)
    }

    /// Why the account may not hold a session, or `nil` when it may. Deleted outranks
    /// inactive: a deleted account is usually inactive too.
    public var unusableReason: SessionEndReason? {
        isDeleted ? .accountDeleted : (active ? nil : .accountInactive)
    }
}
