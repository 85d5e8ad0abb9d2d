/// The JSON view of a run: the whole result tree with stable camelCase field names.
///
/// Every field is always present (`null` when it has no value) so consumers can rely on the
/// shape; the format is described in `Reports/README.md`. Incompatible changes bump
/// ``schemaVersion``.
public enum JSONReport {
    /// The version of the report's shape.
    public static let schemaVersion = 1

    /// Renders the run as indented JSON text, ending with a newline.
    public static func render(_ run: RunResult) -> String {
        value(run).prettyText + "\n"
    }

    /// The report as a JSON value.
    public static func value(_ run: RunResult) -> JSONValue {
        .object(
            JSONObject([
                ("schemaVersion", .number(Double(schemaVersion))),
                ("succeeded", .bool(run.succeeded)),
                ("wallTimeSeconds", seconds(run.wallTime)),
                (
                    "summary",
                    .object(
                        JSONObject([
                            ("total", count(run.scenarios.count)),
                            ("passed", count(run.count(.passed))),
                            ("failed", count(run.count(.failed))),
                            ("errors", count(run.count(.error))),
                            ("skipped", count(run.count(.skipped))),
                        ]))
                ),
                ("scenarios", .array(run.scenarios.map(scenario))),
            ]))
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
