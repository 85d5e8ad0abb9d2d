/// Drives ``VerificationState``: performs its actions (requests, the countdown on the
/// injected clock, alerts) and feeds the results back as events.
public actor PhoneVerification {
    private static let tick: Duration = .seconds(1)

    private let client: APIClient
    private let auth: AuthSession
    private let alerts: AlertCenter
    private let clock: any Clock<Duration>
    private let countdownSeconds: Int
    private var countdownTask: Task<Void, Never>?
    // Identifies the current countdown, so a tick of a cancelled one that was already on
    // its way in is ignored.
    private var countdownID = 0

    /// The current state.
    public private(set) var state = VerificationState()

    init(
        client: APIClient,
        auth: AuthSession,
        alerts: AlertCenter,
        clock: any Clock<Duration>,
        countdownSeconds: Int
    ) {
        self.client = client
        self.auth = auth
        self.alerts = alerts
        self.clock = clock
        self.countdownSeconds = countdownSeconds
    }

    /// Whether the countdown is running.
    public var isCountingDown: Bool { countdownTask != nil }

    /// Sends a code to `phone` (`POST /auth/phone/code`) and starts the resend countdown.
    /// - Throws: the request's error, also shown as ``VerificationState/error``.
    public func sendCode(phone: String, region: String) async throws(APIError) {
        try await send(.sendCodeTapped(phone: phone, region: region))
    }

    /// Sends the code again and restarts the countdown; ignored while resending is not allowed.
    public func resend() async throws(APIError) {
        try await send(.resendTapped)
    }

    /// Records the typed code.
    public func enterCode(_ code: String) {
        perform(state.handle(.codeEntered(code)))
    }

    /// Verifies `code` (`POST /auth/phone/verify`); success signs the user in.
    /// - Throws: ``APIError/verificationNotStarted`` without a sent code; the request's error.
    @discardableResult
    public func verify(code: String) async throws(APIError) -> SessionUser? {
        perform(state.handle(.codeEntered(code)))
        guard state.verificationID != nil else {
            _ = state.handle(.verifyTapped)
            throw .verificationNotStarted
        }
        return try await send(.verifyTapped)
    }

    /// Leaves the code screen: clears the code, the id and the countdown.
    public func back() {
        perform(state.handle(.backTapped))
    }

    /// Asks the user to confirm signing out.
    public func requestSignOut() async {
        await run(state.handle(.signOutTapped))
    }

    /// The user confirmed: a regular sign-out (no blocked-account alert). Without a showing
    /// confirmation there is nothing to confirm, and nothing happens.
    public func confirmSignOut() async {
        // The showing confirmation is the state here: the alert centre owns it.
        guard await alerts.dismiss(.signOutConfirmation) else { return }
        await run(state.handle(.signOutConfirmed))
    }

    /// The user cancelled: the confirmation goes away and nothing else happens.
    public func cancelSignOut() async {
        guard await alerts.dismiss(.signOutConfirmation) else { return }
        await run(state.handle(.signOutCancelled))
    }

    /// Forgets everything (the session was wiped).
    func reset() {
        perform(state.handle(.reset))
    }

    /// Waits until the running countdown (if any) has stopped: for tests driving a manual clock.
    func countdownFinished() async {
        await countdownTask?.value
    }

    // MARK: Private

    @discardableResult
    private func send(_ event: VerificationEvent) async throws(APIError) -> SessionUser? {
        switch state.handle(event) {
        case .requestCode(let phone, let region):
            try await requestCode(phone: phone, region: region)
            return nil
        case .verify(let id, let code):
            return try await verify(verificationID: id, code: code)
        case let other:
            await run(other)
            return nil
        }
    }

    /// Performs an action that needs no request: the countdown, and the sign-out effects.
    private func run(_ action: VerificationAction) async {
        switch action {
        case .presentSignOutConfirmation:
            await alerts.emit(.signOutConfirmation)
        case .signOut:
            await auth.logout()
        default:
            perform(action)
        }
    }

    private func requestCode(phone: String, region: String) async throws(APIError) {
        do throws(APIError) {
            let response = try await client.send(.sendPhoneCode(phone: phone, region: region))
            guard let id = response.data?["verification_id"]?.identifierValue else {
                throw .undecodableBody
            }
            perform(state.handle(.codeSent(verificationID: id, countdown: countdownSeconds)))
        } catch {
            _ = state.handle(.codeRequestFailed(message: Self.message(for: error)))
            throw error
        }
    }

    private func verify(verificationID: String, code: String) async throws(APIError) -> SessionUser {
        do {
            let response = try await client.send(.verifyPhoneCode(verificationID: verificationID, code: code))
            let user = try await auth.establishSession(from: response.data)
            perform(state.handle(.verified))
            return user
        } catch {
            _ = state.handle(.verificationFailed(message: Self.message(for: error)))
            throw error
        }
    }

    /// Performs the actions that need no request.
    private func perform(_ action: VerificationAction) {
        switch action {
        case .startCountdown:
            startCountdown()
        case .cancelCountdown:
            countdownTask?.cancel()
            countdownTask = nil
            countdownID += 1
        case .none, .requestCode, .verify, .presentSignOutConfirmation, .signOut:
            break
        }
    }

    private func startCountdown() {
        countdownTask?.cancel()
        countdownID += 1
        let id = countdownID
        let clock = clock
        countdownTask = Task { [weak self] in
            while true {
                do {
                    try await clock.sleep(for: Self.tick)
                } catch {
                    return  // cancelled
                }
                guard let self, await self.countdownTicked(id: id) else { return }
            }
        }
    }

    /// Applies one tick; returns whether the countdown goes on.
    private func countdownTicked(id: Int) -> Bool {
        guard id == countdownID else { return false }
        let action = state.handle(.countdownTicked)
        guard action == .cancelCountdown else { return true }
        countdownTask = nil
        return false
    }

    private static func message(for error: APIError) -> String {
        switch error {
        case .rateLimited(let message, _): message
        case .validationFailed(let errors): errors.first?.message ?? "Invalid code"
        case .badRequest(let message): message
        case .transport(let code): PasswordResetMessages.networkMessage(code.rawValue)
        default: error.description
        }
    }
}
