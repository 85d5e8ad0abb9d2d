/// How a password-reset request ended.
public enum PasswordResetOutcome: Sendable, Hashable {
    /// The server accepted it; its message for the user.
    case sent(message: String)
    /// Refused before any request (bad email, cooldown); the alert shown.
    case rejected(alert: SessionAlert)
    /// The request failed; the error and the alert shown.
    case failed(error: APIError, alert: SessionAlert)

    /// The alert shown, if any.
    public var alert: SessionAlert? {
        switch self {
        case .sent: nil
        case .rejected(let alert), .failed(_, let alert): alert
        }
    }
}
