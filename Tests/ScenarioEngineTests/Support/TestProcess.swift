import Foundation
import Testing

/// One test of this bundle run in a test process of its own, for what only a process's start or
/// end shows (a thread blocked for good, the environment the runtime reads as it starts).
enum TestProcess {
    /// Whether this platform can start processes.
    static let isAvailable: Bool = {
        #if os(macOS) || os(Linux)
            true
        #else
            false
        #endif
    }()

    /// Runs the test `filter` names (`Suite/test`) with `environment` on top of this process's
    /// (a `nil` value removes a variable), and expects it to pass within two minutes.
    static func expectPasses(_ filter: String, environment: [String: String?], sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        #if os(macOS) || os(Linux)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
            var variables = ProcessInfo.processInfo.environment
            for (name, value) in environment { variables[name] = value }
            process.environment = variables
            // A file, not a pipe, and a deadline: a probe may wait for good.
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("test-process-\(UUID().uuidString).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: log) }
            let output = try FileHandle(forWritingTo: log)
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
            let test = filter.split(separator: "/").last.map(String.init) ?? filter
            #expect(process.terminationStatus == 0, "\(text)", sourceLocation: sourceLocation)
            #expect(text.contains("Test \(test)() passed"), "\(text)", sourceLocation: sourceLocation)
        #endif
    }
}
