import Testing

@testable import SessionKit

@Suite("Phone verification reducer")
struct VerificationStateTests {
    /// A state with a code sent and the countdown at `countdown`.
    private func codeSentState(countdown: Int = 60) -> VerificationState {
        var state = VerificationState()
        _ = state.handle(.sendCodeTapped(phone: "+15550100", region: "US"))
        _ = state.handle(.codeSent(verificationID: "v1", countdown: countdown))
        return state
    }

    @Test("send: loading, then the request")
    func sendCode() {
        var state = VerificationState()
        #expect(state.handle(.sendCodeTapped(phone: " +15550100 ", region: "US")) == .requestCode(phone: "+15550100", region: "US"))
        #expect(state.isLoading)
        #expect(state.handle(.sendCodeTapped(phone: "+15550100", region: "US")) == .none)  // no double send
    }

    @Test("send without a phone sets an error and sends nothing")
    func sendWithoutPhone() {
        var state = VerificationState()
        #expect(state.handle(.sendCodeTapped(phone: "  ", region: "US")) == .none)
        #expect(state.error == VerificationState.phoneRequiredMessage)
        #expect(!state.isLoading)
    }

    @Test("code sent: id stored, resend disabled, countdown started")
    func codeSent() {
        var state = VerificationState()
        _ = state.handle(.sendCodeTapped(phone: "+15550100", region: "US"))
        #expect(state.handle(.codeSent(verificationID: "v1", countdown: 60)) == .startCountdown)
        #expect(state.verificationID == "v1")
        #expect(state.codeSent && !state.canResend && !state.isLoading)
        #expect(state.countdown == 60)
    }

    @Test("send failure: loading off, error set")
    func sendFailure() {
        var state = VerificationState()
        _ = state.handle(.sendCodeTapped(phone: "+15550100", region: "US"))
        #expect(state.handle(.codeRequestFailed(message: "Too many")) == .none)
        #expect(!state.isLoading)
        #expect(state.error == "Too many")
        #expect(!state.codeSent)
    }

    @Test("ticks count down; at zero resend is enabled and the timer stops")
    func ticks() {
        var state = codeSentState(countdown: 3)
        #expect(state.handle(.countdownTicked) == .none)
        #expect(state.countdown == 2)
        #expect(state.handle(.countdownTicked) == .none)
        #expect(!state.canResend)
        #expect(state.handle(.countdownTicked) == .cancelCountdown)
        #expect(state.countdown == 0)
        #expect(state.canResend)
        #expect(state.handle(.countdownTicked) == .cancelCountdown)
        #expect(state.countdown == 0)
    }

    @Test("resend only when allowed, and it restarts the countdown")
    func resend() {
        var state = codeSentState(countdown: 1)
        #expect(state.handle(.resendTapped) == .none)
        _ = state.handle(.countdownTicked)
        #expect(state.handle(.resendTapped) == .requestCode(phone: "+15550100", region: "US"))
        #expect(state.handle(.codeSent(verificationID: "v2", countdown: 60)) == .startCountdown)
        #expect(state.verificationID == "v2")
        #expect(state.countdown == 60 && !state.canResend)
    }

    @Test("verify: request with id and code; success resets and cancels the timer")
    func verify() {
        var state = codeSentState()
        _ = state.handle(.codeEntered("123456"))
        #expect(state.handle(.verifyTapped) == .verify(verificationID: "v1", code: "123456"))
        #expect(state.isLoading)
        #expect(state.handle(.verified) == .cancelCountdown)
        #expect(state == VerificationState())
    }

    @Test("verify failure keeps the id and shows the error")
    func verifyFailure() {
        var state = codeSentState()
        _ = state.handle(.verifyTapped)
        #expect(state.handle(.verificationFailed(message: "Wrong code")) == .none)
        #expect(state.error == "Wrong code")
        #expect(state.verificationID == "v1")
        #expect(!state.isLoading)
    }

    @Test("verify before a code is sent")
    func verifyWithoutCode() {
        var state = VerificationState()
        #expect(state.handle(.verifyTapped) == .none)
        #expect(state.error == VerificationState.noCodeSentMessage)
    }

    @Test("back clears code, id and countdown and cancels the timer")
    func back() {
        var state = codeSentState()
        _ = state.handle(.codeEntered("12"))
        #expect(state.handle(.backTapped) == .cancelCountdown)
        #expect(state.code.isEmpty && state.verificationID == nil && state.countdown == 0 && !state.codeSent)
    }

    @Test("an answer after back is ignored")
    func lateAnswer() {
        var state = VerificationState()
        _ = state.handle(.sendCodeTapped(phone: "+15550100", region: "US"))
        _ = state.handle(.backTapped)
        #expect(state.handle(.codeSent(verificationID: "v1", countdown: 60)) == .none)
        #expect(state.verificationID == nil)
    }

    @Test("sign-out asks first; confirming signs out, cancelling does nothing")
    func signOut() {
        var state = codeSentState()
        let before = state
        #expect(state.handle(.signOutTapped) == .presentSignOutConfirmation)
        #expect(state.handle(.signOutCancelled) == .none)
        #expect(state.handle(.signOutConfirmed) == .signOut)
        #expect(state == before)
    }
}
