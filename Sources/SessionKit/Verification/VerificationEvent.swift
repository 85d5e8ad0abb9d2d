/// Everything that can happen to the phone-code sign-in: taps, answers, clock ticks.
public enum VerificationEvent: Sendable, Hashable {
    /// "Send code" tapped.
    case sendCodeTapped(phone: String, region: String)
    /// "Resend" tapped.
    case resendTapped
    /// The server sent a code; the countdown starts at `countdown` seconds.
    case codeSent(verificationID: String, countdown: Int)
    /// Sending the code failed.
    case codeRequestFailed(message: String)
    /// One second passed on the countdown.
    case countdownTicked
    /// The user typed a code.
    case codeEntered(String)
    /// "Verify" tapped.
    case verifyTapped
    /// The code was accepted and the user is signed in.
    case verified
    /// The code was refused.
    case verificationFailed(message: String)
    /// "Back" tapped.
    case backTapped
    /// "Sign out" tapped: confirmation needed.
    case signOutTapped
    /// The sign-out confirmation was accepted.
    case signOutConfirmed
    /// The sign-out confirmation was cancelled.
    case signOutCancelled
    /// The session was wiped.
    case reset
}
