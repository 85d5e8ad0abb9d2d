/// An alert the stack asks the UI to show.
public struct SessionAlert: Sendable, Hashable, Codable {
    /// The title.
    public var title: String
    /// The message.
    public var message: String
    /// The buttons, in order.
    public var actions: [AlertAction]

    /// Creates an alert; with no actions given, a single "OK".
    public init(title: String, message: String, actions: [AlertAction] = [.ok]) {
        self.title = title
        self.message = message
        self.actions = actions
    }
}

extension AlertAction {
    /// The plain acknowledgement button.
    public static let ok = AlertAction(title: "OK")
}
