/// One button of an alert.
public struct AlertAction: Sendable, Hashable, Codable {
    /// How a button is presented.
    public enum Role: String, Sendable, Hashable, Codable {
        /// A plain button.
        case `default`
        /// Dismisses without doing anything.
        case cancel
        /// Does something that cannot be undone.
        case destructive
    }

    /// The button's title.
    public var title: String
    /// The button's role.
    public var role: Role

    /// Creates an action.
    public init(title: String, role: Role = .default) {
        self.title = title
        self.role = role
    }
}
