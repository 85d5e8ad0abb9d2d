#if canImport(Testing)
    import Foundation
    import ScenarioKit
    import Testing

    extension ScenarioFile {
        /// Loads and runs the file against `driver`, and records every problem as an issue of the
        /// current test at the JSON file's line and column: each load problem, each failed
        /// expectation (with its diff), or the reason the run could not finish. The masked
        /// transcript is attached to a failing case.
        /// - Returns: the result, for further checks of your own (`nil` when the file did not load).
        @discardableResult
        public func check(with driver: any ScenarioDriver, options: RunOptions = RunOptions()) async -> ScenarioResult? {
            let outcome = await run(with: driver, options: options)
            for problem in outcome.problems {
                Issue.record(Comment(rawValue: problem.message), sourceLocation: at(problem.location))
            }
            if let result = outcome.result, !outcome.problems.isEmpty { Self.attach(result) }
            return outcome.result
        }

        /// A problem of a scenario file, where it is.
        struct Problem: Sendable {
            var message: String
            var location: ScenarioKit.ScenarioLocation?
        }

        /// Loads and runs the file; whatever a test framework should record, in order.
        func run(with driver: any ScenarioDriver, options: RunOptions) async -> (result: ScenarioResult?, problems: [Problem]) {
            let loader = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
            let scenario: Scenario
            switch loader.load(contentsOf: path, id: id) {
            case .success(let loaded):
                scenario = loaded
            case .failure(let failure):
                if failure.issues.isEmpty { return (nil, [Problem(message: failure.description, location: nil)]) }
                return (nil, failure.issues.map { Problem(message: $0.description, location: $0.location) })
            }
            let result = await ScenarioRunner(driver: driver, options: options).run(scenario)
            switch result.status {
            case .passed, .skipped:
                return (result, [])
            case .error:
                let message = result.errorMessage ?? "the scenario could not finish"
                return (result, [Problem(message: message, location: result.errorLocation ?? scenario.location)])
            case .failed:
                let problems = result.failures.map { failure in
                    var text = "\(failure.label): \(failure.message)"
                    if let diff = failure.diff { text += "\n" + diff }
                    return Problem(message: text, location: failure.location ?? scenario.location)
                }
                return (result, problems)
            }
        }

        /// A Swift Testing location for a place in the scenario file.
        private func at(_ location: ScenarioKit.ScenarioLocation?) -> Testing.SourceLocation {
            let file = location?.file ?? path
            return Testing.SourceLocation(
                fileID: "scenarios/" + (file as NSString).lastPathComponent, filePath: file, line: max(1, location?.line ?? 1),
                column: max(1, location?.column ?? 1))
        }

        private static func attach(_ result: ScenarioResult) {
            #if compiler(>=6.2)
                Attachment.record(result.transcriptText, named: "\(result.id.replacingOccurrences(of: "/", with: "-")).transcript.txt")
            #endif
        }
    }
#endif
