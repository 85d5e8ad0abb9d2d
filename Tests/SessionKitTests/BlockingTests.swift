import HTTPCore
import Testing

@testable import SessionKit

@Suite("Blocking users, end to end")
struct BlockingTests {
    @Test("blocking yourself is refused before any request")
    func selfBlock() async {
        let harness = await Harness()
        await #expect(throws: APIError.cannotBlockSelf) { try await harness.stack.blocking.block("u1") }
        #expect(await harness.transport.requests.isEmpty)
    }

    @Test("offline: a clear error, no request, cache unchanged")
    func offline() async {
        let harness = await Harness(online: false)
        await #expect(throws: APIError.offline) { try await harness.stack.blocking.block("u2") }
        #expect(await harness.transport.requests.isEmpty)
        #expect(await harness.stack.blocking.blockedIDs().isEmpty)
    }

    @Test("rapid repeated blocks end in one entry; a failure leaves the cache alone")
    func repeatedBlocks() async throws {
        let harness = await Harness()
        await harness.transport.on(.put, "/users/u2/block", holdUntilPending: 3, reply: .empty(.noContent))
        await harness.transport.on(.put, "/users/u3/block", reply: .error(.internalServerError))
        let blocking = harness.stack.blocking

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 { group.addTask { try await blocking.block("u2") } }
            try await group.waitForAll()
        }
        #expect(await blocking.blockedIDs() == ["u2"])
        await #expect(throws: APIError.serverError(status: 500)) { try await blocking.block("u3") }
        #expect(await blocking.blockedIDs() == ["u2"])

        await harness.transport.on(.delete, "/users/u2/block", reply: .empty(.noContent))
        try await blocking.unblock("u2")
        #expect(await blocking.blockedIDs().isEmpty)
    }

    @Test("search and feed are filtered in both directions")
    func filtering() async throws {
        let harness = await Harness()
        await harness.transport.on(.put, "/users/u2/block", reply: .json(.ok, ["success": true]))
        await harness.transport.on(
            .get, "/users/search",
            reply: .data([
                "users": [
                    ["id": "u2", "name": "Blocked by me"], ["id": "u3", "name": "Blocked me", "blocked_me": true],
                    ["id": "u4", "name": "Visible"], ["name": "no id"],
                ]
            ]))
        await harness.transport.on(
            .get, "/feed",
            reply: .data([
                "posts": [
                    ["id": "p1", "author_id": "u2"], ["id": "p2", "author_id": "u3", "author_blocked_me": true],
                    ["id": "p3", "author_id": "u4"],
                ]
            ]))
        let blocking = harness.stack.blocking
        try await blocking.block("u2")

        #expect(try await blocking.search("a").map(\.id) == ["u4"])
        #expect(await harness.transport.requests[1].query == [HTTPRequest.QueryItem(name: "q", value: "a")])
        #expect(try await blocking.feed().map(\.id) == ["p3"])
    }

    @Test("a wrong-shaped answer is undecodable, not a crash")
    func wrongShape() async {
        let harness = await Harness()
        await harness.transport.on(.get, "/feed", reply: .data(["posts": "nope"]))
        await #expect(throws: APIError.undecodableBody) { try await harness.stack.blocking.feed() }
    }
}
