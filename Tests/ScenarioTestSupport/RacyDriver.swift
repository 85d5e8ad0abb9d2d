import Foundation
import ScenarioEngine

/// Two races written the way the designs warn against, each with a fast and a slow caller, so
/// the first-in-first-out order happens to hide them: a blocked-user guard that checks, awaits,
/// then sets; and a refresh coalescer that checks for a refresh in flight before an await and
/// starts one after it.
package struct RacyDriver: ScenarioDriver {
    package init() {}
    package var name: String { "Racy" }
    package var actions: [ActionSpec] { [ActionSpec("blockedTwice", "two 403 handlers"), ActionSpec("expiredTwice", "two 401 handlers")] }
    package var givenKeys: [GivenSpec] { [] }

    package func makeSession(_ context: DriverContext) async throws -> any DriverSession { RacySession() }
}

package actor Storage {
    package func wipe() {}
    package func read() -> String { "stored" }
}

/// Checks, awaits the wipe, then sets: a second handler that reaches the check while the first
/// awaits shows a second alert.
@MainActor package final class RacyGuard {
    package var handled = false
    package var alerts: [String] = []

    package func blocked(_ storage: Storage) async {
        guard !handled else { return }
        await storage.wipe()
        handled = true
        alerts.append("Account Blocked")
    }
}

/// Checks for a refresh in flight, awaits the stored token, then starts a refresh without looking again.
package actor RacyCoalescer {
    private var inFlight: Task<String, Never>?
    private(set) var refreshes = 0
    package let storage: Storage

    package init(storage: Storage) { self.storage = storage }

    package func freshToken() async -> String {
        if let inFlight { return await inFlight.value }
        _ = await storage.read()
        refreshes += 1
        let refresh = Task { "token-\(refreshes)" }
        inFlight = refresh
        return await refresh.value
    }
}

package final class RacySession: DriverSession, @unchecked Sendable {
    package let storage = Storage()
    package let guardian = RacyGuard()
    package let coalescer: RacyCoalescer

    package init() { coalescer = RacyCoalescer(storage: storage) }

    /// A caller that takes a few hops before it gets there.
    private func slowly(_ body: @escaping @Sendable () async -> Void) async {
        for _ in 0..<4 { _ = await storage.read() }
        await body()
    }

    package func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        let storage = self.storage
        switch action {
        case "blockedTwice":
            let guardian = self.guardian
            async let fast: Void = guardian.blocked(storage)
            async let slow: Void = slowly { await guardian.blocked(storage) }
            _ = await (fast, slow)
        case "expiredTwice":
            let coalescer = self.coalescer
            async let fast = coalescer.freshToken()
            async let slow: Void = slowly { _ = await coalescer.freshToken() }
            _ = await (fast, slow)
        default:
            return .error(["code": "unknownAction"])
        }
        return .value(.null)
    }

    package func snapshot() async -> JSONValue {
        ["refreshes": .number(Double(await coalescer.refreshes))]
    }

    package func alerts() async -> [JSONValue] {
        await MainActor.run { [guardian] in guardian.alerts.map { .string($0) } }
    }

    package func timeline() async -> [JSONValue] { [] }
}
