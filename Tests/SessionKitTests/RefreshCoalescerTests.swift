import Testing

@testable import SessionKit

@Suite("Refresh coalescing and the block guard")
struct RefreshCoalescerTests {
    @Test("the first 401 refreshes, later ones wait, all are released in order")
    func coalesces() {
        var machine = RefreshCoalescer<Int>()
        #expect(machine.unauthorized(sentToken: "A1", currentToken: "A1") == .startRefresh)
        #expect(machine.isRefreshing)
        #expect(machine.unauthorized(sentToken: "A1", currentToken: "A1") == .suspend)
        #expect(machine.enqueue(1) == true)
        #expect(machine.unauthorized(sentToken: "A1", currentToken: "A1") == .suspend)
        #expect(machine.enqueue(2) == true)
        #expect(machine.refreshFinished() == [1, 2])
        #expect(!machine.isRefreshing)
        #expect(machine.refreshFinished() == [])
    }

    @Test("a 401 for an old token reuses the newer one without refreshing")
    func reusesNewerToken() {
        var machine = RefreshCoalescer<Int>()
        #expect(machine.unauthorized(sentToken: "A1", currentToken: "A2") == .retry(withToken: "A2"))
        #expect(!machine.isRefreshing)
    }

    @Test("no token left: fail, no refresh")
    func noToken() {
        var machine = RefreshCoalescer<Int>()
        #expect(machine.unauthorized(sentToken: "A1", currentToken: nil) == .fail)
        #expect(!machine.isRefreshing)
    }

    @Test("enqueue outside a refresh is refused")
    func enqueueIdle() {
        var machine = RefreshCoalescer<Int>()
        #expect(machine.enqueue(1) == false)
        #expect(machine.refreshFinished() == [])
    }

    @Test("the block guard handles once until re-armed")
    func blockGuard() {
        var guardState = BlockedSessionGuard()
        #expect(guardState.forbiddenReceived() == .handleBlock)
        #expect(guardState.forbiddenReceived() == .ignore)
        #expect(guardState.forbiddenReceived() == .ignore)
        guardState.rearm()
        #expect(guardState.forbiddenReceived() == .handleBlock)
    }
}
