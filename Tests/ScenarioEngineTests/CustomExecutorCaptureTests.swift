import Dispatch
import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// An actor whose custom executor runs its jobs on a Dispatch queue of the app's own is the
/// scenario's too (Linux): the executor's `queue.async` is captured like any block.
@Suite struct CustomExecutorCaptureTests {
    /// Runs an actor's jobs as blocks of a serial queue, as code written before
    /// `DispatchSerialQueue` could serve as an executor does.
    final class QueueExecutor: SerialExecutor, @unchecked Sendable {
        let queue = DispatchQueue(label: "vault.executor")
        func enqueue(_ job: UnownedJob) {
            let executor = asUnownedSerialExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }
        func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
    }

    actor Vault {
        private let executor = QueueExecutor()
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        private var reads = 0
        func read() -> Int {
            reads += 1
            return reads
        }
    }

    struct VaultDriver: ScenarioDriver {
        var name: String { "Vault" }
        var actions: [ActionSpec] { [ActionSpec("read", "five concurrent reads of the vault, then a 10 s Task.sleep inside it")] }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession { VaultSession(context: context) }
    }

    struct VaultSession: ActionOnlySession {
        let context: DriverContext
        let vault = Vault()

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            let reads = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<5 { group.addTask { await vault.read() } }
                return await group.reduce(0) { max($0, $1) }
            }
            try? await Task.sleep(for: .seconds(10))
            let offset = context.clock.now.offset.components
            return .value(["reads": .number(Double(reads)), "at": .number(Double(offset.seconds))])
        }
    }

    #if os(Linux)
        @Test func anActorOnADispatchQueueExecutorIsTheScenarios() async {
            for _ in 0..<20 {
                let result = await Build.runOne("read", expecting: ["reads": 5, "at": 10], with: VaultDriver())
                #expect(result.status == .passed, "\(result.explanation)")
            }
        }
    #endif
}
