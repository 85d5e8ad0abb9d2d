import Foundation
import ScenarioKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each field bug shrunk once per test process, by its stack's runner in a copy of the stack's
/// scenario folder, as its team would: the tests read the same copy.
actor FieldShrinks {
    /// The bug shrunk: where, and what the runner said.
    struct Shrunk: Sendable {
        /// A folder of the test's own holding `Scenarios/` (the stack's, copied) and the input.
        let folder: URL
        /// The draft or session shrunk, in `Scenarios/field/`.
        let input: URL
        /// Where the shrunk copy was to be written, beside it.
        let output: URL
        /// The runner's exit status and output.
        let run: StackRunner.Run

        /// A file's id below `Scenarios/`, which decides the invariant files that govern it.
        static func id(_ file: URL) -> String { "field/" + file.deletingPathExtension().lastPathComponent }
    }

    static let shared = FieldShrinks()

    /// Every folder these tests make, under one of this process's own, removed when it exits.
    static let parent: URL = {
        atexit { try? FileManager.default.removeItem(at: FileShrinksCleanup.parent) }
        return FileShrinksCleanup.parent
    }()

    private var made: [String: Task<Shrunk, any Error>] = [:]

    /// The bug shrunk (once per process).
    func shrunk(_ bug: FieldBug) async throws -> Shrunk {
        let key = bug.testDescription
        if let task = made[key] { return try await task.value }
        let task = Task { try await Self.shrink(bug) }
        made[key] = task
        return try await task.value
    }

    /// A fresh folder holding a copy of the stack's `Scenarios/`.
    static func scenarioCopy(of stack: FieldStack) throws -> URL {
        let folder = parent.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: stack.url.appendingPathComponent("Scenarios"), to: folder.appendingPathComponent("Scenarios"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Scenarios/field"), withIntermediateDirectories: true)
        return folder
    }

    private static func shrink(_ bug: FieldBug) async throws -> Shrunk {
        let folder = try scenarioCopy(of: bug.stack)
        let traces = bug.stack.url.appendingPathComponent("Traces")
        let input = folder.appendingPathComponent("Scenarios/field/\(bug.name).json")
        let output = folder.appendingPathComponent("Scenarios/field/\(bug.name)-shrunk.json")
        let runner = StackRunner(name: bug.stack.runner)
        let run: StackRunner.Run
        switch bug.input {
        case .trace(let name):
            try FileManager.default.copyItem(
                at: traces.appendingPathComponent("\(name).har"), to: folder.appendingPathComponent("\(name).har"))
            run = try await runner.run(["import", "\(name).har", "-o", "Scenarios/field/\(name).json", "--shrink"], in: folder)
        case .session(let name):
            try FileManager.default.copyItem(at: traces.appendingPathComponent("\(name).script.json"), to: input)
            run = try await runner.run(["shrink", "Scenarios/field/\(name).json", "-o", "Scenarios/field/\(name)-shrunk.json"], in: folder)
        }
        return Shrunk(folder: folder, input: input, output: output, run: run)
    }
}

/// The parent folder's path for the exit handler, which cannot capture anything.
private enum FileShrinksCleanup {
    static let parent = FileManager.default.temporaryDirectory.appendingPathComponent("field-bug-tests-\(getpid())")
}
