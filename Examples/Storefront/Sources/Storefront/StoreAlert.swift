/// An alert the shop shows.
public struct StoreAlert: Sendable, Hashable {
    /// The title.
    public var title: String
    /// The message.
    public var message: String

    /// The backend is busy; `seconds` is how long it asked to wait, when it said.
    public static func busy(retryAfter seconds: Int?) -> StoreAlert {
        StoreAlert(
            title: "The shop is busy", message: seconds.map { "Please try again in \($0) s." } ?? "Please try again in a moment.")
    }
}
