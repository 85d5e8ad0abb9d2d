import HTTPCore
import Testing

@testable import SessionKit

@Suite("Startup flow, end to end")
struct StartupTests {
    @Test("healthy backend and a valid user: dashboard, user stored, user scope marked")
    func validUser() async {
        let harness = await Harness(user: nil)
        await harness.transport.on(.get, "/health", reply: .json(.ok, ["status": "ok"]))
        await harness.transport.on(.get, "/users/me", reply: .data(Harness.user))
        await harness.transport.on(
            .get, "/users/me/blocked", reply: .data(["blocked": [["id": "u9", "created_at": "2026-01-01T00:00:00Z"]]]))
        await harness.stack.auth.bootstrap()
        let snapshot = await harness.stack.snapshot()
        #expect(snapshot.auth == .authenticated && snapshot.screen == .dashboard)
        #expect(snapshot.blockedIDs == ["u9"], "a restored session loads its blocked-id cache too")
        #expect(snapshot.user?.id == "u1" && snapshot.user?.active == true)
        #expect(snapshot.syncMarkers == ["user": "2027-01-15T08:00:00Z"])
        #expect(snapshot.health == .healthy)
        #expect(snapshot.timeline == [.loading, .authenticated])
        #expect(await harness.transport.paths() == ["GET /health", "GET /users/me", "GET /users/me/blocked"])
        #expect(await harness.transport.requests.last?.authorization == "Bearer A1")
    }

    @Test("active: false wipes and lands on login")
    func inactiveUser() async {
        let harness = await Harness()
        await harness.transport.on(.get, "/health", reply: .json(.ok, ["status": "ok"]))
        await harness.transport.on(
            .get, "/users/me", reply: .data(["id": "u1", "name": "Ana", "email": "a@x.com", "active": false, "is_deleted": false]))
        await harness.stack.auth.bootstrap()
        let snapshot = await harness.stack.snapshot()
        #expect(snapshot.auth == .unauthenticated && snapshot.screen == .login)
        #expect(snapshot.tokens == .none && snapshot.user == nil && snapshot.preferences.isEmpty)
        #expect(snapshot.timeline == [.loading, .unauthenticated])
        #expect(await harness.stack.alerts.emitted().isEmpty)
    }

    @Test(
        "answers of GET /users/me that end the session",
        arguments: [
            FakeTransport.Reply.data(["id": "u1", "active": true, "is_deleted": true]),
            .error(.forbidden, code: "USER_DELETED"),
            .error(.forbidden, code: "USER_INACTIVE"),
            .error(.unauthorized, code: "TOKEN_INVALID"),
        ])
    func sessionEnds(reply: FakeTransport.Reply) async {
        let harness = await Harness()
        await harness.transport.on(.get, "/health", reply: .json(.ok, ["status": "ok"]))
        await harness.transport.on(.get, "/users/me", reply: reply)
        await harness.stack.auth.bootstrap()
        let snapshot = await harness.stack.snapshot()
        #expect(snapshot.auth == .unauthenticated)
        #expect(snapshot.tokens == .none && snapshot.user == nil)
        #expect(await harness.transport.count(.post, "/auth/refresh") == 0)
    }

    @Test(
        "no decision possible: session expired, tokens cleared, one attempt",
        arguments: [
            FakeTransport.Reply.failure(.timedOut), .failure(.notConnectedToInternet), .error(.internalServerError),
            .text(.ok, "<html>captive portal</html>"), .error(.tooManyRequests),
        ])
    func expires(reply: FakeTransport.Reply) async {
        let harness = await Harness()
        await harness.transport.on(.get, "/health", reply: .json(.ok, ["status": "ok"]))
        await harness.transport.on(.get, "/users/me", reply: reply)
        await harness.stack.auth.bootstrap()
        let snapshot = await harness.stack.snapshot()
        #expect(snapshot.auth == .sessionExpired && snapshot.screen == .sessionExpired)
        #expect(snapshot.tokens == .none)
        #expect(await harness.transport.count(.get, "/users/me") == 1)
    }

    @Test("expired token at startup: one refresh, then the dashboard")
    func refreshAtStartup() async {
        let harness = await Harness()
        await harness.transport.on(.get, "/health", reply: .json(.ok, ["status": "ok"]))
        await harness.transport.on(.get, "/users/me", times: 1, reply: .error(.unauthorized, code: "TOKEN_EXPIRED"))
        await harness.transport.on(.get, "/users/me", reply: .data(Harness.user))
        await harness.transport.on(.post, "/auth/refresh", reply: .data(["access_token": "A2", "refresh_token": "R2"]))
        await harness.stack.auth.bootstrap()
        #expect(await harness.stack.auth.state == .authenticated)
        #expect(await harness.transport.requests.last?.authorization == "Bearer A2")
    }

    @Test("no stored token: login, and /users/me is not called")
    func noToken() async {
        let harness = await Harness(tokens: nil)
        await harness.transport.on(.get, "/health", reply: .json(.ok, ["status": "ok"]))
        await harness.stack.auth.bootstrap()
        #expect(await harness.stack.auth.state == .unauthenticated)
        #expect(await harness.transport.paths() == ["GET /health"])
    }

    @Test("offline: /health is skipped and nothing is sent until connectivity returns")
    func offline() async {
        let harness = await Harness(online: false)
        await harness.transport.on(.get, "/health", reply: .json(.ok, ["status": "ok"]))
        await harness.transport.on(.get, "/users/me", reply: .data(Harness.user))
        await harness.transport.on(.get, "/users/me/blocked", reply: .data(["blocked": []]))
        let stack = harness.stack

        async let boot: Void = stack.auth.bootstrap()
        await harness.clock.waitForSleepers(1)
        var snapshot = await stack.snapshot()
        #expect(snapshot.health == .offline)
        #expect(snapshot.auth == .loading && snapshot.startupMessage == AuthSession.offlineMessage)
        #expect(snapshot.tokens.hasAccessToken, "offline is no reason to drop the session")
        harness.clock.advance(by: .seconds(15))
        await harness.clock.waitForSleepers(1)
        #expect(await harness.transport.requests.isEmpty)

        await harness.connectivity.setOnline(true)
        harness.clock.advance(by: .seconds(15))
        await boot
        snapshot = await stack.snapshot()
        #expect(snapshot.auth == .authenticated && snapshot.startupMessage == nil)
        #expect(await harness.transport.paths() == ["GET /health", "GET /users/me", "GET /users/me/blocked"])
    }

    @Test("an unhealthy backend shows the message and is polled on the clock until healthy")
    func pollsUntilHealthy() async {
        let harness = await Harness()
        let transport = harness.transport
        await transport.on(.get, "/health", times: 1, reply: .error(.serviceUnavailable))
        await transport.on(.get, "/health", times: 1, reply: .failure(.cannotConnectToHost))
        await transport.on(.get, "/health", reply: .json(.ok, ["status": "ok"]))
        await transport.on(.get, "/users/me", reply: .data(Harness.user))
        let stack = harness.stack

        async let boot: Void = stack.auth.bootstrap()
        await harness.clock.waitForSleepers(1)
        var snapshot = await stack.snapshot()
        #expect(snapshot.startupMessage == "Sistema indisponível")
        #expect(snapshot.auth == .loading && snapshot.screen == .startup)
        #expect(snapshot.health == .serverDown)
        #expect(await transport.paths() == ["GET /health"])

        harness.clock.advance(by: .seconds(14))
        #expect(await transport.requests.count == 1)  // not yet: the interval is 15 s
        harness.clock.advance(by: .seconds(1))
        await harness.clock.waitForSleepers(1)
        #expect(await transport.paths() == ["GET /health", "GET /health"])

        harness.clock.advance(by: .seconds(15))
        await boot
        snapshot = await stack.snapshot()
        #expect(snapshot.startupMessage == nil)
        #expect(snapshot.auth == .authenticated)
        #expect(await transport.paths() == ["GET /health", "GET /health", "GET /health", "GET /users/me", "GET /users/me/blocked"])
        #expect(harness.clock.sleeperCount == 0)
    }

    @Test("a block 403 at startup: login plus the one alert")
    func blockedAtStartup() async {
        let harness = await Harness()
        await harness.transport.on(.get, "/health", reply: .json(.ok, ["status": "ok"]))
        await harness.transport.on(.get, "/users/me", reply: .error(.forbidden, code: "USER_BLOCKED"))
        await harness.stack.auth.bootstrap()
        #expect(await harness.stack.auth.state == .unauthenticated)
        #expect(await harness.stack.alerts.emitted() == [.accountBlocked])
    }
}
