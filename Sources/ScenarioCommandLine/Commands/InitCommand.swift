import Foundation
import ScenarioEngine

/// `scenario init`: a team's starting point: the scenario folder with its JSON Schemas, an
/// example scenario for this driver, the folder's `invariants.json` with a starter rule (what
/// `run --shrink` and `import --shrink` keep a bug by), and a driver skeleton to fill in. Never
/// overwrites a file.
struct InitCommand: Command {
    static let name = "init"
    static let abstract = "Scaffold a scenario folder: JSON Schemas, an example scenario, invariants, a driver skeleton"
    static let arguments = "[folder] [options]"
    static let discussion = """
        Writes FOLDER/scenario.schema.json, FOLDER/example/first-scenario.json, FOLDER/invariants.json
        (the rules every run of the folder must keep, with a starter rule: nothing is sent again
        before a 429 or 503's Retry-After is over) and FOLDER/invariants.schema.json (default
        folder: Scenarios) and, with --driver-skeleton PATH, a driver to start from. Existing
        files are left alone and reported; the exit status is 2 when any was in the way.
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
        var files: [(String, Data)] = []
        for schema in ["scenario.schema", "invariants.schema"] {
            guard let url = Bundle.module.url(forResource: schema, withExtension: "json"), let data = try? Data(contentsOf: url) else {
                throw .cannotWrite(path: folder + "/\(schema).json", reason: "the schema is missing from this build")
            }
            files.append((folder + "/\(schema).json", data))
        }
        files.append((folder + "/example/first-scenario.json", Data(Self.example(context.driver).utf8)))
        files.append((folder + "/invariants.json", Data(Self.invariants.utf8)))
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

    /// The folder's rules, with one that holds for any stack and that a stack retrying too soon
    /// breaks: what a shrink keeps a field bug by, until the team writes its own.
    static let invariants = """
        {
          "$schema": "invariants.schema.json",
          "invariants": [
            {
              "id": "no-request-before-retry-after",
              "description": "After a 429 or 503 with Retry-After, the same method and path is not sent again before the wait is over. Add the rules of your stack beside it: a refresh token spent once, one Account Blocked alert per blocked session (Documentation/scenario-format.md, Invariants).",
              "check": "respectsRetryAfter",
              "statuses": [429, 503]
            }
          ]
        }

        """

    /// A scenario that lints and passes for any driver whose stack sends nothing by itself: it
    /// scripts one optional exchange to edit, and says in its description what to do next.
    static func example(_ driver: any ScenarioDriver) -> String {
        typealias K = ScenarioKey
        let actions = driver.actions.prefix(5).map(\.name).joined(separator: ", ")
        let document: JSONValue = [
            K.schema: "../scenario.schema.json",
            K.name: "First scenario",
            K.description: .string(
                "Replace with the behaviour this scenario protects: add steps that call the driver's actions (\(actions)), script the answers in exchanges, and say in expect what must be true."
            ),
            K.tags: ["example"],
            K.exchanges: [
                [
                    K.id: "health", K.request: [K.method: "GET", K.path: "/health"],
                    K.response: [K.status: 200, K.json: [K.status: "ok"]], K.optional: true,
                ]
            ],
            K.steps: [[K.runUntilIdle: true]],
            K.expect: [K.requests: [K.total: 0]],
        ]
        return ScenarioDocument(document).text
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
