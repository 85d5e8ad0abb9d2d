import Foundation

/// A stack's own `scenario` command (`taskboard-scenarios`, built beside the test bundle, whose
/// driver is the buggy release), run as its team runs it, in a folder of the test's.
struct StackRunner {
    /// What one run printed and returned.
    struct Run: CustomStringConvertible {
        var status: Int32
        var output: String
        var description: String { "exit \(status)\n\(output)" }
    }

    /// The executable's name.
    let name: String

    /// Where the test bundle's executables are: beside the test process, or its bundle.
    private var candidates: [URL] {
        var folders: [URL] = []
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
            folders.append(bundle.bundleURL.deletingLastPathComponent().deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        return folders.flatMap { folder in (0..<4).map { up in (0..<up).reduce(folder) { url, _ in url.deletingLastPathComponent() } } }
            .map { $0.appendingPathComponent(name) }
    }

    /// The built executable, if there is one.
    var url: URL? { candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } }

    /// Runs it with `arguments` in `folder`, waiting on a thread of its own (not one of the
    /// cooperative pool's few); a run that has not ended after `limit` seconds is ended (a guard
    /// against a hang, not a measure).
    func run(_ arguments: [String], in folder: URL, limit: Double = 600) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try runWaiting(arguments, in: folder, limit: limit) }) }.start()
        }
    }

    private func runWaiting(_ arguments: [String], in folder: URL, limit: Double) throws -> Run {
        guard let url else { throw Missing(description: "\(name) is not built beside the tests (swift build --build-tests)") }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["GITHUB_ACTIONS"] = nil
        process.environment = environment
        // A file, not a pipe: a chatty run cannot fill a pipe's buffer and stall.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try handle.close()
        return Run(status: process.terminationStatus, output: String(decoding: try Data(contentsOf: log), as: UTF8.self))
    }

    /// The executable is not where the tests look.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }
}
