import HTTPCore
import Testing

@testable import SessionKit

@Suite("Token refresh, end to end")
struct TokenRefreshTests {
    /// Lets other tasks run until `condition` holds; gives up after a bounded number of turns
    /// (no wall-clock wait, so a failure is a failed expectation, never a hang).
    static func settle(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<10_000 {
            if await condition() { return true }
            await Task.yield()
        }
        return await condition()
    }

    @Test("20 concurrent 401 TOKEN_EXPIRED: one refresh, 20 retries with the new token")
    func concurrentExpiry() async throws {
        let harness = await Harness()
        let transport = harness.transport
        await transport.on(.get, "/feed", times: 20, holdUntilPending: 20, reply: .error(.unauthorized, code: "TOKEN_EXPIRED"))
        await transport.on(.get, "/feed") { request in
            request.authorization == "Bearer A2" ? .data(["posts": []]) : .error(.unauthorized, code: "TOKEN_EXPIRED")
        }
        // The refresh answer waits for the test, so the other 19 callers must be found
        // suspended on it: the coalescing is proven, not a lucky ordering.
        await transport.on(
            .post, "/auth/refresh", holdUntilPending: .max,
            reply: .data(["access_token": "A2", "refresh_token": "R2", "expires_in": 3600]))

        let stack = harness.stack
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask { (try? await stack.request(method: .get, path: "/feed")) != nil }
            }
            await transport.waitForRequests(21)
            let waiting = await Self.settle { await stack.client.refreshWaiterCount == 19 }
            #expect(waiting)
            await transport.release(.post, "/auth/refresh")
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }

        #expect(outcomes == Array(repeating: true, count: 20))
        #expect(await transport.count(.post, "/auth/refresh") == 1)
        let refresh = try #require(await transport.requests.first { $0.path == "/auth/refresh" })
        #expect(refresh.json == ["refresh_token": "R1"])
        #expect(refresh.authorization == nil)
        let feeds = await transport.requests.filter { $0.path == "/feed" }
        #expect(feeds.count == 40)
        #expect(feeds.prefix(20).allSatisfy { $0.authorization == "Bearer A1" })
        #expect(feeds.suffix(20).allSatisfy { $0.authorization == "Bearer A2" })
        #expect(await harness.tokenStore.load() == SessionTokens(accessToken: "A2", refreshToken: "R2"))
        #expect(await stack.auth.timeline == [.loading])
    }

    @Test("a failed refresh ends the session once, without a loop")
    func failedRefresh() async {
        let harness = await Harness()
        let transport = harness.transport
        await transport.on(.get, "/feed", holdUntilPending: 3, reply: .error(.unauthorized, code: "TOKEN_EXPIRED"))
        await transport.on(.post, "/auth/refresh", reply: .error(.unauthorized, code: "TOKEN_INVALID"))
        let stack = harness.stack

        let errors = await withTaskGroup(of: APIError?.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    do throws(APIError) {
                        _ = try await stack.request(method: .get, path: "/feed")
                        return nil
                    } catch { return error }
                }
            }
            return await group.reduce(into: [APIError?]()) { $0.append($1) }
        }

        #expect(errors == Array(repeating: .sessionExpired, count: 3))
        #expect(await transport.paths() == ["GET /feed", "GET /feed", "GET /feed", "POST /auth/refresh"])
        let snapshot = await stack.snapshot()
        #expect(snapshot.auth == .unauthenticated && snapshot.tokens == .none && snapshot.user == nil)
        #expect(snapshot.timeline == [.loading, .unauthenticated])
        #expect(await stack.alerts.emitted().isEmpty)
    }

    @Test("a 401 on the repeated request is fatal: no second refresh")
    func retryRefused() async {
        let harness = await Harness()
        await harness.transport.on(.get, "/feed", reply: .error(.unauthorized))
        await harness.transport.on(.post, "/auth/refresh", reply: .data(["access_token": "A2"]))
        await #expect(throws: APIError.sessionExpired) {
            try await harness.stack.request(method: .get, path: "/feed")
        }
        #expect(await harness.transport.paths() == ["GET /feed", "POST /auth/refresh", "GET /feed"])
        #expect(await harness.stack.auth.state == .unauthenticated)
        #expect(await harness.tokenStore.load() == nil)
    }

    @Test("401 TOKEN_INVALID is fatal at once, with no refresh")
    func invalidToken() async {
        let harness = await Harness()
        await harness.transport.on(.get, "/feed", reply: .error(.unauthorized, code: "TOKEN_INVALID"))
        await #expect(throws: APIError.tokenInvalid) {
            try await harness.stack.request(method: .get, path: "/feed")
        }
        #expect(await harness.transport.paths() == ["GET /feed"])
        #expect(await harness.stack.snapshot().tokens == .none)
    }

    @Test("a refresh that cannot reach the server is fatal too")
    func refreshTransportFailure() async {
        let harness = await Harness()
        await harness.transport.on(.get, "/feed", reply: .error(.unauthorized, code: "TOKEN_EXPIRED"))
        await harness.transport.on(.post, "/auth/refresh", reply: .failure(.timedOut))
        await #expect(throws: APIError.sessionExpired) {
            try await harness.stack.request(method: .get, path: "/feed")
        }
        #expect(await harness.transport.requests.count == 2)
        #expect(await harness.stack.auth.state == .unauthenticated)
    }

    @Test("a 401 arriving after another caller refreshed reuses the new token")
    func lateUnauthorized() async throws {
        let harness = await Harness()
        let transport = harness.transport
        let byToken: @Sendable (HTTPRequest) -> FakeTransport.Reply = { request in
            request.authorization == "Bearer A2" ? .data(["posts": [], "users": []]) : .error(.unauthorized, code: "TOKEN_EXPIRED")
        }
        await transport.on(.get, "/feed", times: 2, holdUntilPending: 2, byToken)
        await transport.on(.get, "/feed", byToken)
        await transport.on(.get, "/users/related", times: 1, reply: .error(.unauthorized, code: "TOKEN_EXPIRED"))
        await transport.on(.get, "/users/related", byToken)
        await transport.on(.post, "/auth/refresh", reply: .data(["access_token": "A2", "refresh_token": "R2"]))
        let stack = harness.stack

        // Y leaves with A1 and is held; meanwhile another call refreshes to A2.
        async let late = stack.request(method: .get, path: "/feed")
        await transport.waitForRequests(1)
        _ = try await stack.user.relatedUsers()
        // A second /feed (with A2) releases Y, whose 401 now names a token already replaced.
        async let fresh = stack.request(method: .get, path: "/feed")
        _ = try await (late, fresh)

        #expect(await transport.count(.post, "/auth/refresh") == 1)
        let feeds = await transport.requests.filter { $0.path == "/feed" }.map(\.authorization)
        #expect(feeds == ["Bearer A1", "Bearer A2", "Bearer A2"])
    }
}
