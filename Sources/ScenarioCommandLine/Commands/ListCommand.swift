import ScenarioEngine

/// `scenario list`: the scenarios' ids, names and tags in aligned columns.
struct ListCommand: Command {
    static let name = "list"
    static let abstract = "List scenario ids, names and tags"
    static let arguments = "[paths...] [options]"
    static let discussion = """
        Paths are scenario files or folders searched recursively (default: Scenarios).
        Files that do not load are reported on standard error (exit status 2), as is finding none.
        """
    static let options: [OptionSpec] = [.flag("--allow-empty", "Exit 0 when there is no scenario file to list")]

    /// The files and folders to list.
    var paths: [String]
    /// Whether finding no file is fine.
    var allowEmpty = false

    init(_ arguments: ParsedArguments) throws(CLIError) {
        paths = arguments.scenarioPaths
        allowEmpty = arguments.has("--allow-empty")
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        let entries = try context.loadScenarios(paths)
        if entries.isEmpty, !allowEmpty {
            throw .nothingSelected("no scenario files found in \(paths.joined(separator: ", "))")
        }
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
