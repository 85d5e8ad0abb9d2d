import Foundation
import ScenarioEngine

/// `scenario merge`: joins JUnit reports of CI shards into one, with totals recomputed.
struct MergeCommand: Command {
    static let name = "merge"
    static let abstract = "Merge JUnit reports (such as CI shards) into one"
    static let arguments = "OUT.xml IN.xml... [options]"
    static let discussion = """
        Suites with the same name are joined; test cases keep their order, input by input.
        Every count and time is recomputed from the test cases.
        """
    static let options: [OptionSpec] = []

    /// Where to write the merged report.
    var output: String
    /// The reports to merge, in order.
    var inputs: [String]

    init(_ arguments: ParsedArguments) throws(CLIError) {
        guard let output = arguments.positionals.first else {
            throw .missingArgument("an output path and at least one input report", command: Self.name)
        }
        guard arguments.positionals.count >= 2 else {
            throw .missingArgument("at least one input report after the output path", command: Self.name)
        }
        self.output = output
        inputs = Array(arguments.positionals.dropFirst())
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        var documents: [(name: String, data: Data)] = []
        for input in inputs {
            documents.append((input, try ReportFile.read(input)))
        }
        let merged: XMLMarkup
        do {
            merged = try JUnitMerge.mergedTree(documents)
        } catch {
            throw .invalidReport(error.description)
        }
        try ReportFile.write(merged.document, to: output)
        let tests = merged[attribute: "tests"] ?? "0"
        let failures = merged[attribute: "failures"] ?? "0"
        let errors = merged[attribute: "errors"] ?? "0"
        context.console.out(
            "Merged \(inputs.count) report\(inputs.count == 1 ? "" : "s") into \(output): \(tests) tests, \(failures) failures, \(errors) errors\n"
        )
        return .success
    }
}
