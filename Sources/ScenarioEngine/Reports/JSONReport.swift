/// The JSON view of a run: the whole result tree with stable camelCase field names.
///
/// Every field is always present (`null` when it has no value) so consumers can rely on the
/// shape; the format is described in `Reports/README.md`. Incompatible changes bump
/// ``schemaVersion``.
package enum JSONReport {
    /// The version of the report's shape.
    package static let schemaVersion = 1

    /// Renders the run as indented JSON text, ending with a newline.
    package static func render(_ run: RunResult) -> String {
        value(run).prettyText + "\n"
    }

    /// The report as a JSON value.
    package static func value(_ run: RunResult) -> JSONValue {
        value(run.tally, scenarios: run.scenarios.map(scenario))
    }

    private static func value(_ tally: RunTally, scenarios: [JSONValue]) -> JSONValue {
        .object(
            JSONObject([
                ("schemaVersion", .number(Double(schemaVersion))),
                ("succeeded", .bool(tally.succeeded)),
                ("wallTimeSeconds", seconds(tally.wallTime)),
                (
                    "summary",
                    .object(
                        JSONObject([
                            ("total", count(tally.total)),
                            ("passed", count(tally.passed)),
                            ("failed", count(tally.failed)),
                            ("errors", count(tally.errors)),
                            ("skipped", count(tally.skipped)),
                        ]))
                ),
                ("scenarios", .array(scenarios)),
            ]))
    }

    /// The report written as results arrive: the same bytes as ``render(_:)``.
    package final class Stream: SpooledReport, StreamedReport {
        /// Starts a report to be written at `path`.
        package override init(path: String) { super.init(path: path) }

        package func add(_ result: ScenarioResult, at slot: Int) {
            // Each scenario sits two levels deep: in the root object, in `scenarios`.
            setAside(at: slot) { JSONReport.scenario(result).prettyText(level: 2) }
        }

        package func finish(_ tally: RunTally) throws {
            try write { spool, output in
                let empty = JSONReport.value(tally, scenarios: []).prettyText
                let tail = "[]\n}"
                precondition(empty.hasSuffix(tail), "the report ends with its scenarios")
                try output.write(String(empty.dropLast(tail.count)))
                let slots = spool.slots
                if slots.isEmpty { try output.write("[]") }
                for (index, slot) in slots.enumerated() {
                    try output.write(index == 0 ? "[\n    " : ",\n    ")
                    try output.write(try spool.piece(at: slot))
                }
                if !slots.isEmpty { try output.write("\n  ]") }
                try output.write("\n}\n")
            }
        }
    }

    private static func scenario(_ result: ScenarioResult) -> JSONValue {
        .object(
            JSONObject([
                ("id", .string(result.id)),
                ("name", .string(result.name)),
                ("file", .string(result.file)),
                ("classname", .string(JUnitReport.classname(forID: result.id))),
                ("tags", .array(result.tags.map(JSONValue.string))),
                ("status", .string(result.status.rawValue)),
                ("wallTimeSeconds", seconds(result.wallTime)),
                ("virtualTimeSeconds", seconds(result.virtualTime)),
                ("schedules", .number(Double(result.schedules))),
                ("host", result.host.isEmpty ? .null : .string(result.host)),
                ("errorMessage", optional(result.errorMessage)),
                ("errorLocation", location(result.errorLocation)),
                ("steps", .array(result.steps.map(step))),
                ("transcript", .array(result.transcript.map(JSONValue.string))),
            ]))
    }

    private static func step(_ result: StepResult) -> JSONValue {
        .object(
            JSONObject([
                ("index", count(result.index)),
                ("label", .string(result.label)),
                ("passed", .bool(result.passed)),
                ("location", location(result.location)),
                ("assertions", .array(result.assertions.map(assertion))),
            ]))
    }

    private static func assertion(_ result: AssertionResult) -> JSONValue {
        .object(
            JSONObject([
                ("label", .string(result.label)),
                ("passed", .bool(result.passed)),
                ("message", .string(result.message)),
                ("expected", optional(result.expected)),
                ("actual", optional(result.actual)),
                ("diff", optional(result.diff)),
                ("location", location(result.location)),
            ]))
    }

    private static func location(_ location: ScenarioLocation?) -> JSONValue {
        guard let location else { return .null }
        return .object(
            JSONObject([
                ("file", .string(location.file)),
                ("line", count(location.line)),
                ("column", count(location.column)),
                ("path", .string(location.path)),
            ]))
    }

    private static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    private static func count(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// Seconds rounded to milliseconds, as a number.
    private static func seconds(_ duration: Duration) -> JSONValue {
        .number(Double(duration.reportMilliseconds) / 1000)
    }
}
