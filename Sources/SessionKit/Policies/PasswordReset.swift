/// The "forgot password" flow: validation, the client-side cooldown, the request, and an
/// alert for every refusal. It never retries on its own.
public actor PasswordReset {
    private let client: APIClient
    private let alerts: AlertCenter
    private let elapsed: ElapsedTime
    private var cooldown: ResetCooldown

    init(client: APIClient, alerts: AlertCenter, elapsed: ElapsedTime, cooldown: Duration) {
        self.client = client
        self.alerts = alerts
        self.elapsed = elapsed
        self.cooldown = ResetCooldown(length: cooldown)
    }

    /// The cooldown left before another request may be sent.
    public func cooldownRemaining() -> Duration {
        cooldown.remaining(at: elapsed.now())
    }

    /// Requests a reset link for `email`.
    public func request(email: String) async -> PasswordResetOutcome {
        let address: String
        switch EmailAddress.validate(email) {
        case .missing:
            return await reject(
                SessionAlert(title: PasswordResetMessages.emailRequiredTitle, message: PasswordResetMessages.emailRequiredMessage))
        case .malformed:
            return await reject(
                SessionAlert(title: PasswordResetMessages.invalidEmailTitle, message: PasswordResetMessages.invalidEmailMessage))
        case .valid(let trimmed):
            address = trimmed
        }

        let remaining = cooldownRemaining()
        if remaining > .zero {
            return await reject(
                SessionAlert(
                    title: PasswordResetMessages.cooldownTitle,
                    message: PasswordResetMessages.cooldownMessage(remaining: remaining)))
        }

        // The cooldown runs from the moment a request leaves, whatever its answer: it exists
        // to stop repeated taps, not to judge the outcome.
        cooldown.recordRequest(at: elapsed.now())
        do {
            let response = try await client.send(.forgotPassword(email: address))
            return .sent(message: response.data?["message"]?.stringValue ?? PasswordResetMessages.sentFallbackMessage)
        } catch {
            let alert = PasswordResetMessages.failureAlert(for: error)
            await alerts.emit(alert)
            return .failed(error: error, alert: alert)
        }
    }

    private func reject(_ alert: SessionAlert) async -> PasswordResetOutcome {
        await alerts.emit(alert)
        return .rejected(alert: alert)
    }
}
