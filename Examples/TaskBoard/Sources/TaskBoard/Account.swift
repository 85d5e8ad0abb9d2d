/// The signed-in user, as `GET /me` and `POST /auth/login` describe them.
public struct Account: Codable, Sendable, Hashable {
    /// The user's id.
    public var id: String
    /// The name the board shows.
    public var name: String

    /// Creates an account.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
