import Foundation
import MessengerDriver
import ScenarioKit
import StorefrontDriver
import TaskBoardDriver
import Testing

/// A stack of `Examples/` that had a field bug: its buggy and fixed releases, the runner built
/// with the buggy one, its scenarios and rules, and the HAR its users sent.
struct FieldStack: Sendable, CustomTestStringConvertible {
    /// The example's name, as its folder is named.
    let name: String
    /// The buggy release's driver.
    let buggy: any ScenarioDriver
    /// The fixed release's driver.
    let fixed: any ScenarioDriver
    /// The buggy release's driver with a recorder in its session configuration.
    let recordingBuggy: @Sendable (URLSessionRecorder) -> any ScenarioDriver
    /// The executable whose driver is the buggy release.
    let runner: String
    /// The invariants the field session breaks (each one the fix must keep).
    let broken: Set<String>

    var testDescription: String { name }

    /// `Examples/NAME`, relative to the package root.
    var folder: String { "Examples/\(name)" }
    /// The scenario folder, relative to the package root.
    var scenarios: String { folder + "/Scenarios" }
    /// The folder, absolute.
    var url: URL { Self.root.appendingPathComponent(folder) }

    /// The package root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let taskBoard = FieldStack(
        name: "TaskBoard", buggy: TaskBoardDriver(build: .buggy), fixed: TaskBoardDriver(build: .fixed),
        recordingBuggy: { TaskBoardDriver(build: .buggy, recorder: $0) }, runner: "taskboard-scenarios",
        broken: ["refresh-token-spent-once", "one-refresh-at-a-time"])
    static let storefront = FieldStack(
        name: "Storefront", buggy: StorefrontDriver(build: .buggy), fixed: StorefrontDriver(build: .fixed),
        recordingBuggy: { StorefrontDriver(build: .buggy, recorder: $0) },
        runner: "storefront-scenarios", broken: ["waits-out-retry-after"])

    static let messenger = FieldStack(
        name: "Messenger", buggy: MessengerDriver(build: .buggy), fixed: MessengerDriver(build: .fixed),
        recordingBuggy: { MessengerDriver(build: .buggy, recorder: $0) }, runner: "messenger-scenarios",
        broken: ["no-authenticated-request-after-sign-out", "no-refresh-after-sign-out"])

    /// Every stack.
    static let all: [FieldStack] = [taskBoard, storefront, messenger]

    /// The ids of the invariants in the stack's `invariants.json`.
    func invariantIDs() throws -> [String] {
        let data = try Data(contentsOf: url.appendingPathComponent("Scenarios/invariants.json"))
        return JSONValue.parse(data)?["invariants"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    /// The invariants a result broke.
    static func brokenInvariants(_ result: ScenarioResult) -> Set<String> {
        Set(result.failures.map(\.label).filter { $0.hasPrefix("invariant ") }.map { String($0.dropFirst("invariant ".count)) })
    }
}
