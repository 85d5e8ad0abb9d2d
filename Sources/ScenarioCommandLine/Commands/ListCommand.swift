import ScenarioKit

/// `scenario list`: the scenarios' ids, names and tags in aligned columns.
struct ListCommand: Command {
    static let name = "list"
    static let abstract = "List scenario ids, names and tags"
    static let arguments = "[paths...] [options]"
    static let discussion = """
        Paths are scenario files or folders searched recursively (default: Scenarios).
        Files that do not load are reported on standard error (exit status 2).
        """
    static let options: [OptionSpec] = []

    /// The files and folders to list.
    var paths: [String]

    init(_ arguments: ParsedArguments) throws(CLIError) {
        paths = arguments.scenarioPaths
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        let entries = try context.loadScenarios(paths)
        var rows = [["ID", "NAME", "TAGS"]]
        var failures: [LoadFailure] = []
        for entry in entries {
            switch entry.loaded {
            case .success(let scenario):
                rows.append([scenario.id, scenario.name, scenario.tags.joined(separator: ", ")])
            case .failure(let failure):
                failures.append(failure)
            }
        }
        if rows.count > 1 {
            context.console.out(TextTable(rows: rows).text)
        } else if failures.isEmpty {
            context.console.out("No scenarios in \(paths.joined(separator: ", "))\n")
        }
        for failure in failures {
            context.console.err(failure.description + "\n")
        }
        return failures.isEmpty ? .success : .fileProblem
    }
}
