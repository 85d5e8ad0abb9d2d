#if canImport(Testing) && canImport(XCTest)
    import Foundation
    import ScenarioKit
    import XCTest

    extension ScenarioFile {
        /// For an XCTest test method: loads and runs the file against `driver` and records every
        /// problem as a failure of `testCase` at the JSON file's line (XCTest has no columns; the
        /// message starts with `file:line:column`).
        ///
        /// ```swift
        /// func testScenarios() async {
        ///     for file in ScenarioFile.all(in: "Scenarios") {
        ///         await file.check(with: MyDriver(), recordingFailuresIn: self)
        ///     }
        /// }
        /// ```
        ///
        /// `settings` say how it runs and where its reports go, as the ``ScenarioSettings`` trait
        /// does for Swift Testing; the environment's `SCENARIO_*` variables override them.
        /// - Returns: the result (`nil` when the file did not load).
        @discardableResult
        public func check(
            with driver: any ScenarioDriver, options: RunOptions = RunOptions(), settings: ScenarioSettings = ScenarioSettings(),
            recordingFailuresIn testCase: XCTestCase
        ) async -> ScenarioResult? {
            let outcome = await run(
                with: driver, options: options, settings: settings, environment: ProcessInfo.processInfo.environment, label: testCase.name)
            for problem in outcome.problems {
                let file = problem.location?.file ?? path
                let line = max(1, problem.location?.line ?? 1)
                let column = max(1, problem.location?.column ?? 1)
                let message = "\(file):\(line):\(column): \(id): \(problem.message)"
                #if canImport(Darwin)
                    let place = XCTSourceCodeContext(location: XCTSourceCodeLocation(filePath: file, lineNumber: line))
                    testCase.record(XCTIssue(type: .assertionFailure, compactDescription: message, sourceCodeContext: place))
                #else
                    testCase.recordFailure(withDescription: message, inFile: file, atLine: line, expected: true)
                #endif
            }
            return outcome.result
        }
    }
#endif
