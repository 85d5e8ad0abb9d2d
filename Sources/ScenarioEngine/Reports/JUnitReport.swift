/// The JUnit XML view of a run, in the dialect of the Jenkins xUnit `junit-10.xsd` that CI
/// servers read: one `<testsuite>` per scenario folder, one `<testcase>` per scenario.
///
/// Counts always add up: each suite's `tests`, `failures`, `errors`, `skipped` and `time` are
/// computed from its test cases, and the root's from its suites. Times are seconds with three
/// decimals; a suite's time is the sum of its cases' (scenarios may run in parallel, so this is
/// work done, not wall time).
package enum JUnitReport {
    /// The class name of scenarios that sit directly in the scanned folder.
    package static let topLevelClassname = "Scenarios"
    /// The `type` of a `<failure>`.
    package static let failureType = "AssertionFailure"
    /// The `type` of an `<error>` (a file that did not load, or a scenario that could not finish).
    package static let errorType = "ScenarioError"

    /// Renders the run as a JUnit XML document.
    package static func render(_ run: RunResult) -> String {
        document(run).document
    }

    /// The class name for a scenario id: its folder with dots for slashes
    /// (`auth/refresh/coalesce` gives `auth.refresh`), or ``topLevelClassname`` at the top.
    package static func classname(forID id: String) -> String {
        let parts = id.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count > 1 else { return topLevelClassname }
        return parts.dropLast().joined(separator: ".")
    }

    /// The element tree of the report.
    package static func document(_ run: RunResult) -> XMLMarkup {
        var order: [String] = []
        var groups: [String: [ScenarioResult]] = [:]
        for scenario in run.scenarios {
            let classname = classname(forID: scenario.id)
            if groups[classname] == nil { order.append(classname) }
            groups[classname, default: []].append(scenario)
        }
        let suites = order.map { suite(named: $0, scenarios: groups[$0] ?? []) }
        return root(suites: suites)
    }

    /// A `<testsuites>` element over these suites, with totals computed from them.
    package static func root(suites: [XMLMarkup]) -> XMLMarkup {
        var totals = (tests: 0, failures: 0, errors: 0, millis: Int64(0))
        for suite in suites {
            totals.tests += Int(suite[attribute: "tests"] ?? "") ?? 0
            totals.failures += Int(suite[attribute: "failures"] ?? "") ?? 0
            totals.errors += Int(suite[attribute: "errors"] ?? "") ?? 0
            totals.millis += milliseconds(suite[attribute: "time"])
        }
        return root(totals: totals, suites: suites)
    }

    private static func root(totals: (tests: Int, failures: Int, errors: Int, millis: Int64), suites: [XMLMarkup]) -> XMLMarkup {
        // junit-10.xsd allows no `skipped` on the root; each suite carries its own.
        XMLMarkup(
            "testsuites",
            [
                .init("name", "scenario"), .init("tests", String(totals.tests)),
                .init("failures", String(totals.failures)), .init("errors", String(totals.errors)),
                .init("time", Duration.formatSeconds(milliseconds: totals.millis)),
            ],
            children: suites.map { .element($0) }
        )
    }

    /// Recomputes a suite's counts from its `<testcase>` children, keeping its other attributes
    /// and children; used for fresh reports and merged ones alike.
    package static func recount(_ suite: XMLMarkup) -> XMLMarkup {
        var counts = (tests: 0, failures: 0, errors: 0, skipped: 0, millis: Int64(0))
        for testcase in suite.elements where testcase.name == "testcase" {
            counts.tests += 1
            let kinds = Set(testcase.elements.map(\.name))
            if kinds.contains("error") {
                counts.errors += 1
            } else if kinds.contains("failure") {
                counts.failures += 1
            } else if kinds.contains("skipped") {
                counts.skipped += 1
            }
            counts.millis += milliseconds(testcase[attribute: "time"])
        }
        var suite = suite
        suite.set("tests", String(counts.tests))
        suite.set("failures", String(counts.failures))
        suite.set("errors", String(counts.errors))
        suite.set("skipped", String(counts.skipped))
        suite.set("time", Duration.formatSeconds(milliseconds: counts.millis))
        return suite
    }

    private static func suite(named classname: String, scenarios: [ScenarioResult]) -> XMLMarkup {
        var nameCounts: [String: Int] = [:]
        for scenario in scenarios { nameCounts[scenario.name, default: 0] += 1 }
        let cases = scenarios.map { scenario in
            let unique = (nameCounts[scenario.name] ?? 0) > 1 ? "\(scenario.name) [\(scenario.id)]" : scenario.name
            return XMLMarkup.Child.element(testcase(scenario, name: unique, classname: classname))
        }
        let suite = XMLMarkup(
            "testsuite",
            [
                .init("name", classname), .init("tests", "0"), .init("failures", "0"), .init("errors", "0"),
                .init("skipped", "0"), .init("time", "0.000"),
            ],
            children: cases
        )
        return recount(suite)
    }

    private static func testcase(_ scenario: ScenarioResult, name: String, classname: String) -> XMLMarkup {
        var children: [XMLMarkup.Child] = []
        switch scenario.status {
        case .passed:
            break
        case .skipped:
            let reason = scenario.errorMessage ?? "not run"
            children.append(.element(XMLMarkup("skipped", [.init("message", reason)])))
        case .failed:
            let text = ResultText.problemLines(scenario).joined(separator: "\n")
            children.append(
                .element(
                    XMLMarkup(
                        "failure", [.init("message", ResultText.headline(scenario)), .init("type", failureType)],
                        children: text.isEmpty ? [] : [.text(text)]
                    )))
        case .error:
            let text = ResultText.problemLines(scenario).joined(separator: "\n")
            children.append(
                .element(
                    XMLMarkup(
                        "error", [.init("message", ResultText.headline(scenario)), .init("type", errorType)],
                        children: text.isEmpty ? [] : [.text(text)]
                    )))
        }
        if !scenario.transcript.isEmpty {
            children.append(.element(XMLMarkup("system-out", children: [.text(scenario.transcriptText)])))
        }
        return XMLMarkup(
            "testcase",
            [.init("name", name), .init("classname", classname), .init("time", scenario.wallTime.reportSeconds)],
            children: children
        )
    }

    /// The report written as results arrive: the same bytes as ``render(_:)``.
    ///
    /// A test case is set aside without its name, which depends on the rest of its suite (a
    /// name that repeats there gets its id added), and suites are put together at the end.
    package final class Stream: SpooledReport, StreamedReport {
        /// What the suites and names need of a case once its markup is set aside.
        private struct Case {
            var classname: String
            var name: String
            var id: String
            var status: ScenarioResult.Status
            var milliseconds: Int64
        }

        private static let namePrefix = "    <testcase name=\"\""
        private var cases: [Int: Case] = [:]

        /// Starts a report to be written at `path`.
        package override init(path: String) { super.init(path: path) }

        package func add(_ result: ScenarioResult, at slot: Int) {
            let classname = JUnitReport.classname(forID: result.id)
            cases[slot] = Case(
                classname: classname, name: result.name, id: result.id, status: result.status,
                milliseconds: result.wallTime.reportMilliseconds)
            setAside(at: slot) {
                // Suites sit at level 1 and their cases at level 2.
                let markup = JUnitReport.testcase(result, name: "", classname: classname).rendered(level: 2)
                precondition(markup.hasPrefix(Self.namePrefix), "a test case starts with its name")
                return String(markup.dropFirst(Self.namePrefix.count))
            }
        }

        package func finish(_ tally: RunTally) throws {
            // Suites in the order their first case comes in; cases in input order within each.
            var order: [String] = []
            var suites: [String: [(slot: Int, member: Case)]] = [:]
            for (slot, member) in cases.sorted(by: { $0.key < $1.key }) {
                if suites[member.classname] == nil { order.append(member.classname) }
                suites[member.classname, default: []].append((slot, member))
            }
            var totals = (tests: 0, failures: 0, errors: 0, millis: Int64(0))
            var headers: [XMLMarkup] = []
            for classname in order {
                let members = suites[classname, default: []].map(\.member)
                var counts = (failures: 0, errors: 0, skipped: 0, millis: Int64(0))
                for member in members {
                    switch member.status {
                    case .passed: break
                    case .failed: counts.failures += 1
                    case .error: counts.errors += 1
                    case .skipped: counts.skipped += 1
                    }
                    counts.millis += member.milliseconds
                }
                totals.tests += members.count
                totals.failures += counts.failures
                totals.errors += counts.errors
                totals.millis += counts.millis
                headers.append(
                    XMLMarkup(
                        "testsuite",
                        [
                            .init("name", classname), .init("tests", String(members.count)),
                            .init("failures", String(counts.failures)), .init("errors", String(counts.errors)),
                            .init("skipped", String(counts.skipped)),
                            .init("time", Duration.formatSeconds(milliseconds: counts.millis)),
                        ]))
            }
            let root = JUnitReport.root(totals: totals, suites: [])
            try write { spool, output in
                try output.write(XMLMarkup.declaration)
                guard !order.isEmpty else { return try output.write(root.rendered(level: 0)) }
                try output.write(root.startTag(level: 0))
                for (classname, header) in zip(order, headers) {
                    try output.write(header.startTag(level: 1))
                    let suite = suites[classname, default: []]
                    var nameCounts: [String: Int] = [:]
                    for (_, member) in suite { nameCounts[member.name, default: 0] += 1 }
                    for (slot, member) in suite {
                        let unique = (nameCounts[member.name] ?? 0) > 1 ? "\(member.name) [\(member.id)]" : member.name
                        try output.write("    <testcase name=\"" + XMLMarkup.escapeAttribute(unique) + "\"")
                        try output.write(try spool.piece(at: slot))
                    }
                    try output.write(header.endTag(level: 1))
                }
                try output.write(root.endTag(level: 0))
            }
        }
    }

    /// Parses a `time` attribute (seconds, `.` decimal) into whole milliseconds; junk counts as 0.
    package static func milliseconds(_ text: String?) -> Int64 {
        guard let text, let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds < 1e12 else { return 0 }
        return Int64((seconds * 1000).rounded())
    }
}
