import Foundation

/// Chromium without a window, to load the HTML report as a person's browser would.
enum HeadlessBrowser {
    /// The executable, if one is on the usual paths or `PATH`.
    static let url: URL? = {
        var folders = ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        folders += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let names = ["chromium", "chromium-browser", "google-chrome", "chrome"]
        return folders.flatMap { folder in names.map { URL(fileURLWithPath: folder).appendingPathComponent($0) } }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// What loading a page printed: the document as the browser built it, and every message
    /// the page wrote to its console (script errors, blocked resources, policy violations).
    struct Load {
        var document: String
        var consoleMessages: [String]
    }

    /// Loads the file.
    static func load(_ file: URL) throws -> Load {
        guard let url else { throw Missing() }
        let arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", "--dump-dom"]
        #if os(macOS) || os(Linux)
            let process = Process()
            process.executableURL = url
            process.arguments = arguments + [file.absoluteString]
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let outURL = folder.appendingPathComponent("out")
            let errURL = folder.appendingPathComponent("err")
            _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: outURL)
            process.standardError = try FileHandle(forWritingTo: errURL)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            let errors = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
            return Load(
                document: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                consoleMessages: errors.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") })
        #else
            throw Missing()
        #endif
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String { "no Chromium found (apt-get install chromium); CI installs it" }
    }
}
