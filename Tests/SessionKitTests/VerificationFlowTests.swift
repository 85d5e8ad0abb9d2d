import HTTPCore
import Testing

@testable import SessionKit

@Suite("Phone verification, end to end")
struct VerificationFlowTests {
    @Test("the countdown ticks once per second on the clock and enables resend at zero")
    func countdown() async throws {
        let harness = await Harness(tokens: nil, user: nil)
        await harness.transport.on(.post, "/auth/phone/code", reply: .data(["verification_id": "v1"]))
        let verification = harness.stack.verification

        try await verification.sendCode(phone: "+15550100", region: "US")
        var state = await verification.state
        #expect(state.codeSent && !state.canResend && state.countdown == 60 && state.verificationID == "v1")
        #expect(await harness.transport.requests.first?.json == ["phone": "+15550100", "region": "US"])

        await harness.clock.waitForSleepers(1)
        for second in 1...59 {
            harness.clock.advance(by: .seconds(1))
            await harness.clock.waitForSleepers(1)
            #expect(await verification.state.countdown == 60 - second)
        }
        #expect(await verification.state.canResend == false)
        harness.clock.advance(by: .seconds(1))
        await verification.countdownFinished()
        state = await verification.state
        #expect(state.countdown == 0 && state.canResend)
        #expect(await verification.isCountingDown == false)
        #expect(harness.clock.sleeperCount == 0)

        try await verification.resend()
        #expect(await verification.state.countdown == 60)
        #expect(await harness.transport.count(.post, "/auth/phone/code") == 2)
        await verification.back()
        await verification.countdownFinished()
        state = await verification.state
        #expect(state.verificationID == nil && state.countdown == 0 && !state.codeSent)
    }

    @Test("a failed send: loading off, error text, thrown")
    func sendFailure() async {
        let harness = await Harness(tokens: nil, user: nil)
        await harness.transport.on(.post, "/auth/phone/code", reply: .error(.tooManyRequests, message: "Espera"))
        await #expect(throws: APIError.rateLimited(message: "Espera", retryAfter: nil)) {
            try await harness.stack.verification.sendCode(phone: "+15550100", region: "US")
        }
        let snapshot = await harness.stack.snapshot().verification
        #expect(!snapshot.loading && snapshot.error == "Espera" && !snapshot.codeSent)
        #expect(harness.clock.sleeperCount == 0)
    }

    @Test("verify signs in like login and cancels the timer")
    func verify() async throws {
        let harness = await Harness(tokens: nil, user: nil)
        await harness.transport.on(.post, "/auth/phone/code", reply: .data(["verification_id": "v1"]))
        await harness.transport.on(.post, "/auth/phone/verify", reply: .data(Harness.session(access: "P1", refresh: "PR1")))
        await harness.transport.on(.get, "/users/me/blocked", reply: .data(["blocked": [["id": "u9", "created_at": "x"]]]))
        let verification = harness.stack.verification

        try await verification.sendCode(phone: "+15550100", region: "US")
        await harness.clock.waitForSleepers(1)
        let user = try await verification.verify(code: "123456")

        #expect(user?.id == "u1")
        #expect(await harness.transport.requests[1].json == ["verification_id": "v1", "code": "123456"])
        #expect(await harness.tokenStore.load() == SessionTokens(accessToken: "P1", refreshToken: "PR1"))
        let snapshot = await harness.stack.snapshot()
        #expect(snapshot.auth == .authenticated && snapshot.blockedIDs == ["u9"])
        #expect(!snapshot.verification.codeSent && snapshot.verification.countdown == 0)
        await verification.countdownFinished()
        #expect(harness.clock.sleeperCount == 0)
    }

    @Test("a refused code keeps the screen and shows the error")
    func verifyFailure() async throws {
        let harness = await Harness(tokens: nil, user: nil)
        await harness.transport.on(.post, "/auth/phone/code", reply: .data(["verification_id": "v1"]))
        await harness.transport.on(
            .post, "/auth/phone/verify", reply: .error(.badRequest, code: "VALIDATION_FAILED", message: "Wrong code"))
        try await harness.stack.verification.sendCode(phone: "+15550100", region: "US")
        await #expect(throws: APIError.validationFailed([FieldError(message: "Wrong code")])) {
            try await harness.stack.verification.verify(code: "000000")
        }
        let state = await harness.stack.verification.state
        #expect(state.error == "Wrong code" && state.verificationID == "v1" && !state.isLoading)
        #expect(await harness.stack.auth.state == .loading)
        await harness.stack.verification.back()
    }

    @Test("sign-out asks first; cancel keeps the session, confirm signs out without a blocked alert")
    func signOut() async {
        let harness = await Harness()
        await harness.transport.on(.post, "/auth/logout", reply: .empty(.noContent))
        let verification = harness.stack.verification

        await verification.requestSignOut()
        #expect(await harness.stack.alerts.pending() == [.signOutConfirmation])
        let alert = SessionAlert.signOutConfirmation
        #expect(alert.title == "Sign Out" && alert.message == "Are you sure you want to sign out?")
        #expect(alert.actions == [AlertAction(title: "Sign Out", role: .destructive), AlertAction(title: "Cancel", role: .cancel)])

        await verification.cancelSignOut()
        #expect(await harness.transport.requests.isEmpty)
        #expect(await harness.stack.snapshot().tokens.hasAccessToken)

        await verification.requestSignOut()
        await verification.confirmSignOut()
        #expect(await harness.transport.paths() == ["POST /auth/logout"])
        #expect(await harness.stack.snapshot().tokens == .none)
        #expect(await harness.stack.alerts.emitted() == [.signOutConfirmation, .signOutConfirmation])
        #expect(await harness.stack.alerts.pending().isEmpty)
    }
}
