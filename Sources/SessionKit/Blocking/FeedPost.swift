/// A post of the feed, with the fields the stack filters on and the rest kept as sent.
public struct FeedPost: Sendable, Hashable, Codable {
    /// The post's id.
    public var id: String
    /// The author's id.
    public var authorID: String
    /// Whether the server says the author blocked the caller.
    public var authorBlockedMe: Bool
    /// The post as the server sent it.
    public var json: JSONValue

    /// Reads a post; `nil` without an id or an author.
    public init?(json: JSONValue) {
        guard let id = json["id"]?.identifierValue, let author = json["author_id"]?.identifierValue else {
            return nil
        }
        self.id = id
        self.authorID = author
        self.authorBlockedMe = json["author_blocked_me"]?.boolValue ?? false
        self.json = json
    }
}
