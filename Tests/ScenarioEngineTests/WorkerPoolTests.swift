import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

#if os(macOS) || os(Linux)
    @Suite struct WorkerPoolTests {
        private func pool(_ script: String, stallLimit: Duration = .seconds(60)) -> WorkerPool {
            WorkerPool(
                launch: WorkerLaunch(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], stallLimit: stallLimit))
        }

        private let file = DiscoveredScenario(path: "a/b.json", id: "a/b")

        @Test func aWorkerThatDiesCostsItsScenarioOnly() async {
            guard case .died(let reason) = await pool("read line; kill -SEGV $$").run(file, plan: RunPlan()) else {
                Issue.record("a worker killed by a signal answered")
                return
            }
            #expect(reason.contains("signal 11"), "\(reason)")
        }

        @Test func aWorkerAnswersWithTheResultItWrites() async throws {
            let answer = ScenarioResult(id: "a/b", name: "b", file: "a/b.json", status: .failed, transcript: ["line"])
            let json = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
            guard case .finished(let executed) = await pool("read line; printf '%s\\n' '{\"result\":\(json)}'").run(file, plan: RunPlan())
            else {
                Issue.record("the answer was not read")
                return
            }
            #expect(executed.result.status == .failed)
            #expect(executed.result.id == "a/b")
            #expect(executed.result.transcript == ["line"])
            #expect(executed.loadFailure == nil)
        }

        @Test func aWorkerTellsAFileThatDidNotLoad() async throws {
            let failure = LoadFailure(
                file: "a/b.json",
                issues: [LoadIssue(location: ScenarioLocation(file: "a/b.json", line: 2, column: 3, path: "$.x"), message: "no")])
            let result = ScenarioResult(id: "a/b", name: "a/b", file: "a/b.json", status: .error)
            let reply = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
            let loadFailure = String(decoding: try JSONEncoder().encode(failure), as: UTF8.self)
            let script = "read line; printf '%s\\n' '{\"result\":\(reply),\"loadFailure\":\(loadFailure)}'"
            guard case .finished(let executed) = await pool(script).run(file, plan: RunPlan()) else {
                Issue.record("the answer was not read")
                return
            }
            #expect(executed.loadFailure?.issues.first?.location.line == 2)
        }

        /// A worker stuck in its scenario (here: one that never answers) is stopped after its
        /// stall limit, and its scenario is an error that says why.
        @Test func aWorkerThatGoesQuietIsStopped() async {
            guard
                case .died(let reason) = await pool("read line; exec sleep 600", stallLimit: .milliseconds(300)).run(file, plan: RunPlan())
            else {
                Issue.record("a silent worker answered")
                return
            }
            #expect(reason.contains("made no progress for 0.3 seconds of real time"), "\(reason)")
        }

        /// Empty lines are a worker's heartbeats: the answer after them is read, however long it took.
        @Test func heartbeatsKeepASlowWorkerGoing() async throws {
            let answer = ScenarioResult(id: "a/b", name: "b", file: "a/b.json", status: .passed)
            let json = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
            let beats = "for i in 1 2 3 4 5; do sleep 0.1; echo; done"
            guard
                case .finished(let executed) = await pool(
                    "read line; \(beats); printf '%s\\n' '{\"result\":\(json)}'", stallLimit: .seconds(2)
                ).run(file, plan: RunPlan())
            else {
                Issue.record("the answer after heartbeats was not read")
                return
            }
            #expect(executed.result.status == .passed)
        }

        @Test func aLineThatIsNotAReplyIsNotTakenForOne() async {
            guard case .died(let reason) = await pool("read line; echo 'notes: GET /notes answered 200'").run(file, plan: RunPlan()) else {
                Issue.record("a stray line was taken for a reply")
                return
            }
            #expect(reason.contains("not a result"), "\(reason)")
        }
    }
#endif
