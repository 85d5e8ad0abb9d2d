import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

@Suite struct StallWatchTests {
    /// A scenario whose work count stops moving is reported with its file once it stays still.
    @Test func aScenarioThatStopsRunningWorkIsReported() async {
        let counter = RunCounter()
        let scenario = ObjectIdentifier(counter)
        let reported: ScenarioHost.Progress = await withCheckedContinuation { done in
            StallWatch.watch(
                every: .milliseconds(5), for: .milliseconds(50),
                progress: {
                    // Progress for the first 20 readings, then none.
                    let reading = counter.next()
                    return ScenarioHost.Progress(scheduler: scenario, file: "stuck.json", workRun: min(reading, 20))
                }
            ) { done.resume(returning: $0) }
        }
        #expect(reported.file == "stuck.json")
        #expect(reported.workRun == 20)
        // The first reading, 19 more that moved, then 10 still ones of 5 ms: the 50 ms limit.
        #expect(counter.next() == 31)
    }
}
