/// An alert the app put on screen.
public struct AppAlert: Sendable, Hashable {
    /// The title.
    public var title: String
    /// The message.
    public var message: String
    /// Button titles, in order.
    public var actions: [String]

    /// Creates an alert.
    public init(title: String, message: String, actions: [String] = ["OK"]) {
        self.title = title
        self.message = message
        self.actions = actions
    }

    /// The one alert a blocked account gets.
    public static let accountBlocked = AppAlert(
        title: "Account Blocked", message: "Your account has been blocked. Please contact support.")

    /// What the server says when it asks for a wait longer than the app is willing to sleep.
    public static func tooManyRequests(message: String?) -> AppAlert {
        AppAlert(title: "Demasiados intentos", message: message ?? "Demasiados intentos. Intenta de nuevo más tarde.")
    }
}
