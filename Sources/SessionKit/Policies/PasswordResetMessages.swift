/// The wording of the password-reset flow's alerts, and the rules that pick it.
public enum PasswordResetMessages {
    /// Title of the empty-email alert.
    public static let emailRequiredTitle = "Email Required"
    /// Message of the empty-email alert.
    public static let emailRequiredMessage = "Please enter your email address"
    /// Title of the malformed-email alert.
    public static let invalidEmailTitle = "Invalid Email"
    /// Message of the malformed-email alert.
    public static let invalidEmailMessage = "Please enter a valid email address"
    /// Title of the client-side cooldown alert.
    public static let cooldownTitle = "Too Many Requests"
    /// Title of the server's 429 alert.
    public static let rateLimitedTitle = "Demasiados intentos"
    /// Title of every other failure.
    public static let errorTitle = "Error"
    /// A 400/422 without a readable message.
    public static let invalidRequestMessage = "Invalid request"
    /// Any 5xx.
    public static let serverErrorMessage = "Server error"
    /// A success without a message.
    public static let sentFallbackMessage = "If an account exists for this email, a reset link has been sent."

    private static let secondsPerMinute: Int64 = 60
    private static let secondsPerHour: Int64 = 3_600

    /// "Please wait N seconds before requesting again", N rounded up.
    public static func cooldownMessage(remaining: Duration) -> String {
        "Please wait \(ResetCooldown.wholeSecondsRoundedUp(remaining)) seconds before requesting again"
    }

    /// The 429 message: whole hours from one hour up, else whole minutes from one minute up,
    /// else (no usable `Retry-After`, or under a minute) the server's own message.
    public static func rateLimitMessage(retryAfter: Duration?, serverMessage: String) -> String {
        guard let seconds = retryAfter?.components.seconds else { return serverMessage }
        let prefix = "Has intentado restablecer tu contraseña demasiadas veces. Por favor, intenta de nuevo en"
        if seconds >= secondsPerHour {
            return "\(prefix) \(seconds / secondsPerHour) hora(s)."
        }
        if seconds >= secondsPerMinute {
            return "\(prefix) \(seconds / secondsPerMinute) minuto(s)."
        }
        return serverMessage
    }

    /// A network failure, naming what the transport reported.
    public static func networkMessage(_ code: String) -> String {
        "Network error (\(code)). Check your connection and try again."
    }

    /// The alert for a failed request.
    public static func failureAlert(for error: APIError) -> SessionAlert {
        switch error {
        case .rateLimited(let message, let retryAfter):
            return SessionAlert(
                title: rateLimitedTitle,
                message: rateLimitMessage(retryAfter: retryAfter, serverMessage: message))
        case .badRequest, .validationFailed:
            return SessionAlert(title: errorTitle, message: error.serverMessage ?? invalidRequestMessage)
        case .serverError, .serviceUnavailable:
            return SessionAlert(title: errorTitle, message: serverErrorMessage)
        case .transport(let code):
            return SessionAlert(title: errorTitle, message: networkMessage(code.rawValue))
        case .offline:
            return SessionAlert(title: errorTitle, message: networkMessage(error.code))
        default:
            return SessionAlert(title: errorTitle, message: "Something went wrong (\(error.code)). Please try again.")
        }
    }
}
