import ExampleStackChecks
import Foundation
import ScenarioKit
import Testing

/// Each field-bug stack's own scenarios and rules: every scenario passes on the fixed release on
/// both routes and under 50 explored schedules (the fix has no race of its own), and every rule
/// of its `invariants.json` is broken by the buggy release in one of them at least, by that rule
/// (not by a run that stopped), and held by the fixed one.
@Suite struct StackRuleTests {
    static let cases: [(FieldStack, String)] = FieldStack.all.flatMap { stack in
        ExampleCorpus(stack.scenarios, driver: stack.fixed).ids.map { (stack, $0) }
    }

    @Test(arguments: FieldStack.all)
    func theStackHasScenariosAndRules(stack: FieldStack) throws {
        #expect(ExampleCorpus(stack.scenarios, driver: stack.fixed).scenarios.count >= 3)
        #expect(try !stack.invariantIDs().isEmpty)
    }

    @Test("scenario passes on the fixed release", arguments: cases, RunPlan.Route.allCases)
    func passesOnTheFixedRelease(_ scenario: (stack: FieldStack, id: String), route: RunPlan.Route) async throws {
        let result = try await ExampleCorpus(scenario.stack.scenarios, driver: scenario.stack.fixed).run(scenario.id, route: route)
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test("scenario passes on the fixed release under 50 schedules", arguments: cases)
    func passesOnTheFixedReleaseExplored(_ scenario: (stack: FieldStack, id: String)) async throws {
        let corpus = ExampleCorpus(scenario.stack.scenarios, driver: scenario.stack.fixed)
        let runner = ScenarioRunner(driver: scenario.stack.fixed, plan: RunPlan(mode: .explored(schedules: 50, seed: 1)))
        let result = await runner.run(try corpus.load(scenario.id))
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test(arguments: FieldStack.all)
    func everyRuleBreaksOnTheBuggyRelease(stack: FieldStack) async throws {
        let buggy = ExampleCorpus(stack.scenarios, driver: stack.buggy)
        var broken: Set<String> = []
        for id in buggy.ids {
            let result = try await buggy.run(id, route: .direct)
            #expect(result.errorMessage == nil, "\(id) stopped before its checks: \(result.errorMessage ?? "")")
            broken.formUnion(FieldStack.brokenInvariants(result))
        }
        #expect(broken == Set(try stack.invariantIDs()), "the buggy release breaks \(broken.sorted())")
        #expect(stack.broken.isSubset(of: broken))
    }
}
