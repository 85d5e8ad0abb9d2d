import Foundation
import ScenarioTestSupport

@testable import ScenarioEngine
@testable import ScenarioShrinking

/// A scenario written to a folder of its own (with an invariant file when given one), shrunk
/// in this process, and what came of it.
struct ShrinkFixture {
    let folder: URL
    let input: DiscoveredScenario
    let driver: any ScenarioDriver

    init(_ scenario: String, driver: any ScenarioDriver, invariants: String? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shrink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let invariants { try invariants.write(to: folder.appendingPathComponent("invariants.json"), atomically: true, encoding: .utf8) }
        input = DiscoveredScenario(path: folder.appendingPathComponent("input.json").path, id: "input")
        try scenario.write(toFile: input.path, atomically: true, encoding: .utf8)
        self.driver = driver
    }

    /// Where the result goes: beside the input unless told.
    var output: String { folder.appendingPathComponent("min.json").path }

    func shrink(_ settings: ShrinkSettings = .unhurried, to output: String? = nil) async -> ShrinkOutcome {
        await ScenarioShrinker(driver: driver, plan: RunPlan(), settings: settings).shrink(input, to: output ?? self.output)
    }

    /// The shrink's report; records an issue and returns `nil` when nothing was written.
    func shrunk(_ settings: ShrinkSettings = .unhurried) async -> ShrinkReport? {
        let outcome = await shrink(settings)
        guard case .written(let report) = outcome else { return nil }
        return report
    }

    /// The written result as JSON.
    func result(_ path: String? = nil) throws -> JSONValue {
        try JSONTextParser(data: Data(contentsOf: URL(fileURLWithPath: path ?? output)), file: "min.json").parseDocument().value
    }

    /// The written result, loaded, and run once under `schedule`.
    func run(_ path: String? = nil, schedule: JobSchedule = .fifo) async throws -> ScenarioResult {
        let file = path ?? output
        let scenario = try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(contentsOf: file, id: "min").get()
        let plan = RunPlan(mode: schedule.isFIFO ? .once : .replay(schedule))
        return await ScenarioRunner(driver: driver, plan: plan).run(scenario)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

extension ShrinkSettings {
    /// The default settings with no time limit a loaded machine could reach: what a test shrinks
    /// to must not depend on wall time (the limit's own test sets one of its own).
    static var unhurried: ShrinkSettings {
        var settings = ShrinkSettings()
        settings.timeLimit = .seconds(3_600)
        return settings
    }
}
