import Foundation

/// The phone-code sign-in screen's state, and the reducer that moves it.
///
/// Pure: ``handle(_:)`` changes the state and returns the one ``VerificationAction`` the owner
/// performs, so every transition is tested without a clock or a network.
public struct VerificationState: Sendable, Hashable, Codable {
    /// Shown when verifying before a code was sent.
    public static let noCodeSentMessage = "Request a code first"
    /// Shown when sending without a phone number.
    public static let phoneRequiredMessage = "Please enter your phone number"

    /// The phone number the code goes to.
    public var phone: String?
    /// The phone number's region (e.g. `"US"`).
    public var region: String?
    /// The code typed so far.
    public var code = ""
    /// The id the server gave the sent code.
    public var verificationID: String?
    /// A request is under way.
    public var isLoading = false
    /// A code was sent: the server's id for it is held.
    public var codeSent: Bool { verificationID != nil }
    /// Resending is allowed: a code was sent and the countdown has run out.
    public var canResend: Bool { codeSent && countdown == 0 }
    /// Seconds left before resending is allowed.
    public var countdown = 0
    /// The error to show, if any.
    public var error: String?

    /// The initial state.
    public init() {}

    /// Applies an event.
    public mutating func handle(_ event: VerificationEvent) -> VerificationAction {
        switch event {
        case .sendCodeTapped(let phone, let region):
            guard !isLoading else { return .none }
            let trimmed = phone.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else {
                error = Self.phoneRequiredMessage
                return .none
            }
            self.phone = trimmed
            self.region = region
            return startRequest()

        case .resendTapped:
            guard canResend, !isLoading, phone != nil else { return .none }
            return startRequest()

        case .codeSent(let id, let seconds):
            // An answer that arrives after "back" belongs to an abandoned attempt.
            guard isLoading else { return .none }
            isLoading = false
            verificationID = id
            countdown = max(seconds, 0)
            return canResend ? .none : .startCountdown

        case .codeRequestFailed(let message), .verificationFailed(let message):
            guard isLoading else { return .none }
            isLoading = false
            error = message
            return .none

        case .countdownTicked:
            guard countdown > 0 else { return .cancelCountdown }
            countdown -= 1
            return countdown == 0 ? .cancelCountdown : .none

        case .codeEntered(let text):
            code = text
            return .none

        case .verifyTapped:
            guard !isLoading else { return .none }
            guard let verificationID else {
                error = Self.noCodeSentMessage
                return .none
            }
            isLoading = true
            error = nil
            return .verify(verificationID: verificationID, code: code)

        case .verified:
            guard isLoading else { return .none }
            self = VerificationState()
            return .cancelCountdown

        case .backTapped:
            code = ""
            verificationID = nil
            countdown = 0
            isLoading = false
            error = nil
            return .cancelCountdown

        case .signOutTapped:
            return .presentSignOutConfirmation

        case .signOutConfirmed:
            return .signOut

        case .signOutCancelled:
            return .none

        case .reset:
            self = VerificationState()
            return .cancelCountdown
        }
    }

    private mutating func startRequest() -> VerificationAction {
        guard let phone else { return .none }
        isLoading = true
        error = nil
        return .requestCode(phone: phone, region: region ?? "")
    }
}
