import Testing

@testable import SessionKit

@Suite("Startup decisions")
struct StartupDecisionTests {
    static let user = SessionUser(id: "u1", name: "Ana", email: "ana@example.com")

    @Test(
        "GET /users/me outcome -> decision",
        arguments: [
            (Result<SessionUser, APIError>.success(user), StartupDecision.authenticate(user)),
            (.success(SessionUser(id: "u1", name: "", email: "", active: false)), .endSession(.accountInactive)),
            (.success(SessionUser(id: "u1", name: "", email: "", isDeleted: true)), .endSession(.accountDeleted)),
            (.success(SessionUser(id: "u1", name: "", email: "", active: false, isDeleted: true)), .endSession(.accountDeleted)),
            (.failure(.accountInactive), .endSession(.accountInactive)),
            (.failure(.accountDeleted), .endSession(.accountDeleted)),
            (.failure(.tokenInvalid), .endSession(.tokenInvalid)),
            (.failure(.sessionExpired), .endSession(.sessionExpired)),
            (.failure(.forbidden), .endSession(.blocked)),
            (.failure(.notAuthenticated), .showLogin),
            (.failure(.transport(.timedOut)), .expire),
            (.failure(.transport(.notConnectedToInternet)), .expire),
            (.failure(.serverError(status: 500)), .expire),
            (.failure(.serviceUnavailable(retryAfter: nil)), .expire),
            (.failure(.undecodableBody), .expire),
            (.failure(.rateLimited(message: "m", retryAfter: nil)), .expire),
        ])
    func decide(outcome: Result<SessionUser, APIError>, decision: StartupDecision) {
        #expect(StartupDecision.decide(outcome) == decision)
    }

    @Test("each state has its screen")
    func screens() {
        #expect(AuthState.allCases.map(\.screen) == [.startup, .login, .dashboard, .sessionExpired])
    }
}
