import ScenarioEngine

/// `scenario lint`: loads and checks scenario files without running them, reporting every
/// problem in every file in one pass.
struct LintCommand: Command {
    static let name = "lint"
    static let abstract = "Load and check scenario files without running them"
    static let arguments = "[paths...] [options]"
    static let discussion = """
        Paths are scenario files or folders searched recursively (default: Scenarios).
        Every problem in every file is printed as FILE:LINE:COLUMN: error: MESSAGE, and the exit
        status is 2 if there is any. Names used by more than one scenario are problems too.
        """
    static let options: [OptionSpec] = [.flag("--allow-empty", "Exit 0 when there is no scenario file to check")]

    /// The files and folders to check.
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
        var problems: [String] = []
        var brokenFiles = 0
        var firstByName: [String: Scenario] = [:]
        for entry in entries {
            switch entry.loaded {
            case .failure(let failure):
                brokenFiles += 1
                problems +=
                    failure.issues.isEmpty ? ["\(entry.path):1:1: error: could not load the file"] : failure.issues.map(\.description)
            case .success(let scenario):
                if let other = firstByName[scenario.name] {
                    brokenFiles += 1
                    problems.append(
                        "\(scenario.location): error: the name '\(scenario.name)' is also used by \(other.file); names must be unique in a run"
                    )
                } else {
                    firstByName[scenario.name] = scenario
                }
            }
        }
        for problem in problems { context.console.out(problem + "\n") }
        let files = "\(entries.count) file\(entries.count == 1 ? "" : "s")"
        if problems.isEmpty {
            context.console.out("Checked \(files): no problems\n")
            return .success
        }
        context.console.out(
            "Checked \(files): \(problems.count) problem\(problems.count == 1 ? "" : "s") in \(brokenFiles) file\(brokenFiles == 1 ? "" : "s")\n"
        )
        return .fileProblem
    }
}
