import Foundation

/// What one run of the `scenario` executable printed and returned.
struct CLIRun {
    /// The exit status.
    var status: Int32
    /// Standard output.
    var stdout: String
    /// Standard error.
    var stderr: String
    /// Both streams, output first.
    var output: String { stdout + stderr }
}

/// Finds the built `scenario` executable and runs it as a subprocess.
enum ScenarioBinary {
    /// The executable, if it could be found next to the test bundle.
    static let url: URL? = locate()

    /// Where to look: `SCENARIO_BINARY` if set, then the folder of the test process and of the
    /// test bundle (the build products folder, where SwiftPM puts executables too), then a few
    /// folders up from there, in case the bundle sits in a subfolder.
    static func candidates() -> [URL] {
        var folders: [URL] = []
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
            // macOS bundles keep their executable at Foo.xctest/Contents/MacOS/Foo.
            folders.append(bundle.bundleURL.deletingLastPathComponent().deletingLastPathComponent())
        }
        var result: [URL] = []
        if let override = ProcessInfo.processInfo.environment["SCENARIO_BINARY"], !override.isEmpty {
            result.append(URL(fileURLWithPath: override))
        }
        for folder in folders {
            var current = folder
            for _ in 0..<4 {
                result.append(current.appendingPathComponent("scenario"))
                current = current.deletingLastPathComponent()
            }
        }
        return result
    }

    private static func locate() -> URL? {
        let manager = FileManager.default
        return candidates().first { url in
            var isDirectory: ObjCBool = false
            return manager.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && manager.isExecutableFile(atPath: url.path)
        }
    }

    /// Runs `scenario` (or `executable`, a link to it) with `arguments` in `directory`, with
    /// `NO_COLOR` and `GITHUB_ACTIONS` removed from the environment unless `environment` sets them.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], timeout: Double = 120, executable: URL? = nil
    ) throws -> CLIRun {
        guard let url = executable ?? url else {
            throw LocateError(searched: candidates().map(\.path))
        }
        #if os(macOS) || os(Linux)
            let process = Process()
            process.executableURL = url
            process.arguments = arguments
            process.currentDirectoryURL = directory
            var variables = ProcessInfo.processInfo.environment
            variables["NO_COLOR"] = nil
            variables["GITHUB_ACTIONS"] = nil
            variables.merge(environment) { $1 }
            process.environment = variables

            // Files, not pipes: a chatty child cannot fill a pipe buffer and stall.
            let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: outputs) }
            let outURL = outputs.appendingPathComponent("stdout")
            let errURL = outputs.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            let outHandle = try FileHandle(forWritingTo: outURL)
            let errHandle = try FileHandle(forWritingTo: errURL)
            process.standardOutput = outHandle
            process.standardError = errHandle
            process.standardInput = FileHandle.nullDevice

            try process.run()
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning, Date() < deadline { usleep(5_000) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            try outHandle.close()
            try errHandle.close()
            return CLIRun(
                status: process.terminationStatus,
                stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
            )
        #else
            throw LocateError(searched: ["(Process is not available on this platform)"])
        #endif
    }

    /// The executable was not built where the tests look.
    struct LocateError: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the scenario executable was not found; build it (swift build) or set SCENARIO_BINARY. Looked at:\n"
                + searched.joined(separator: "\n")
        }
    }
}
