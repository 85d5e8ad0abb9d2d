/// An alert the app put on screen (a `UIAlertController` on a device).
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

    /// The one alert a blocked account gets per session.
    public static let accountBlocked = AppAlert(title: "Account Blocked", message: "Your account has been blocked. Please contact support.")

    /// What the user sees when the server's rate limit was not waited out.
    public static func rateLimited(message: String) -> AppAlert {
        AppAlert(title: "Demasiados intentos", message: message)
    }

    /// The rate-limit message when the server's body has none.
    public static let rateLimitFallbackMessage = "Demasiados intentos. Intenta de nuevo más tarde."
}
