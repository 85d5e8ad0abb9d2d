/// What each exit status means for each command, for its `--help`: a command lists its own
/// statuses, in its own words, rather than the whole tool's table.
enum CommandExitCodes {
    /// The statuses `name` exits with and what each means there.
    static func table(for name: String) -> [(code: ExitCode, meaning: String)] {
        let usage = (ExitCode.usage, "usage error: unknown option, bad or missing value")
        let entries: [(ExitCode, String)]
        switch name {
        case "run":
            entries = [
                (.success, "every scenario passed (nothing found or selected counts only with --allow-empty)"),
                (.failure, "a scenario failed, errored while running, or was nondeterministic under --repeat"),
                (.fileProblem, "a scenario file did not load, a path is missing, a report could not be written, or nothing was selected"),
            ]
        case "lint":
            entries = [
                (.success, "every file loads clean (none found counts only with --allow-empty)"),
                (.fileProblem, "a file has a problem, or no scenario file was found"),
            ]
        case "list", "actions":
            entries = [(.success, "the list was printed"), (.fileProblem, "no scenario file was found, or a path is missing")]
        case "init":
            entries = [
                (.success, "the folder was set up"),
                (.fileProblem, "a file was already there (nothing overwritten) or could not be written"),
            ]
        case "import":
            entries = [
                (.success, "the scenario was written"),
                (.fileProblem, "the trace could not be read or is not a HAR, or the output could not be written"),
            ]
        case "export":
            entries = [
                (.success, "the trace was written and the scenario passed"),
                (.failure, "the trace was written and the scenario failed"),
                (.fileProblem, "the scenario did not load, its run sent no request, or the trace could not be written"),
            ]
        case "export-pact":
            entries = [
                (.success, "the pact was written with every exchange that can be exported"),
                (
                    .failure,
                    "the pact was written, but a scenario failed its run or --openapi refused an answer: those exchanges are left out"
                ),
                (
                    .fileProblem,
                    "a scenario file or the --openapi document did not load (nothing written), or no exchange could be exported"
                ),
            ]
        case "verify":
            entries = [
                (.success, "every exchange and request sent conforms or is skipped with a reason"),
                (.failure, "a finding, or an exchange that could not be checked (without --allow-unchecked)"),
                (.fileProblem, "the document, a trace or a scenario file could not be read, or no exchange was checked"),
            ]
        case "redact":
            entries = [(.success, "the redacted trace was written"), (.fileProblem, "the trace could not be read or written")]
        case "merge":
            entries = [
                (.success, "the reports were merged"),
                (.fileProblem, "a report could not be read or is not JUnit, or the output could not be written"),
            ]
        case "shrink":
            entries = [
                (.success, "a smaller scenario that fails the same way was written"),
                (.failure, "the scenario passes: there is no failure to shrink (nothing written)"),
                (.fileProblem, "the scenario did not load, its failure does not repeat, or the output could not be written"),
            ]
        default:
            return ExitCode.allCases.map { ($0, $0.meaning) }
        }
        return entries + [usage]
    }

    /// The `EXIT CODES:` section of `name`'s help.
    static func text(for name: String) -> String {
        "EXIT CODES:\n" + table(for: name).map { "  " + HelpText.pad(String($0.code.rawValue), 3) + " " + $0.meaning + "\n" }.joined()
    }
}
