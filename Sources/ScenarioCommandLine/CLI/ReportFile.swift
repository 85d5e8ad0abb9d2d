import Foundation

/// Reads and writes the files commands name on the command line.
enum ReportFile {
    /// Writes text to `path`, creating missing folders.
    static func write(_ text: String, to path: String) throws(CLIError) {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw .cannotWrite(path: path, reason: error.localizedDescription)
        }
    }

    /// Reads the bytes of `path`.
    static func read(_ path: String) throws(CLIError) -> Data {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .cannotRead(path: path, reason: "no such file")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .cannotRead(path: path, reason: error.localizedDescription)
        }
    }
}
