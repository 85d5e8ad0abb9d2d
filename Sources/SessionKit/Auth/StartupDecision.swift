/// What the launch check concludes from `GET /users/me` (seed 002, section 7).
public enum StartupDecision: Sendable, Hashable {
    /// A usable account: store it, mark the user scope synced, show the dashboard.
    case authenticate(SessionUser)
    /// The session is over for good: wipe everything, show login.
    case endSession(SessionEndReason)
    /// No stored session at all: show login.
    case showLogin
    /// No decision possible (network, 5xx, unreadable answer): clear tokens, show the
    /// session-expired screen, try nothing more.
    case expire

    /// The decision for the outcome of `GET /users/me`.
    public static func decide(_ outcome: Result<SessionUser, APIError>) -> StartupDecision {
        switch outcome {
        case .success(let user):
            return user.unusableReason.map(StartupDecision.endSession) ?? .authenticate(user)
        case .failure(let error):
            return decide(error)
        }
    }

    private static func decide(_ error: APIError) -> StartupDecision {
        switch error {
        case .accountInactive: .endSession(.accountInactive)
        case .accountDeleted: .endSession(.accountDeleted)
        case .tokenInvalid: .endSession(.tokenInvalid)
        case .sessionExpired: .endSession(.sessionExpired)
        case .forbidden: .endSession(.blocked)
        case .notAuthenticated: .showLogin
        case .transport, .serverError, .serviceUnavailable, .undecodableBody, .rateLimited,
            .unexpectedStatus, .notFound, .badRequest, .validationFailed, .unauthorized,
            .offline, .cannotBlockSelf, .verificationNotStarted, .storageFailed:
            .expire
        }
    }
}
