import Foundation

/// The picture of a run: one self-contained HTML page (no script, no network, no external
/// asset) with a summary table and, for every scenario, a sequence diagram of app and backend
/// on virtual time, its steps, and its checks, the first divergence highlighted.
///
/// Everything shown comes from the results, which are masked before any report sees them; the
/// page escapes every character it prints.
package enum HTMLReport {
    /// Renders the run as an HTML document.
    package static func render(_ run: RunResult) -> String {
        var page = head(run.tally) + summaryTableHead
        for (offset, result) in run.scenarios.enumerated() { page += summaryRow(result, at: offset) }
        page += summaryTableEnd
        for (offset, result) in run.scenarios.enumerated() { page += section(result, at: offset) }
        return page + end
    }

    /// The page up to its summary table: title, style, counts and wall time.
    static func head(_ tally: RunTally) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Scenario run: \(summaryText(tally))</title>
        <style>\(style)</style>
        </head>
        <body>
        <h1>Scenario run</h1>
        <p class="summary">\(escape(summaryText(tally))) · \(escape(tally.wallTime.reportShortText)) of wall time</p>

        """
    }

    static let end = "</body>\n</html>\n"

    /// `file` as a link from a page in `folder`, both as given (relative to the working folder).
    static func relativePath(to file: String, from folder: String) -> String {
        let base = FileManager.default.currentDirectoryPath
        func parts(_ path: String) -> [String] {
            let absolute = path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
            return URL(fileURLWithPath: absolute).standardizedFileURL.pathComponents
        }
        let (target, start) = (parts(file), parts(folder.isEmpty ? "." : folder))
        let shared = zip(target, start).prefix { $0 == $1 }.count
        let up = Array(repeating: "..", count: start.count - shared)
        return (up + target[shared...]).joined(separator: "/")
    }

    private static func summaryText(_ tally: RunTally) -> String {
        let parts = [
            "\(tally.total) scenario\(tally.total == 1 ? "" : "s")", "\(tally.passed) passed",
            "\(tally.failed) failed", "\(tally.errors) errors", "\(tally.skipped) skipped",
        ]
        return parts.joined(separator: ", ")
    }

    // MARK: - Summary

    static let summaryTableHead = """
        <table class="runs">
        <thead><tr><th>status</th><th>scenario</th><th>virtual time</th><th>wall time</th><th>first problem</th></tr></thead>
        <tbody>

        """

    static let summaryTableEnd = "</tbody>\n</table>\n"

    /// The summary table's row of the scenario at `offset` in the run, linking to its section.
    static func summaryRow(_ result: ScenarioResult, at offset: Int) -> String {
        """
        <tr class="\(result.status.rawValue)"><td>\(badge(result.status))</td>\
        <td><a href="#s\(offset + 1)">\(escape(result.id))</a><div class="name">\(escape(result.name))</div></td>\
        <td class="num">\(escape(VirtualClock.Instant.format(result.virtualTime)))</td>\
        <td class="num">\(escape(result.wallTime.reportShortText))</td>\
        <td class="problem">\(escape(firstProblem(result) ?? ""))</td></tr>

        """
    }

    /// The run's error, or its first failed check, in one line.
    private static func firstProblem(_ result: ScenarioResult) -> String? {
        if let error = result.errorMessage { return error }
        // The cause when there is one (an unmatched request), not the symptom it led to.
        guard let (step, check) = firstFailure(result) else { return nil }
        return "\(step.label) · \(check.summary)"
    }

    // MARK: - One scenario

    /// The section of the scenario at `offset` in the run, on a page written into `pageFolder`
    /// (which its link to a shrunk copy is relative to; `nil`: the working folder).
    static func section(_ result: ScenarioResult, at offset: Int, pageFolder: String? = nil) -> String {
        let open = result.status == .passed || result.status == .skipped ? "" : " open"
        var body = """
            <section id="s\(offset + 1)" class="\(result.status.rawValue)">
            <details\(open)>
            <summary>\(badge(result.status)) <span class="title">\(escape(result.name))</span> \
            <span class="id">\(escape(result.id))</span></summary>
            <p class="meta">\(escape(result.file)) · \(escape(VirtualClock.Instant.format(result.virtualTime))) of virtual time · \
            \(escape(result.wallTime.reportShortText)) of wall time\(result.schedules > 1 ? " · \(result.schedules) schedules" : "")\
            \(result.host.isEmpty ? "" : " · " + escape(result.host))</p>

            """
        if let copy = result.shrunkCopy {
            let href = pageFolder.map { relativePath(to: copy, from: $0) } ?? copy
            body +=
                "<p class=\"meta\">shrunk copy: <a href=\"\(escape(href))\">\(escape(copy))</a> (\(escape(result.shrinkNote ?? "")))</p>\n"
        } else if let note = result.shrinkNote {
            body += "<p class=\"meta\">\(escape(note))</p>\n"
        }
        if let error = result.errorMessage {
            let place = result.errorLocation.map { " (\($0))" } ?? ""
            body += "<div class=\"divergence\"><strong>Error\(escape(place))</strong><pre>\(escape(error))</pre></div>\n"
        } else if let (step, check) = firstFailure(result) {
            body += divergence(
                step: check.subjects.contains { $0.kind == .unmatched } ? result.stepSendingFirstUnmatched ?? step : step, check: check)
        }
        body += "<h3>Sequence</h3>\n" + SequenceDiagram(result: result).svg() + "\n"
        body += stepsTable(result)
        body += "</details>\n</section>\n"
        return body
    }

    /// The cause (an unmatched request or unused exchange) if any, else the first failed check.
    private static func firstFailure(_ result: ScenarioResult) -> (StepResult, AssertionResult)? {
        result.failedChecks.first
    }

    private static func divergence(step: StepResult, check: AssertionResult) -> String {
        let title = check.isCause ? "Cause" : "First divergence"
        var text = "<div class=\"divergence\"><strong>\(title): step \(step.index), \(escape(step.label)) · \(escape(check.label))"
        if let location = check.location ?? step.location { text += " (\(escape(location.description)))" }
        text += "</strong><p>\(escape(check.message))</p>\n"
        if let expected = check.expected { text += "<div class=\"pair\"><span>expected</span><pre>\(escape(expected))</pre></div>\n" }
        if let actual = check.actual { text += "<div class=\"pair\"><span>actual</span><pre>\(escape(actual))</pre></div>\n" }
        if let diff = check.diff { text += "<div class=\"pair\"><span>diff</span><pre>\(escape(diff))</pre></div>\n" }
        return text + "</div>\n"
    }

    /// Every step with its checks; state, alerts and timeline are the final step's checks.
    private static func stepsTable(_ result: ScenarioResult) -> String {
        guard !result.steps.isEmpty else { return "" }
        var rows = ""
        for step in result.steps {
            let time = step.startedAt.map { VirtualClock.Instant.format($0) } ?? ""
            let checks = step.assertions.isEmpty ? [AssertionResult(label: "", passed: true)] : step.assertions
            for (offset, check) in checks.enumerated() {
                let stepCells =
                    offset == 0
                    ? "<td rowspan=\"\(checks.count)\">\(step.index)</td><td rowspan=\"\(checks.count)\">\(escape(step.label))</td>"
                        + "<td rowspan=\"\(checks.count)\" class=\"num\">\(escape(time))</td>"
                    : ""
                let mark = check.label.isEmpty ? "" : (check.passed ? "✓" : "✗")
                rows += """
                    <tr class="\(check.passed ? "ok" : "bad")">\(stepCells)<td>\(mark) \(escape(check.label))</td>\
                    <td><pre>\(escape(check.expected ?? ""))</pre></td><td><pre>\(escape(check.actual ?? (check.passed ? "" : check.message)))</pre></td></tr>

                    """
            }
        }
        return """
            <h3>Steps and checks</h3>
            <table class="steps">
            <thead><tr><th>#</th><th>step</th><th>at</th><th>check</th><th>expected</th><th>actual</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table>

            """
    }

    private static func badge(_ status: ScenarioResult.Status) -> String {
        let text: String
        switch status {
        case .passed: text = "passed"
        case .failed: text = "failed"
        case .error: text = "error"
        case .skipped: text = "skipped"
        }
        return "<span class=\"badge \(status.rawValue)\">\(text)</span>"
    }

    static func escape(_ text: String) -> String { XMLMarkup.escapeText(text) }

    private static let style = """
        body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:24px;color:#1d2125;background:#fff}
        h1{font-size:22px;margin:0 0 4px}h3{font-size:15px;margin:18px 0 6px}
        .summary,.meta{color:#555;margin:4px 0 12px}
        table{border-collapse:collapse;margin:6px 0 12px}
        th,td{border:1px solid #d8dde3;padding:4px 8px;text-align:left;vertical-align:top}
        th{background:#f3f5f7;font-weight:600}
        td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
        td.problem{color:#a3262a;max-width:520px}
        .name{color:#555;font-size:12px}
        pre{margin:0;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
        .badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;font-weight:600;color:#fff}
        .badge.passed{background:#2c7a3f}.badge.failed{background:#b3261e}.badge.error{background:#7a2c8a}.badge.skipped{background:#777}
        section{border:1px solid #d8dde3;border-radius:6px;margin:14px 0;padding:8px 12px}
        section.failed,section.error{border-color:#e0a3a0}
        summary{cursor:pointer;font-size:15px}.title{font-weight:600}.id{color:#666;font-size:12px;margin-left:6px}
        .divergence{background:#fdecea;border-left:4px solid #b3261e;padding:8px 10px;margin:8px 0}
        .divergence p{margin:4px 0}
        .pair{display:flex;gap:8px;margin:4px 0}.pair span{min-width:64px;color:#555}
        tr.bad td{background:#fdecea}
        svg{display:block;max-width:100%;height:auto;font:12px ui-monospace,Menlo,Consolas,monospace}
        """
}

/// The sequence diagram of one scenario: the app and the backend as lifelines, time going down,
/// a band per step, an arrow per request and answer, holds and releases on the backend's line.
struct SequenceDiagram {
    let result: ScenarioResult

    private static let width = 960
    private static let rowHeight = 24
    private static let appX = 250
    private static let backendX = 760
    private static let top = 44
    /// About how many characters of a label fit between the lifelines.
    private static let labelLimit = 70

    /// A transcript entry as the diagram draws it.
    struct Event {
        enum Kind { case request, response, unmatched, held, released, note }
        var kind: Kind
        var time: String
        var number: String
        var text: String
        var line: String

        init(_ entry: TranscriptEntry) {
            switch entry.kind {
            case .request: kind = .request
            case .answer: kind = .response
            case .unmatched, .failed: kind = .unmatched
            case .held, .late: kind = .held
            case .released: kind = .released
            case .note: kind = .note
            }
            time = entry.time
            number = entry.number.map { "#\($0)" } ?? ""
            text = entry.text
            line = entry.line
        }
    }

    /// What is drawn, row by row.
    private enum Row {
        case step(StepResult)
        case event(Event)
    }

    private var rows: [Row] {
        var rows: [Row] = []
        var next = 0
        let transcript = result.entries
        for step in result.steps {
            let start = min(step.firstLine ?? next, transcript.count)
            if start > next {
                rows += transcript[next..<start].map { .event(Event($0)) }
                next = start
            }
            rows.append(.step(step))
        }
        rows += transcript[min(next, transcript.count)...].map { .event(Event($0)) }
        return rows
    }

    func svg() -> String {
        let rows = self.rows
        let height = Self.top + max(rows.count, 1) * Self.rowHeight + 16
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Self.width) \(height)\" width=\"\(Self.width)\" height=\"\(height)\" role=\"img\" aria-label=\"sequence diagram\">\n"
        out += """
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">\
            <path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>
            <text x="\(Self.appX)" y="18" text-anchor="middle" font-weight="bold">app</text>
            <text x="\(Self.backendX)" y="18" text-anchor="middle" font-weight="bold">scripted backend</text>
            <text x="8" y="18" fill="#666">virtual time</text>
            <line x1="\(Self.appX)" y1="26" x2="\(Self.appX)" y2="\(height - 8)" stroke="#9aa4ae" stroke-dasharray="4 3"/>
            <line x1="\(Self.backendX)" y1="26" x2="\(Self.backendX)" y2="\(height - 8)" stroke="#9aa4ae" stroke-dasharray="4 3"/>

            """
        var lastTime = ""
        for (offset, row) in rows.enumerated() {
            let y = Self.top + offset * Self.rowHeight
            switch row {
            case .step(let step):
                let time = step.startedAt.map { VirtualClock.Instant.format($0) } ?? ""
                let failed = !step.passed
                out += "<g class=\"step\"><title>\(HTMLReport.escape("step \(step.index): \(step.label)"))</title>"
                out +=
                    "<rect x=\"120\" y=\"\(y - 15)\" width=\"\(Self.width - 128)\" height=\"20\" rx=\"3\" fill=\"\(failed ? "#fdecea" : "#eef2f6")\" stroke=\"\(failed ? "#b3261e" : "#c9d1d9")\"/>"
                out +=
                    "<text x=\"128\" y=\"\(y)\" fill=\"\(failed ? "#b3261e" : "#33414e")\">\(failed ? "✗" : "✓") step \(step.index) · \(label(step.label))</text></g>\n"
                if time != lastTime {
                    out += timeLabel(time, y: y)
                    lastTime = time
                }
            case .event(let event):
                if !event.time.isEmpty, event.time != lastTime {
                    out += timeLabel(event.time, y: y)
                    lastTime = event.time
                }
                out += draw(event, y: y)
            }
        }
        return out + "</svg>"
    }

    private func timeLabel(_ time: String, y: Int) -> String {
        "<text x=\"8\" y=\"\(y)\" fill=\"#555\">\(HTMLReport.escape(time))</text>\n"
    }

    private func label(_ text: String) -> String {
        let short = text.count > Self.labelLimit ? String(text.prefix(Self.labelLimit - 1)) + "…" : text
        return HTMLReport.escape(short)
    }

    private func draw(_ event: Event, y: Int) -> String {
        let title = "<title>\(HTMLReport.escape(event.line))</title>"
        let left = Self.appX
        let right = Self.backendX
        switch event.kind {
        case .request:
            return
                "<g>\(title)<line x1=\"\(left)\" y1=\"\(y + 6)\" x2=\"\(right)\" y2=\"\(y + 6)\" stroke=\"#33414e\" marker-end=\"url(#arrow)\"/>"
                + "<text x=\"\(left + 8)\" y=\"\(y)\">\(label("\(event.number) \(event.text)"))</text></g>\n"
        case .response:
            let colour = responseColour(event.text)
            let dashed = event.text.hasPrefix("fault") ? " stroke-dasharray=\"6 4\"" : ""
            return
                "<g>\(title)<line x1=\"\(right)\" y1=\"\(y + 6)\" x2=\"\(left)\" y2=\"\(y + 6)\" stroke=\"\(colour)\"\(dashed) marker-end=\"url(#arrow)\"/>"
                + "<text x=\"\(right - 8)\" y=\"\(y)\" text-anchor=\"end\" fill=\"\(colour)\">\(label("\(event.number) \(event.text)"))</text></g>\n"
        case .unmatched:
            return "<g>\(title)<rect x=\"120\" y=\"\(y - 15)\" width=\"\(Self.width - 128)\" height=\"22\" fill=\"#fdecea\"/>"
                + "<text x=\"\(right - 8)\" y=\"\(y)\" text-anchor=\"end\" fill=\"#b3261e\" font-weight=\"bold\">\(label("\(event.number) ✗ \(event.text)"))</text></g>\n"
        case .held:
            return "<g>\(title)<rect x=\"\(right - 4)\" y=\"\(y - 10)\" width=\"3\" height=\"12\" fill=\"#a86b00\"/>"
                + "<rect x=\"\(right + 2)\" y=\"\(y - 10)\" width=\"3\" height=\"12\" fill=\"#a86b00\"/>"
                + "<text x=\"\(right - 10)\" y=\"\(y)\" text-anchor=\"end\" fill=\"#a86b00\">\(label("\(event.number) \(event.text)"))</text></g>\n"
        case .released:
            return "<g>\(title)<path d=\"M\(right - 3),\(y - 10) L\(right + 6),\(y - 4) L\(right - 3),\(y + 2) z\" fill=\"#2c7a3f\"/>"
                + "<text x=\"\(right - 10)\" y=\"\(y)\" text-anchor=\"end\" fill=\"#2c7a3f\">\(label("\(event.number) released"))</text></g>\n"
        case .note:
            return "<g>\(title)<text x=\"\(left + 8)\" y=\"\(y)\" fill=\"#777\">\(label(event.text))</text></g>\n"
        }
    }

    private func responseColour(_ text: String) -> String {
        if text.hasPrefix("fault") { return "#b3261e" }
        guard let status = Int(text.prefix { $0.isNumber }) else { return "#33414e" }
        switch status {
        case 200..<300: return "#2c7a3f"
        case 300..<400: return "#33414e"
        case 400..<500: return "#a86b00"
        default: return "#b3261e"
        }
    }
}
