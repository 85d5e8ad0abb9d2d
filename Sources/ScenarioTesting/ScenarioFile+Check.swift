#if canImport(Testing)
    import Foundation
    import ScenarioEngine
    import ScenarioShrinking
    import Testing

    extension ScenarioFile {
        /// Loads and runs the file against `driver`, and records every problem as an issue of the
        /// current test at the JSON file's line and column: each load problem, each failed
        /// expectation (with its diff), or the reason the run could not finish. The masked
        /// transcript is attached to a failing case.
        ///
        /// It runs under `plan` (the route, masking, invariants only), and how often and in which
        /// orders (repeated, explored, replaying a schedule) and where its reports go come from
        /// `settings`, else from a ``ScenarioSettings`` trait of the test or its suite
        /// (`@Test(.scenarios(schedules: 100, reports: "Reports"), arguments: ...)`), with the
        /// environment's `SCENARIO_*` variables on top.
        /// - Returns: the result, for further checks of your own (`nil` when the file did not load).
        @discardableResult
        public func check(
            with driver: any ScenarioDriver, plan: RunPlan = RunPlan(), settings: ScenarioSettings? = nil
        ) async -> ScenarioResult? {
            let test = Test.current
            let traits = settings ?? test?.traits.compactMap { $0 as? ScenarioSettings }.last ?? ScenarioSettings()
            let outcome = await run(
                with: driver, plan: plan, settings: traits, environment: ProcessInfo.processInfo.environment,
                label: test?.displayName ?? test?.name)
            for problem in outcome.problems {
                // Recorded as an error so that the issue's own line is its title
                // ("Caught error: state.screen: expected ..."), not "Issue recorded".
                Issue.record(
                    ScenarioProblem(title: problem.title), problem.details.isEmpty ? nil : Comment(rawValue: problem.details),
                    sourceLocation: at(problem.location))
            }
            if let result = outcome.result, !outcome.problems.isEmpty { Self.attach(result) }
            return outcome.result
        }

        /// Loads and runs the file against `driver` with `options`.
        @available(*, deprecated, renamed: "check(with:plan:settings:)")
        @discardableResult
        public func check(with driver: any ScenarioDriver, options: RunPlan, settings: ScenarioSettings? = nil) async -> ScenarioResult? {
            await check(with: driver, plan: options, settings: settings)
        }

        /// A problem of a scenario file, where it is: a one-line title and the lines that explain it.
        struct Problem: Sendable {
            var title: String
            var details: String = ""
            var location: ScenarioEngine.ScenarioLocation?

            /// The title and the details, as one message.
            var message: String { details.isEmpty ? title : title + "\n" + details }

            init(title: String, details: String = "", location: ScenarioEngine.ScenarioLocation?) {
                self.title = title
                self.details = details
                self.location = location
            }

            /// A problem whose first line is its title.
            init(message: String, location: ScenarioEngine.ScenarioLocation?) {
                let lines = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
                self.init(title: String(lines[0]), details: lines.count > 1 ? String(lines[1]) : "", location: location)
            }
        }

        /// Loads and runs the file as the settings (with the environment's on top) say, records
        /// the result in their report folder, and returns whatever a test framework should record,
        /// in order.
        func run(
            with driver: any ScenarioDriver, plan: RunPlan, settings: ScenarioSettings, environment: [String: String],
            label: String?
        ) async -> (result: ScenarioResult?, problems: [Problem]) {
            var (checked, reports) = settings.plan(plan, environment: environment)
            // A shrunk copy goes where the reports go: below the package root.
            checked = checked.map { plan in
                var plan = plan
                plan.shrinkInto = plan.shrinkInto.map { Self.resolvedFolder($0, above: path) }
                return plan
            }
            var (result, problems) = await run(with: driver, plan: checked)
            if let folder = reports {
                // A case that could not run is in the report too, as an error: never a green gap.
                let recorded =
                    result
                    ?? ScenarioResult(
                        id: id, name: id, file: path, status: .error, errorMessage: problems.map(\.message).joined(separator: "\n"),
                        errorLocation: problems.first?.location)
                let root = Self.resolvedFolder(folder, above: path)
                do {
                    try ReportFolder(path: root).record(recorded, label: label)
                } catch {
                    problems.append(Problem(message: "cannot write the reports: \(error)", location: nil))
                }
            }
            return (result, problems)
        }

        /// The result (`nil` when the file did not load or the settings are unusable) and its problems.
        private func run(with driver: any ScenarioDriver, plan checked: Result<RunPlan, RunPlan.Problem>) async -> (
            result: ScenarioResult?, problems: [Problem]
        ) {
            if let problem { return (nil, [Problem(message: problem, location: nil)]) }
            let plan: RunPlan
            switch checked {
            case .success(let checked): plan = checked
            case .failure(let problem): return (nil, [Problem(message: "settings: \(problem)", location: nil)])
            }
            let loader = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
            let scenario: Scenario
            switch loader.load(contentsOf: path, id: id) {
            case .success(let loaded):
                scenario = loaded
            case .failure(let failure):
                if failure.issues.isEmpty { return (nil, [Problem(message: failure.description, location: nil)]) }
                return (nil, failure.issues.map { Problem(message: $0.description, location: $0.location) })
            }
            var runner = ScenarioRunner(driver: driver, plan: plan)
            runner.replayAdvice = ScenarioSettings.replayAdvice
            runner.followUp = ShrinkOnFailure()
            let result = await runner.run(scenario)
            switch result.status {
            case .passed, .skipped:
                return (result, [])
            case .error:
                let message = result.errorMessage ?? "the scenario could not finish"
                return (result, [Problem(message: message, location: result.errorLocation ?? scenario.location)])
            case .failed:
                // Causes first (an unmatched request before the wrong outcome it led to), each
                // titled by what went wrong and placed at the key that failed.
                let problems = result.failedChecks.map { step, failure in
                    var details: [String] = []
                    if let diff = failure.diff {
                        details.append(diff)
                    } else {
                        if let expected = failure.expected { details.append("expected: " + expected) }
                        if let actual = failure.actual { details.append("actual: " + actual) }
                    }
                    return Problem(
                        title: failure.summary, details: details.joined(separator: "\n"),
                        location: failure.location ?? step.location ?? scenario.location)
                }
                return (result, problems)
            }
        }

        /// A Swift Testing location for a place in the scenario file.
        private func at(_ location: ScenarioEngine.ScenarioLocation?) -> Testing.SourceLocation {
            let file = location?.file ?? path
            return Testing.SourceLocation(
                fileID: "scenarios/" + (file as NSString).lastPathComponent, filePath: file, line: max(1, location?.line ?? 1),
                column: max(1, location?.column ?? 1))
        }

        /// What a scenario's failed check records in Swift Testing: its one-line summary is the
        /// issue's title.
        struct ScenarioProblem: Error, CustomStringConvertible {
            var title: String
            var description: String { title }
        }

        private static func attach(_ result: ScenarioResult) {
            #if compiler(>=6.2)
                Attachment.record(result.transcriptText, named: "\(result.id.replacingOccurrences(of: "/", with: "-")).transcript.txt")
            #endif
        }
    }
#endif
