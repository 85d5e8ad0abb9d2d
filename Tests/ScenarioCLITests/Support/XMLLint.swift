import Foundation

/// `xmllint`, when installed, to validate reports against the JUnit schema.
enum XMLLint {
    /// The executable, if one is on the usual paths or `PATH`.
    static let url: URL? = {
        var folders = ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        folders += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return folders.map { URL(fileURLWithPath: $0).appendingPathComponent("xmllint") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Validates the XML file against the schema: `nil` when it is valid (or there is no
    /// xmllint), otherwise xmllint's complaint.
    static func problems(validating file: String, against schema: URL) throws -> String? {
        guard let url else { return nil }
        #if os(macOS) || os(Linux)
            let process = Process()
            process.executableURL = url
            process.arguments = ["--noout", "--schema", schema.path, file]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return process.terminationStatus == 0 ? nil : String(decoding: data, as: UTF8.self)
        #else
            return nil  // no Process to run it with
        #endif
    }

    /// Validates XML text (written to a temporary file first).
    static func problems(validatingText text: String, against schema: URL) throws -> String? {
        let folder = try TemporaryFolder()
        let file = try folder.write("report.xml", text)
        return try problems(validating: file, against: schema)
    }
}
