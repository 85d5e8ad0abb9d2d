import HTTPCore
import Testing

@testable import SessionKit

@Suite("Password reset, end to end")
struct PasswordResetFlowTests {
    static let prefix = "Has intentado restablecer tu contraseña demasiadas veces. Por favor, intenta de nuevo en"
    static let serverMessage = "Demasiadas solicitudes de restablecimiento."

    @Test(
        "Retry-After in both forms surfaces as a duration and picks the text",
        arguments: [
            ("120", Duration.seconds(120), "\(PasswordResetFlowTests.prefix) 2 minuto(s)."),
            ("Fri, 15 Jan 2027 10:00:00 GMT", .seconds(7200), "\(PasswordResetFlowTests.prefix) 2 hora(s)."),
        ])
    func rateLimited(header: String, retryAfter: Duration, text: String) async {
        let harness = await Harness(tokens: nil)
        await harness.transport.on(
            .post, "/auth/password/forgot",
            reply: .error(.tooManyRequests, code: "RATE_LIMITED", message: Self.serverMessage, headers: ["Retry-After": header]))

        let outcome = await harness.stack.passwordReset.request(email: "ana@example.com")

        let expectedAlert = SessionAlert(title: "Demasiados intentos", message: text)
        #expect(outcome == .failed(error: .rateLimited(message: Self.serverMessage, retryAfter: retryAfter), alert: expectedAlert))
        #expect(await harness.stack.alerts.emitted() == [expectedAlert])
        #expect(await harness.transport.requests.count == 1)  // no automatic retry
        #expect(await harness.transport.requests.first?.json == ["email": "ana@example.com"])
    }

    @Test("429 without Retry-After or body: the fallback server message")
    func rateLimitedBare() async {
        let harness = await Harness(tokens: nil)
        await harness.transport.on(.post, "/auth/password/forgot", reply: .empty(.tooManyRequests))
        let outcome = await harness.stack.passwordReset.request(email: "ana@example.com")
        #expect(outcome.alert == SessionAlert(title: "Demasiados intentos", message: "Demasiados intentos. Intenta de nuevo más tarde."))
    }

    @Test("the client cooldown refuses a second request without sending it, until it runs out")
    func cooldown() async {
        let harness = await Harness(tokens: nil)
        await harness.transport.on(
            .post, "/auth/password/forgot", reply: .data(["message": "Check your inbox", "reset_link_sent": true]))
        let reset = harness.stack.passwordReset

        #expect(await reset.request(email: "ana@example.com") == .sent(message: "Check your inbox"))
        harness.clock.advance(by: .milliseconds(20_500))
        let refused = await reset.request(email: "ana@example.com")
        let alert = SessionAlert(title: "Too Many Requests", message: "Please wait 40 seconds before requesting again")
        #expect(refused == .rejected(alert: alert))
        #expect(await harness.transport.requests.count == 1)
        #expect(await harness.stack.snapshot().passwordResetCooldownSeconds == 40)

        harness.clock.advance(by: .seconds(40))
        #expect(await reset.request(email: "ana@example.com") == .sent(message: "Check your inbox"))
        #expect(await harness.transport.requests.count == 2)
        #expect(await harness.stack.alerts.emitted() == [alert])
    }

    @Test(
        "invalid emails are refused before any request",
        arguments: [
            ("", "Email Required", "Please enter your email address"),
            ("ana@", "Invalid Email", "Please enter a valid email address"),
        ])
    func validation(email: String, title: String, message: String) async {
        let harness = await Harness(tokens: nil)
        let outcome = await harness.stack.passwordReset.request(email: email)
        #expect(outcome == .rejected(alert: SessionAlert(title: title, message: message)))
        #expect(await harness.transport.requests.isEmpty)
        #expect(await harness.stack.snapshot().passwordResetCooldownSeconds == 0)
    }

    @Test(
        "other failures",
        arguments: [
            (FakeTransport.Reply.error(.unprocessableContent, message: "Unknown email"), "Unknown email"),
            (.text(.badRequest, "nope"), "Invalid request"),
            (.error(.internalServerError), "Server error"),
            (.failure(.notConnectedToInternet), "Network error (notConnectedToInternet). Check your connection and try again."),
        ])
    func failures(reply: FakeTransport.Reply, message: String) async {
        let harness = await Harness(tokens: nil)
        await harness.transport.on(.post, "/auth/password/forgot", reply: reply)
        let outcome = await harness.stack.passwordReset.request(email: "ana@example.com")
        #expect(outcome.alert == SessionAlert(title: "Error", message: message))
    }
}
