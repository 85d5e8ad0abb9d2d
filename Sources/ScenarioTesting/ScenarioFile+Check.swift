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
            let loader = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
            let scenario: Scenario
            switch loader.load(contentsOf: path, id: id) {
            case .success(let loaded):
                scenario = loaded
            case .failure(let failure):
                if failure.issues.isEmpty { Issue.record(Comment(rawValue: failure.description), sourceLocation: at(nil)) }
                for issue in failure.issues {
                    Issue.record(Comment(rawValue: issue.description), sourceLocation: at(issue.location))
                }
                return nil
            }
            let result = await ScenarioRunner(driver: driver, options: options).run(scenario)
            switch result.status {
            case .passed, .skipped:
                return result
            case .error:
                Issue.record(
                    Comment(rawValue: result.errorMessage ?? "the scenario could not finish"),
                    sourceLocation: at(result.errorLocation ?? scenario.location))
            case .failed:
                for failure in result.failures {
                    var text = "\(failure.label): \(failure.message)"
                    if let diff = failure.diff { text += "\n" + diff }
                    Issue.record(Comment(rawValue: text), sourceLocation: at(failure.location ?? scenario.location))
                }
            }
            Self.attach(result)
            return result
        }

        /// A Swift Testing location for a place in the scenario file.
        private func at(_ location: ScenarioKit.SourceLocation?) -> Testing.SourceLocation {
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
