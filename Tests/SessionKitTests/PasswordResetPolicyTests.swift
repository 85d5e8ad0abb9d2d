import Testing

@testable import SessionKit

@Suite("Password reset wording and cooldown")
struct PasswordResetPolicyTests {
    static let prefix = "Has intentado restablecer tu contraseña demasiadas veces. Por favor, intenta de nuevo en"

    @Test(
        "429 text by Retry-After",
        arguments: [
            (Duration?.some(.seconds(7200)), "\(PasswordResetPolicyTests.prefix) 2 hora(s)."),
            (.seconds(3600), "\(PasswordResetPolicyTests.prefix) 1 hora(s)."),
            (.seconds(5400), "\(PasswordResetPolicyTests.prefix) 1 hora(s)."),
            (.seconds(3599), "\(PasswordResetPolicyTests.prefix) 59 minuto(s)."),
            (.seconds(120), "\(PasswordResetPolicyTests.prefix) 2 minuto(s)."),
            (.seconds(60), "\(PasswordResetPolicyTests.prefix) 1 minuto(s)."),
            (.seconds(59), "Servidor dice"),
            (.zero, "Servidor dice"),
            (nil, "Servidor dice"),
        ])
    func rateLimitText(retryAfter: Duration?, expected: String) {
        #expect(PasswordResetMessages.rateLimitMessage(retryAfter: retryAfter, serverMessage: "Servidor dice") == expected)
    }

    @Test(
        "failure alerts by error",
        arguments: [
            (APIError.badRequest(message: "Bad email domain"), "Error", "Bad email domain"),
            (.validationFailed([]), "Error", "Invalid request"),
            (.validationFailed([FieldError(field: "email", message: "Unknown")]), "Error", "Unknown"),
            (.serverError(status: 500), "Error", "Server error"),
            (.serviceUnavailable(retryAfter: nil), "Error", "Server error"),
            (.transport(.timedOut), "Error", "Network error (timedOut). Check your connection and try again."),
            (.rateLimited(message: "Lento", retryAfter: nil), "Demasiados intentos", "Lento"),
        ])
    func failureAlert(error: APIError, title: String, message: String) {
        let alert = PasswordResetMessages.failureAlert(for: error)
        #expect(alert.title == title)
        #expect(alert.message == message)
        #expect(alert.actions == [.ok])
    }

    @Test("the cooldown counts down from the last request and rounds up")
    func cooldown() {
        var cooldown = ResetCooldown(length: .seconds(60))
        #expect(cooldown.remaining(at: .seconds(5)) == .zero)
        cooldown.recordRequest(at: .seconds(10))
        #expect(cooldown.remaining(at: .seconds(10)) == .seconds(60))
        #expect(cooldown.remaining(at: .milliseconds(10_500)) == .milliseconds(59_500))
        #expect(
            PasswordResetMessages.cooldownMessage(remaining: cooldown.remaining(at: .milliseconds(10_500)))
                == "Please wait 60 seconds before requesting again")
        #expect(cooldown.remaining(at: .seconds(70)) == .zero)
        #expect(cooldown.remaining(at: .seconds(500)) == .zero)
    }

    @Test(
        "email validation",
        arguments: [
            ("", EmailAddress.Validity.missing), ("   ", .missing), ("ana", .malformed), ("ana@", .malformed),
            ("@x.com", .malformed), ("ana@x", .malformed), ("ana@x.", .malformed), ("a b@x.com", .malformed),
            ("a@b@x.com", .malformed), (" ana@example.com ", .valid("ana@example.com")),
        ])
    func email(text: String, validity: EmailAddress.Validity) {
        #expect(EmailAddress.validate(text) == validity)
    }
}
