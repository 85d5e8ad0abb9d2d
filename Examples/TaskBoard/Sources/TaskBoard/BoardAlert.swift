/// An alert the board shows.
public struct BoardAlert: Sendable, Hashable {
    /// The title.
    public var title: String
    /// The message.
    public var message: String

    /// The session ended under the user: they must sign in again.
    public static let sessionExpired = BoardAlert(title: "Session Expired", message: "Please sign in again.")
}
