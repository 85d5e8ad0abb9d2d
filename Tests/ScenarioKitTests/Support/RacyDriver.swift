import Foundation

@testable import ScenarioEngine

/// Two races written the way the designs warn against, each with a fast and a slow caller, so
/// the first-in-first-out order happens to hide them: a blocked-user guard that checks, awaits,
/// then sets; and a refresh coalescer that checks for a refresh in flight before an await and
/// starts one after it.
struct RacyDriver: ScenarioDriver {
    var name: String { "Racy" }
    var actions: [ActionSpec] { [ActionSpec("blockedTwice", "two 403 handlers"), ActionSpec("expiredTwice", "two 401 handlers")] }
    var givenKeys: [GivenSpec] { [] }

    func makeSession(_ context: DriverContext) async throws -> any DriverSession { RacySession() }
}

actor Storage {
    func wipe() {}
    func read() -> String { "stored" }
}

/// Checks, awaits the wipe, then sets: a second handler that reaches the check while the first
/// awaits shows a second alert.
@MainActor final class RacyGuard {
    var handled = false
    var alerts: [String] = []

    func blocked(_ storage: Storage) async {
        guard !handled else { return }
        await storage.wipe()
        handled = true
        alerts.append("Account Blocked")
    }
}

/// Checks for a refresh in flight, awaits the stored token, then starts a refresh without looking again.
actor RacyCoalescer {
    private var inFlight: Task<String, Never>?
    private(set) var refreshes = 0
    let storage: Storage

    init(storage: Storage) { self.storage = storage }

    func freshToken() async -> String {
        if let inFlight { return await inFlight.value }
        _ = await storage.read()
        refreshes += 1
        let refresh = Task { "token-\(refreshes)" }
        inFlight = refresh
        return await refresh.value
    }
}

final class RacySession: DriverSession, @unchecked Sendable {
    let storage = Storage()
    let guardian = RacyGuard()
    let coalescer: RacyCoalescer

    init() { coalescer = RacyCoalescer(storage: storage) }

    /// A caller that takes a few hops before it gets there.
    private func slowly(_ body: @escaping @Sendable () async -> Void) async {
        for _ in 0..<4 { _ = await storage.read() }
        await body()
    }

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
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

    func snapshot() async -> JSONValue {
        ["refreshes": .number(Double(await coalescer.refreshes))]
    }

    func alerts() async -> [JSONValue] {
        await MainActor.run { [guardian] in guardian.alerts.map { .string($0) } }
    }

    func timeline() async -> [JSONValue] { [] }
}
