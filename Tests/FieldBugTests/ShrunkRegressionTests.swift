import Foundation
import ScenarioKit
import Testing

/// The acceptance of a field bug's shrunk copy: each stack's HAR (and the long held-answer
/// session) goes through the stack's own runner, whose driver is the buggy release
/// (`import TRACE.har -o Scenarios/field/NAME.json --shrink`, or `shrink`), and what it writes
/// must be the regression test the team commits: it (a) loads beside the stack's scenarios
/// and its `invariants.json`, also when a test bundle wrote it; (b) is small (at most 3 steps
/// and 4 exchanges); (c) relaxes nothing; (d) fails on the buggy release by the invariant the
/// bug breaks and by nothing else, every request answered by a scripted exchange and every
/// exchange used as scripted; (e) passes on the fixed release, once (with the same two rules),
/// under `--repeat 5` and under `--schedules 50`.
@Suite struct ShrunkRegressionTests {
    static let bugs: [FieldBug] = [
        FieldBug(
            stack: .taskBoard, input: .trace("field-session")),
        FieldBug(
            stack: .storefront, input: .trace("field-session")),
        // The message on its way while the user signs out (started, sign-out, awaited) after a
        // refreshed token: every answer that run meets is scripted, the refresh's two included.
        FieldBug(
            stack: .messenger, input: .trace("field-session"), smallest: (steps: 4, exchanges: 6)),
        FieldBug(
            stack: .taskBoard, input: .trace("held-session")),
        FieldBug(
            stack: .taskBoard, input: .session("held-session")),
    ]

    /// The shrunk copy, loaded where it was written (its id decides the invariants governing it).
    static func load(_ shrunk: FieldShrinks.Shrunk, _ driver: any ScenarioDriver) throws -> Scenario {
        try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(
            contentsOf: shrunk.output.path, id: FieldShrinks.Shrunk.id(shrunk.output)
        ).get()
    }

    /// What a run did that a relaxed check would have let through: requests no exchange
    /// answered, and exchanges (not optional) used other than as scripted. Read from the typed
    /// run record, whatever `relax` says.
    static func unscripted(_ record: RunRecord, of scenario: Scenario) -> [String] {
        let unmatched = record.requests.filter { $0.exchange == nil }.map {
            "unmatched #\($0.number) \($0.request.method) \($0.request.path)"
        }
        let unused = scenario.exchanges.filter { !$0.optional }.compactMap { exchange -> String? in
            let used = record.requests.filter { $0.exchange == exchange.id }.count
            let fits = exchange.times.map { used == $0 } ?? (used >= 1)
            return fits ? nil : "exchange \(exchange.id) served \(used) of \(exchange.times.map(String.init) ?? "unlimited")"
        }
        return unmatched + unused
    }

    @Test(arguments: bugs)
    func theStacksRunnerWritesAShrunkCopy(_ bug: FieldBug) async throws {
        let shrunk = try await FieldShrinks.shared.shrunk(bug)
        bug.expect(.written) {
            #expect(shrunk.run.status == 0, "\(shrunk.run)")
            #expect(FileManager.default.fileExists(atPath: shrunk.output.path), "\(shrunk.run)")
        }
    }

    /// (a) Copied into the stack's scenario folder, beside its `invariants.json`, it lints clean
    /// with the rest.
    @Test(arguments: bugs)
    func aItLoadsBesideTheStacksScenarios(_ bug: FieldBug) async throws {
        let shrunk = try await FieldShrinks.shared.shrunk(bug)
        let folder = try FieldShrinks.scenarioCopy(of: bug.stack)
        try FileManager.default.copyItem(at: shrunk.output, to: folder.appendingPathComponent("Scenarios/field/\(bug.name).json"))
        let lint = try await StackRunner(name: bug.stack.runner).run(["lint", "Scenarios"], in: folder)
        bug.expect(.loadsBeside) { #expect(lint.status == 0, "\(lint)") }
    }

    /// (a) The copy a test bundle writes (`.scenarios(shrink: "Reports/shrunk")`, shrinking in its
    /// own process, elsewhere than the scenario) loads as well once copied back beside them.
    @Test(arguments: bugs)
    func aTheCopyATestBundleWritesLoadsBesideThemToo(_ bug: FieldBug) async throws {
        let shrunk = try await FieldShrinks.shared.shrunk(bug)
        let input = try ScenarioLoader(actions: bug.stack.buggy.actions, givenKeys: bug.stack.buggy.givenKeys).load(
            contentsOf: shrunk.input.path, id: FieldShrinks.Shrunk.id(shrunk.input)
        ).get()
        let reports = FieldShrinks.parent.appendingPathComponent(UUID().uuidString + "/Reports/shrunk")
        var plan = RunPlan()
        plan.shrinkInto = reports.path
        // As a test bundle runs it: the shrink follows the failure.
        var runner = ScenarioRunner(driver: bug.stack.buggy, plan: plan)
        runner.followUp = ShrinkOnFailure()
        let result = await runner.run(input)
        let copy = try #require(result.shrunkCopy, "no copy written: \(result.shrinkNote ?? "")")
        let folder = try FieldShrinks.scenarioCopy(of: bug.stack)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: copy), to: folder.appendingPathComponent("Scenarios/field/\(bug.name).json"))
        let lint = try await StackRunner(name: bug.stack.runner).run(["lint", "Scenarios"], in: folder)
        bug.expect(.bundleCopyLoadsBeside) { #expect(lint.status == 0, "\(lint)") }
    }

    /// (b) At most 3 steps and 4 exchanges.
    @Test(arguments: bugs)
    func bItIsSmall(_ bug: FieldBug) async throws {
        let scenario = try Self.load(try await FieldShrinks.shared.shrunk(bug), bug.stack.buggy)
        bug.expect(.small) {
            #expect(scenario.steps.count <= bug.smallest.steps, "\(scenario.steps.count) steps")
            #expect(scenario.exchanges.count <= bug.smallest.exchanges, "\(scenario.exchanges.count) exchanges")
        }
    }

    /// (c) No `relax`: every check the input had is still on.
    @Test(arguments: bugs)
    func cItRelaxesNothing(_ bug: FieldBug) async throws {
        let shrunk = try await FieldShrinks.shared.shrunk(bug)
        let document = try #require(JSONValue.parse(try Data(contentsOf: shrunk.output)))
        bug.expect(.relaxesNothing) { #expect(document["relax"] == nil, "relax: \(document["relax"]?.compactText ?? "")") }
    }

    /// (d) On the buggy release it fails by the invariant the bug breaks, and by nothing else.
    @Test(arguments: bugs)
    func dItFailsOnTheBuggyReleaseByTheBrokenInvariantAlone(_ bug: FieldBug) async throws {
        let scenario = try Self.load(try await FieldShrinks.shared.shrunk(bug), bug.stack.buggy)
        let (result, record) = await ScenarioRunner(driver: bug.stack.buggy).runReporting(scenario)
        let broken = FieldStack.brokenInvariants(result)
        bug.expect(.failsByTheInvariant) {
            #expect(result.status == .failed && result.errorMessage == nil, "\(result.explanation)")
            #expect(!broken.isEmpty && broken.isSubset(of: bug.stack.broken), "broken: \(broken.sorted())")
        }
        bug.expect(.failsByNothingElse) {
            let others = result.failures.filter { !$0.label.hasPrefix("invariant ") }
            #expect(others.isEmpty, "it also fails by: \(others.map(\.summary))")
        }
        bug.expect(.buggyRunAllScripted) {
            #expect(Self.unscripted(record, of: scenario) == [], "\(result.transcript.joined(separator: "\n"))")
        }
    }

    /// (e) On the fixed release it passes: once, with every request scripted and every exchange
    /// used as scripted; five times alike; and under 50 explored schedules.
    @Test(arguments: bugs)
    func eItPassesOnTheFixedRelease(_ bug: FieldBug) async throws {
        let scenario = try Self.load(try await FieldShrinks.shared.shrunk(bug), bug.stack.fixed)
        let (once, record) = await ScenarioRunner(driver: bug.stack.fixed).runReporting(scenario)
        bug.expect(.passesOnce) { #expect(once.status == .passed, "\(once.explanation)") }
        bug.expect(.fixedRunAllScripted) {
            #expect(Self.unscripted(record, of: scenario) == [], "\(once.transcript.joined(separator: "\n"))")
        }
        let repeated = await ScenarioRunner(driver: bug.stack.fixed, plan: RunPlan(mode: .repeated(5))).run(scenario)
        bug.expect(.passesRepeated) { #expect(repeated.status == .passed, "\(repeated.explanation)") }
        let explored = await ScenarioRunner(driver: bug.stack.fixed, plan: RunPlan(mode: .explored(schedules: 50, seed: 1))).run(scenario)
        bug.expect(.passesExplored) { #expect(explored.status == .passed, "\(explored.explanation)") }
    }
}
