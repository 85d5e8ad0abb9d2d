/// The console view of a run: a progress line per scenario, the failures again at the end with
/// their diffs and transcripts, and a summary. Pure: it returns text and prints nothing.
package struct ConsoleReport: Sendable {
    /// How much to print.
    package enum Verbosity: Int, Sendable, Hashable, Comparable {
        /// Only failures and the summary.
        case quiet
        /// A line per scenario that ran, failures, summary.
        case normal
        /// Also skipped scenarios and every step.
        case verbose

        /// Quieter sorts first.
        package static func < (lhs: Verbosity, rhs: Verbosity) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Whether to use ANSI colours (the caller decides: a terminal, and `NO_COLOR` unset).
    package var colors: Bool
    /// How much to print.
    package var verbosity: Verbosity

    /// Creates a console report.
    package init(colors: Bool = false, verbosity: Verbosity = .normal) {
        self.colors = colors
        self.verbosity = verbosity
    }

    /// The whole report after the fact: progress lines in input order, failures, summary.
    package func render(_ run: RunResult) -> String {
        var out = run.scenarios.compactMap(progressLine).joined()
        let failures = failureSection(run)
        if !failures.isEmpty { out += "\n" + failures }
        return out + "\n" + summary(run)
    }

    /// What to print when a scenario finishes (ending with a newline), or `nil` for nothing:
    /// `✓ auth/login (12 ms)`, `✗ auth/refresh (40 ms)`.
    package func progressLine(_ result: ScenarioResult) -> String? {
        let schedules = result.schedules > 1 ? ", \(result.schedules) schedules" : ""
        let time = paint("(\(result.wallTime.reportShortText)\(schedules))", .dim)
        var line: String
        switch result.status {
        case .passed:
            guard verbosity >= .normal else { return nil }
            line = "\(paint("✓", .green)) \(result.id) \(time)"
        case .failed:
            guard verbosity >= .normal else { return nil }
            line = "\(paint("✗", .red)) \(result.id) \(time)"
        case .error:
            guard verbosity >= .normal else { return nil }
            line = "\(paint("✗", .red)) \(result.id) \(paint("error", .red)) \(time)"
        case .skipped:
            guard verbosity >= .verbose else { return nil }
            let reason = result.errorMessage.map { ": \($0)" } ?? ""
            line = "\(paint("-", .yellow)) \(result.id) \(paint("(skipped\(reason))", .dim))"
        }
        if verbosity >= .verbose, result.status != .skipped {
            for step in result.steps {
                let mark = step.passed ? paint("✓", .green) : paint("✗", .red)
                line += "\n    \(mark) \(step.index). \(step.label)"
            }
        }
        return line + "\n"
    }

    /// The failed and errored scenarios again, with what went wrong and the transcript;
    /// empty when everything passed.
    package func failureSection(_ run: RunResult) -> String {
        let problems = run.scenarios.filter { $0.status == .failed || $0.status == .error }
        guard !problems.isEmpty else { return "" }
        var out = paint("Failures:", .bold) + "\n"
        for scenario in problems {
            let kind = scenario.status == .error ? "error" : "failed"
            let name = scenario.name == scenario.id ? "" : " — \(scenario.name)"
            out += "\n\(paint("✗", .red)) \(paint(scenario.id, .bold))\(name) [\(kind)]\n"
            out += "  \(scenario.file)\n"
            for line in ResultText.problemLines(scenario) {
                out += "  " + colorDiffLine(line) + "\n"
            }
            if !scenario.transcript.isEmpty {
                out += "  transcript:\n"
                for line in scenario.transcript { out += "    " + line + "\n" }
            }
        }
        return out
    }

    /// The shrunk copies of the failing scenarios (`run --shrink DIR`), one line each, with what
    /// shrinking did or why it could not.
    package func shrinkSection(_ run: RunResult) -> String {
        let failing = run.scenarios.filter { $0.status == .failed || $0.status == .error }
        guard !failing.isEmpty else { return "" }
        var out = "\n" + paint("Shrunk:", .bold) + "\n"
        for scenario in failing {
            let note = scenario.shrinkNote ?? "not shrunk"
            out += "  \(scenario.id): " + (scenario.shrunkCopy.map { "\($0) (\(note))" } ?? note) + "\n"
        }
        return out
    }

    /// The closing lines: how many scenarios ran (of how many, when some were skipped) in what
    /// wall time, then
    /// `Summary: N passed, N failed, N skipped` (errors count as failed there).
    package func summary(_ run: RunResult) -> String { summary(run.tally) }

    /// The closing lines for a run known by its counts.
    package func summary(_ tally: RunTally) -> String {
        let (passed, failed, errors, skipped) = (tally.passed, tally.failed, tally.errors, tally.skipped)
        let ran = tally.total - skipped
        let count = skipped > 0 ? "\(ran) of \(tally.total) scenarios" : "\(ran) scenario\(ran == 1 ? "" : "s")"
        var first = "Ran \(count) in \(tally.wallTime.reportShortText)"
        if errors > 0 {
            first += " (\(failed) failed, \(errors) error\(errors == 1 ? "" : "s"))"
        }
        let line = "Summary: \(passed) passed, \(failed + errors) failed, \(skipped) skipped"
        return first + "\n" + paint(line, tally.succeeded ? .green : .red) + "\n"
    }

    private func colorDiffLine(_ line: String) -> String {
        let trimmed = line.drop { $0 == " " }
        if trimmed.hasPrefix("- ") || trimmed == "-" { return paint(line, .red) }
        if trimmed.hasPrefix("+ ") || trimmed == "+" { return paint(line, .green) }
        return line
    }

    private enum Style: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case bold = "1"
        case dim = "2"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        colors ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
