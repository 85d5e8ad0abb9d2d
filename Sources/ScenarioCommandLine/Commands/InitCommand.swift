import Foundation
import ScenarioEngine

/// `scenario init`: a team's starting point: the scenario folder with its JSON Schema and an
/// example scenario for this driver, and a driver skeleton to fill in. Never overwrites a file.
struct InitCommand: Command {
    static let name = "init"
    static let abstract = "Scaffold a scenario folder: JSON Schema, an example scenario, a driver skeleton"
    static let arguments = "[folder] [options]"
    static let discussion = """
        Writes FOLDER/scenario.schema.json, FOLDER/example/first-scenario.json (default folder:
        Scenarios) and, with --driver-skeleton PATH, a driver to start from. Existing files are
        left alone and reported; the exit status is 2 when any was in the way.
        """
    static let options: [OptionSpec] = [
        .value("--driver-skeleton", "PATH", "Also write a ScenarioDriver skeleton (a .swift file) to PATH")
    ]

    var folder: String
    var skeleton: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        let paths = arguments.positionals
        if paths.count > 1 { throw .unexpectedArgument(paths[1], command: Self.name) }
        folder = paths.first ?? RunCommand.defaultPath
        skeleton = arguments.value("--driver-skeleton")
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        guard let schemaURL = Bundle.module.url(forResource: "scenario.schema", withExtension: "json"),
            let schema = try? Data(contentsOf: schemaURL)
        else { throw .cannotWrite(path: folder + "/scenario.schema.json", reason: "the schema is missing from this build") }
        var files: [(String, Data)] = [
            (folder + "/scenario.schema.json", schema),
            (folder + "/example/first-scenario.json", Data(Self.example(context.driver).utf8)),
        ]
        if let skeleton { files.append((skeleton, Data(Self.skeleton.utf8))) }
        var blocked = false
        for (path, data) in files {
            if FileManager.default.fileExists(atPath: path) {
                context.console.err("skipped \(path): it exists already\n")
                blocked = true
                continue
            }
            let parent = (path as NSString).deletingLastPathComponent
            do {
                if !parent.isEmpty { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
                try data.write(to: URL(fileURLWithPath: path))
            } catch {
                throw .cannotWrite(path: path, reason: error.localizedDescription)
            }
            context.console.out("wrote \(path)\n")
        }
        context.console.out("Next: `\(ScenarioCLI.programName) lint \(folder)`, then `\(ScenarioCLI.programName) run \(folder)`.\n")
        return blocked ? .fileProblem : .success
    }

    /// A scenario that lints and passes for any driver whose stack sends nothing by itself: it
    /// scripts one optional exchange to edit, and says in its description what to do next.
    static func example(_ driver: any ScenarioDriver) -> String {
        let actions = driver.actions.prefix(5).map(\.name).joined(separator: ", ")
        return """
            {
              "$schema": "../scenario.schema.json",
              "name": "First scenario",
              "description": "Replace with the behaviour this scenario protects: add steps that call the driver's actions (\(actions)), script the answers in exchanges, and say in expect what must be true.",
              "tags": ["example"],
              "exchanges": [
                {
                  "id": "health",
                  "request": { "method": "GET", "path": "/health" },
                  "response": { "status": 200, "json": { "status": "ok" } },
                  "optional": true
                }
              ],
              "steps": [
                { "runUntilIdle": true }
              ],
              "expect": {
                "requests": { "total": 0 }
              }
            }

            """
    }

    static let skeleton = """
        import Foundation
        import HTTPCore
        import ScenarioEngine

        /// Binds scenarios to your stack: action names to calls, and the state scenarios check.
        struct MyDriver: ScenarioDriver {
            var name: String { "MyApp" }
            var actions: [ActionSpec] {
                [ActionSpec("signIn", "Email sign-in", arguments: [ArgumentSpec("email", .string, required: true, "the email")])]
            }
            var givenKeys: [GivenSpec] { [] }

            func makeSession(_ context: DriverContext) async throws -> any DriverSession {
                // Build your stack as the app does, pointed at the scenario's backend and clock:
                // context.urlSessionConfiguration() for its own URLSession (or context.transport),
                // context.clock and context.now for time. No executor to pass.
                MySession()
            }
        }

        final class MySession: DriverSession, @unchecked Sendable {
            func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
                .error(["code": "notImplemented"])
            }
            func snapshot() async -> JSONValue { .object([:]) }
            func alerts() async -> [JSONValue] { [] }
            func timeline() async -> [JSONValue] { [] }
        }

        """
}
