/// What the owner of a ``VerificationState`` must do after an event.
public enum VerificationAction: Sendable, Hashable {
    /// Nothing.
    case none
    /// Send `POST /auth/phone/code`.
    case requestCode(phone: String, region: String)
    /// (Re)start the once-a-second countdown.
    case startCountdown
    /// Stop the countdown (it reached zero, or it is no longer wanted).
    case cancelCountdown
    /// Send `POST /auth/phone/verify`.
    case verify(verificationID: String, code: String)
    /// Show the sign-out confirmation alert.
    case presentSignOutConfirmation
    /// Sign out.
    case signOut
}
