import Foundation
import ScenarioEngine

/// The reports of a verification: the console's text, JUnit (one test case per scenario: a
/// failure for findings, skipped for what could not be checked or was left out, an error for a
/// file that did not load) and JSON. Texts arrive masked (see ``ContractVerification``).
package enum VerificationReport {
    /// The `type` of a `<failure>`.
    static let failureType = "ContractFinding"

    // MARK: Console

    /// The findings and unchecked exchanges, scenario by scenario, then the tally; `verbose` also
    /// lists every skipped exchange with its reason.
    package static func console(_ run: VerificationRun, verbose: Bool) -> String {
        var out = ""
        for failure in run.loadFailures {
            out += TerminalSafe.escape(failure.description, keepingNewlines: true) + "\n"
        }
        for scenario in run.scenarios {
            let outcome = scenario.outcome
            guard outcome == .findings || outcome == .couldNotCheck || verbose else { continue }
            let mark = outcome == .findings ? "✗" : outcome == .couldNotCheck ? "?" : outcome == .skipped ? "-" : "✓"
            out += "\(mark) \(TerminalSafe.escape(scenario.id))" + (scenario.exchanges.isEmpty ? ": scripts no exchange\n" : "\n")
            for exchange in scenario.exchanges {
                let label = "exchange '\(TerminalSafe.escape(exchange.id))' (\(TerminalSafe.escape(exchange.route)))"
                for finding in exchange.findings { out += "  " + TerminalSafe.escape(finding.description) + "\n    in \(label)\n" }
                for part in exchange.unchecked {
                    out += "  \(exchange.location): could not check \(label): \(TerminalSafe.escape(part.description))\n"
                }
                if verbose, let reason = exchange.skipReason {
                    out += "  \(exchange.location): skipped \(label): \(TerminalSafe.escape(reason))\n"
                }
            }
        }
        return out + formatsNotChecked(run, verbose: verbose) + summary(run) + "\n"
    }

    /// `Verified 312 exchanges of 141 scenarios against Scenarios/openapi.yaml: 300 conform, ...`
    package static func summary(_ run: VerificationRun) -> String {
        let counts = run.exchangeCounts
        let total = counts.values.reduce(0, +)
        var text =
            "Verified \(total) exchange\(total == 1 ? "" : "s") of \(run.scenarios.count) scenario\(run.scenarios.count == 1 ? "" : "s")"
        text += " against \(TerminalSafe.escape(run.against)): \(counts[.conforms] ?? 0) conform, "
        text += "\(counts[.findings] ?? 0) with \(run.findingCount) finding\(run.findingCount == 1 ? "" : "s"), "
        text += "\(counts[.couldNotCheck] ?? 0) could not be checked, \(counts[.skipped] ?? 0) skipped with a reason"
        if let sent = run.requestsChecked { text += "; \(sent) request\(sent == 1 ? "" : "s") the runs sent checked" }
        if !run.loadFailures.isEmpty {
            text += "; \(run.loadFailures.count) file\(run.loadFailures.count == 1 ? "" : "s") did not load"
        }
        return text
    }

    // MARK: JUnit

    package static func junit(_ run: VerificationRun) -> String {
        var order: [String] = []
        var groups: [String: [XMLMarkup.Child]] = [:]
        func add(_ testcase: XMLMarkup, classname: String) {
            if groups[classname] == nil { order.append(classname) }
            groups[classname, default: []].append(.element(testcase))
        }
        for failure in run.loadFailures {
            let classname = JUnitReport.classname(forID: failure.file)
            let error = XMLMarkup(
                "error", [.init("message", "the file did not load"), .init("type", JUnitReport.errorType)],
                children: [.text(failure.description)])
            add(
                XMLMarkup(
                    "testcase", [.init("name", failure.file), .init("classname", classname), .init("time", "0.000")],
                    children: [.element(error)]), classname: classname)
        }
        for scenario in run.scenarios {
            let classname = JUnitReport.classname(forID: scenario.id)
            add(testcase(scenario, classname: classname), classname: classname)
        }
        let suites = order.map { name in
            JUnitReport.recount(
                XMLMarkup(
                    "testsuite",
                    [
                        .init("name", name), .init("tests", "0"), .init("failures", "0"), .init("errors", "0"), .init("skipped", "0"),
                        .init("time", "0.000"),
                    ],
                    children: groups[name] ?? []))
        }
        return JUnitReport.root(suites: suites).document
    }

    private static func testcase(_ scenario: ScenarioVerdict, classname: String) -> XMLMarkup {
        var children: [XMLMarkup.Child] = []
        let findings = scenario.findings
        switch scenario.outcome {
        case .findings:
            let lines = scenario.exchanges.flatMap { exchange in
                exchange.findings.map { "\($0.description) in exchange '\(exchange.id)' (\(exchange.route))" }
            }
            children.append(
                .element(
                    XMLMarkup(
                        "failure",
                        [.init("message", "\(findings.count) finding\(findings.count == 1 ? "" : "s")"), .init("type", failureType)],
                        children: [.text(lines.joined(separator: "\n"))])))
        case .couldNotCheck:
            let lines = scenario.exchanges.flatMap { exchange in
                exchange.unchecked.map { "exchange '\(exchange.id)' (\(exchange.route)): \($0.description)" }
            }
            children.append(.element(XMLMarkup("skipped", [.init("message", "could not check: " + lines.joined(separator: "; "))])))
        case .skipped:
            let reasons = scenario.exchanges.compactMap { exchange in exchange.skipReason.map { "'\(exchange.id)': \($0)" } }
            let message =
                reasons.isEmpty ? "the scenario scripts no exchange" : "every exchange is left out: " + reasons.joined(separator: "; ")
            children.append(.element(XMLMarkup("skipped", [.init("message", message)])))
        case .conforms:
            break
        }
        return XMLMarkup(
            "testcase", [.init("name", scenario.name), .init("classname", classname), .init("time", "0.000")], children: children)
    }

    // MARK: JSON

    package static func json(_ run: VerificationRun) -> String {
        let counts = run.exchangeCounts
        let summary: JSONValue = [
            "scenarios": .number(Double(run.scenarios.count)), "exchanges": .number(Double(counts.values.reduce(0, +))),
            "conform": .number(Double(counts[.conforms] ?? 0)), "withFindings": .number(Double(counts[.findings] ?? 0)),
            "findings": .number(Double(run.findingCount)), "couldNotCheck": .number(Double(counts[.couldNotCheck] ?? 0)),
            "skipped": .number(Double(counts[.skipped] ?? 0)), "filesNotLoaded": .number(Double(run.loadFailures.count)),
            "requestsChecked": run.requestsChecked.map { .number(Double($0)) } ?? .null,
        ]
        let scenarios = run.scenarios.map { scenario -> JSONValue in
            [
                "id": .string(scenario.id), "name": .string(scenario.name), "file": .string(scenario.location.file),
                "outcome": .string(scenario.outcome.rawValue), "exchanges": .array(scenario.exchanges.map(exchangeJSON)),
            ]
        }
        let failures = run.loadFailures.map { failure -> JSONValue in
            ["file": .string(failure.file), "issues": .array(failure.issues.map { .string($0.description) })]
        }
        let root: JSONValue = [
            "against": .string(run.against), "summary": summary, "scenarios": .array(scenarios), "filesNotLoaded": .array(failures),
        ]
        return root.prettyText + "\n"
    }

    private static func exchangeJSON(_ exchange: ExchangeVerdict) -> JSONValue {
        var object: JSONObject = [
            "id": .string(exchange.id), "route": .string(exchange.route), "outcome": .string(exchange.outcome.rawValue),
            "file": .string(exchange.location.file), "line": .number(Double(exchange.location.line)),
            "column": .number(Double(exchange.location.column)),
        ]
        if let reason = exchange.skipReason { object["skipReason"] = .string(reason) }
        object["findings"] = .array(exchange.findings.map(findingJSON))
        object["couldNotCheck"] = .array(
            exchange.unchecked.map { part in
                var entry: JSONObject = ["reason": .string(part.reason)]
                if let source = part.source { entry["source"] = placeJSON(source) }
                return .object(entry)
            })
        object["formatsNotChecked"] = .array(exchange.formatsNotChecked.map(partJSON))
        return .object(object)
    }

    private static func findingJSON(_ finding: ContractFinding) -> JSONValue {
        var object: JSONObject = [
            "kind": .string(finding.kind.rawValue), "file": .string(finding.scenario.file), "line": .number(Double(finding.scenario.line)),
            "column": .number(Double(finding.scenario.column)), "path": .string(finding.scenario.path),
            "expected": .string(finding.expected), "actual": .string(finding.actual),
        ]
        if let bodyPath = finding.bodyPath { object["bodyPath"] = .string(bodyPath) }
        if let sentRequest = finding.sentRequest { object["request"] = .number(Double(sentRequest)) }
        if let source = finding.source { object["source"] = placeJSON(source) }
        return .object(object)
    }

    private static func placeJSON(_ place: DocumentPlace) -> JSONValue {
        ["file": .string(place.file), "line": .number(Double(place.line)), "column": .number(Double(place.column))]
    }
}
