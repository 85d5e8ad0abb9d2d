#if canImport(Testing) && canImport(XCTest)
    import Foundation
    import ScenarioEngine
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
            with driver: any ScenarioDriver, plan: RunPlan = RunPlan(), settings: ScenarioSettings = ScenarioSettings(),
            recordingFailuresIn testCase: XCTestCase
        ) async -> ScenarioResult? {
            let outcome = await run(
                with: driver, plan: plan, settings: settings, environment: ProcessInfo.processInfo.environment, label: testCase.name)
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

        /// Loads and runs the file against `driver` with `options`, for an XCTest test method.
        @available(*, deprecated, renamed: "check(with:plan:settings:recordingFailuresIn:)")
        @discardableResult
        public func check(
            with driver: any ScenarioDriver, options: RunPlan, settings: ScenarioSettings = ScenarioSettings(),
            recordingFailuresIn testCase: XCTestCase
        ) async -> ScenarioResult? {
            await check(with: driver, plan: options, settings: settings, recordingFailuresIn: testCase)
        }
    }
#endif
