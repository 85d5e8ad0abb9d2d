import Foundation
import HTTPCore
import Testing

@testable import SessionKit

@Suite("User session and sign-in, end to end")
struct UserSessionTests {
    @Test("login stores tokens and user, loads the blocked cache, re-arms the guard")
    func login() async throws {
        let harness = await Harness(tokens: nil, user: nil)
        await harness.transport.on(.post, "/auth/login", reply: .data(Harness.session(access: "L1", refresh: "LR1")))
        await harness.transport.on(.get, "/users/me/blocked", reply: .data(["blocked": [["id": "u5"], ["id": "u3"]]]))
        let user = try await harness.stack.auth.login(email: "ana@example.com", password: "secret")
        #expect(user.id == "u1")
        #expect(await harness.transport.requests[0].json == ["email": "ana@example.com", "password": "secret"])
        #expect(await harness.transport.requests[1].authorization == "Bearer L1")
        let snapshot = await harness.stack.snapshot()
        #expect(snapshot.auth == .authenticated && snapshot.blockedIDs == ["u3", "u5"])
        #expect(snapshot.tokens == TokenPresence(hasAccessToken: true, hasRefreshToken: true))
    }

    @Test(
        "login failures",
        arguments: [
            (FakeTransport.Reply.error(.unauthorized, code: "VALIDATION_FAILED"), APIError.unauthorized),
            (
                .error(.tooManyRequests, message: "Lento", headers: ["Retry-After": "30"]),
                .rateLimited(message: "Lento", retryAfter: .seconds(30))
            ),
            (.data(["access_token": "L1"]), .undecodableBody),
            (.failure(.timedOut), .transport(.timedOut)),
        ])
    func loginFailures(reply: FakeTransport.Reply, error: APIError) async {
        let harness = await Harness(tokens: nil, user: nil)
        await harness.transport.on(.post, "/auth/login", reply: reply)
        await #expect(throws: error) { try await harness.stack.auth.login(email: "a@x.com", password: "p") }
        #expect(await harness.stack.snapshot().tokens == .none)
        #expect(await harness.stack.auth.state == .loading)
    }

    @Test("register accepts 201 and signs in")
    func register() async throws {
        let harness = await Harness(tokens: nil, user: nil)
        await harness.transport.on(.post, "/auth/register", reply: .data(Harness.session(access: "N1", refresh: "NR1"), status: .created))
        await harness.transport.on(.get, "/users/me/blocked", reply: .data(["blocked": []]))
        try await harness.stack.auth.register(name: "Ana", email: "ana@example.com", password: "pw")
        #expect(await harness.stack.auth.state == .authenticated)
    }

    @Test("update, related users, preferences and delete")
    func account() async throws {
        let harness = await Harness()
        await harness.transport.on(
            .patch, "/users/me", reply: .data(["id": "u1", "name": "Ana B", "email": "ana@example.com", "active": true]))
        await harness.transport.on(.get, "/users/related", reply: .data(["users": [["id": "u8", "name": "Bo"]]]))
        await harness.transport.on(.delete, "/users/me", reply: .empty(.noContent))
        let user = harness.stack.user

        #expect(try await user.updateUser(["name": "Ana B"]).name == "Ana B")
        #expect(await harness.transport.requests[0].json == ["name": "Ana B"])
        #expect(await harness.stack.snapshot().user?.name == "Ana B")
        #expect(try await user.relatedUsers() == [UserSummary(id: "u8", name: "Bo")])
        try await user.setPreference("es", forKey: "lang")
        #expect(await user.preferences() == ["theme": "dark", "lang": "es"])

        try await user.deleteAccount()
        let snapshot = await harness.stack.snapshot()
        #expect(snapshot.auth == .unauthenticated && snapshot.tokens == .none && snapshot.preferences.isEmpty)
        #expect(await harness.stack.alerts.emitted().isEmpty)
    }

    @Test("the snapshot encodes without token values")
    func snapshotHidesTokens() async throws {
        let harness = await Harness()
        let data = try JSONEncoder().encode(await harness.stack.snapshot())
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("hasAccessToken"))
        #expect(!text.contains("A1") && !text.contains("R1"))
    }
}
