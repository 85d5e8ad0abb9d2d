/// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`) that put
/// each failure next to the line of the scenario file it concerns.
package enum GitHubAnnotations {
    /// One annotation per failed assertion and per errored scenario, in run order, each a line
    /// without the trailing newline.
    package static func lines(for run: RunResult) -> [String] {
        var lines: [String] = []
        for scenario in run.scenarios {
            switch scenario.status {
            case .passed, .skipped:
                continue
            case .error:
                let location = scenario.errorLocation
                let message = ResultText.errorLines(scenario).joined(separator: "\n")
                lines.append(
                    annotation(
                        file: location?.file ?? scenario.file, line: location?.line, column: location?.column,
                        title: "\(scenario.id): error", message: message.isEmpty ? "scenario error" : message
                    ))
            case .failed:
                // Causes first: an unmatched request before the wrong outcome it led to.
                let failed = scenario.failedChecks
                for (step, assertion) in failed {
                    let location = assertion.location ?? step.location
                    lines.append(
                        annotation(
                            file: location?.file ?? scenario.file, line: location?.line, column: location?.column,
                            title: "\(scenario.id): \(assertion.label)",
                            message: ResultText.assertionLines(assertion).joined(separator: "\n")
                        ))
                }
                if failed.isEmpty {
                    lines.append(
                        annotation(
                            file: scenario.file, line: nil, column: nil, title: "\(scenario.id): failed",
                            message: ResultText.headline(scenario)
                        ))
                }
            }
        }
        return lines
    }

    /// One `::error` command.
    package static func annotation(file: String, line: Int?, column: Int?, title: String, message: String) -> String {
        var properties = ["file=\(escapeProperty(file))"]
        if let line { properties.append("line=\(line)") }
        if let column { properties.append("col=\(column)") }
        properties.append("title=\(escapeProperty(title))")
        return "::error \(properties.joined(separator: ","))::\(escapeData(message))"
    }

    /// Escapes a command's message: `%`, carriage return and line feed.
    package static func escapeData(_ text: String) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// Escapes a property value: as a message, plus `:` and `,`.
    package static func escapeProperty(_ text: String) -> String {
        var out = ""
        for character in escapeData(text).unicodeScalars {
            switch character {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
