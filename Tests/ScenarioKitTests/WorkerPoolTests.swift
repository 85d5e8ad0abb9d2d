import Foundation
import Testing

@testable import ScenarioKit

#if os(macOS) || os(Linux)
    @Suite struct WorkerPoolTests {
        private func pool(_ script: String) -> WorkerPool {
            WorkerPool(launch: WorkerLaunch(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script]))
        }

        @Test func aWorkerThatDiesCostsItsScenarioOnly() async {
            let scenario = Build.scenario(steps: [Build.step(.runUntilIdle)])
            let result = await pool("read line; kill -SEGV $$").run(scenario)
            #expect(result.status == .error)
            #expect(result.errorMessage?.contains("signal 11") == true, "\(result.errorMessage ?? "")")
        }

        @Test func aWorkerAnswersWithTheResultItWrites() async throws {
            let answer = ScenarioResult(id: "a/b", name: "b", file: "a/b.json", status: .failed, transcript: ["line"])
            let json = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
            let scenario = Build.scenario(steps: [Build.step(.runUntilIdle)])
            let result = await pool("read line; printf '%s\\n' '\(json)'").run(scenario)
            #expect(result.status == .failed)
            #expect(result.id == "a/b")
            #expect(result.transcript == ["line"])
        }
    }
#endif
