import HTTPCore
import Testing

@testable import SessionKit

@Suite("Blocked account (403), end to end")
struct BlockedUserTests {
    @Test("10 concurrent 403s: one wipe, one transition, one alert, ten forbidden")
    func concurrentForbidden() async throws {
        let harness = await Harness()
        let stack = harness.stack
        await harness.transport.on(
            .get, "/feed", holdUntilPending: 10, reply: .error(.forbidden, code: "USER_BLOCKED"))
        await stack.blocking.clear()

        let errors = await withTaskGroup(of: APIError?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do throws(APIError) {
                        _ = try await stack.request(method: .get, path: "/feed")
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [APIError?]()) { $0.append($1) }
        }

        #expect(errors.count == 10)
        #expect(errors.allSatisfy { $0 == .forbidden })
        #expect(await harness.transport.requests.count == 10)  // no logout call for a block
        #expect(await stack.alerts.emitted() == [.accountBlocked])
        let alert = try #require(await stack.alerts.emitted().first)
        #expect(alert.title == "Account Blocked")
        #expect(alert.message == "Your account has been blocked. Please contact support.")
        #expect(alert.actions == [AlertAction(title: "OK", role: .default)])

        let snapshot = await stack.snapshot()
        #expect(snapshot.timeline == [.loading, .unauthenticated])
        #expect(snapshot.auth == .unauthenticated && snapshot.screen == .login)
        #expect(snapshot.tokens == .none)
        #expect(snapshot.user == nil)
        #expect(snapshot.preferences.isEmpty && snapshot.syncMarkers.isEmpty && snapshot.blockedIDs.isEmpty)
    }

    @Test("a later 403 in the same session does nothing more; a new session handles it again")
    func guardRearmsOnSignIn() async throws {
        let harness = await Harness()
        let stack = harness.stack
        await harness.transport.on(.get, "/feed", reply: .error(.forbidden))
        await harness.transport.on(.post, "/auth/login", reply: .data(Harness.session(access: "A9", refresh: "R9")))
        await harness.transport.on(.get, "/users/me/blocked", reply: .data(["blocked": [["id": "u7"]]]))

        await #expect(throws: APIError.forbidden) { try await stack.request(method: .get, path: "/feed") }
        // Tokens are gone: a late caller cannot even send.
        await #expect(throws: APIError.notAuthenticated) { try await stack.request(method: .get, path: "/feed") }
        #expect(await stack.alerts.emitted().count == 1)

        try await stack.auth.login(email: "ana@example.com", password: "pw")
        #expect(await stack.auth.state == .authenticated)
        #expect(await stack.blocking.blockedIDs() == ["u7"])
        await #expect(throws: APIError.forbidden) { try await stack.request(method: .get, path: "/feed") }
        #expect(await stack.alerts.emitted() == [.accountBlocked, .accountBlocked])
        #expect(await stack.auth.timeline == [.loading, .unauthenticated, .authenticated, .unauthenticated])
        #expect(await stack.blocking.blockedIDs().isEmpty)
    }

    @Test("403 USER_INACTIVE ends the session without the blocked alert")
    func inactive() async {
        let harness = await Harness()
        await harness.transport.on(.get, "/feed", reply: .error(.forbidden, code: "USER_INACTIVE"))
        await #expect(throws: APIError.accountInactive) {
            try await harness.stack.request(method: .get, path: "/feed")
        }
        #expect(await harness.stack.alerts.emitted().isEmpty)
        #expect(await harness.stack.snapshot().tokens == .none)
        #expect(await harness.stack.auth.state == .unauthenticated)
    }

    @Test("a 403 on an unauthenticated call is just forbidden")
    func unauthenticatedForbidden() async {
        let harness = await Harness()
        await harness.transport.on(.post, "/auth/login", reply: .error(.forbidden))
        await #expect(throws: APIError.forbidden) {
            try await harness.stack.auth.login(email: "ana@example.com", password: "pw")
        }
        #expect(await harness.stack.alerts.emitted().isEmpty)
        #expect(await harness.stack.snapshot().tokens.hasAccessToken)
    }

    @Test("a regular logout shows no alert and wipes")
    func logoutNoAlert() async {
        let harness = await Harness()
        await harness.transport.on(.post, "/auth/logout", reply: .empty(.noContent))
        await harness.stack.auth.logout()
        #expect(await harness.stack.alerts.emitted().isEmpty)
        #expect(await harness.transport.paths() == ["POST /auth/logout"])
        #expect(await harness.transport.requests.first?.authorization == "Bearer A1")
        let snapshot = await harness.stack.snapshot()
        #expect(snapshot.auth == .unauthenticated)
        #expect(snapshot.tokens == .none && snapshot.user == nil && snapshot.preferences.isEmpty)
    }

    @Test("logout still wipes when the server refuses it, and raises nothing")
    func logoutRefused() async {
        let harness = await Harness()
        await harness.transport.on(.post, "/auth/logout", reply: .error(.forbidden))
        await harness.stack.auth.logout()
        #expect(await harness.stack.alerts.emitted().isEmpty)
        #expect(await harness.stack.snapshot().tokens == .none)
        #expect(await harness.transport.requests.count == 1)
    }
}
